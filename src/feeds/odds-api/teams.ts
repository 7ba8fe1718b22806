import type { Sport } from '../../domain/sports.js';

/**
 * The Odds API full team names -> the abbreviations propgrade uses elsewhere (ESPN's codes, see
 * shared/feeds/espn/NOTES.md §10: GS, NO, NY, SA, UTAH, WSH in the NBA; CHW, WSH, ATH in MLB).
 */
const NBA: Readonly<Record<string, string>> = {
  'Atlanta Hawks': 'ATL',
  'Boston Celtics': 'BOS',
  'Brooklyn Nets': 'BKN',
  'Charlotte Hornets': 'CHA',
  'Chicago Bulls': 'CHI',
  'Cleveland Cavaliers': 'CLE',
  'Dallas Mavericks': 'DAL',
  'Denver Nuggets': 'DEN',
  'Detroit Pistons': 'DET',
  'Golden State Warriors': 'GS',
  'Houston Rockets': 'HOU',
  'Indiana Pacers': 'IND',
  'Los Angeles Clippers': 'LAC',
  'Los Angeles Lakers': 'LAL',
  'Memphis Grizzlies': 'MEM',
  'Miami Heat': 'MIA',
  'Milwaukee Bucks': 'MIL',
  'Minnesota Timberwolves': 'MIN',
  'New Orleans Pelicans': 'NO',
  'New York Knicks': 'NY',
  'Oklahoma City Thunder': 'OKC',
  'Orlando Magic': 'ORL',
  'Philadelphia 76ers': 'PHI',
  'Phoenix Suns': 'PHX',
  'Portland Trail Blazers': 'POR',
  'Sacramento Kings': 'SAC',
  'San Antonio Spurs': 'SA',
  'Toronto Raptors': 'TOR',
  'Utah Jazz': 'UTAH',
  'Washington Wizards': 'WSH',
};

/** 2025: 13 teams (Valkyries added); 2026 adds Portland Fire and Toronto Tempo. */
const WNBA: Readonly<Record<string, string>> = {
  'Atlanta Dream': 'ATL',
  'Chicago Sky': 'CHI',
  'Connecticut Sun': 'CONN',
  'Dallas Wings': 'DAL',
  'Golden State Valkyries': 'GS',
  'Indiana Fever': 'IND',
  'Las Vegas Aces': 'LV',
  'Los Angeles Sparks': 'LA',
  'Minnesota Lynx': 'MIN',
  'New York Liberty': 'NY',
  'Phoenix Mercury': 'PHX',
  'Portland Fire': 'POR',
  'Seattle Storm': 'SEA',
  'Toronto Tempo': 'TOR',
  'Washington Mystics': 'WSH',
};

const MLB: Readonly<Record<string, string>> = {
  'Arizona Diamondbacks': 'ARI',
  Athletics: 'ATH',
  // The franchise's name (and ESPN's code) before the 2025 move; old recordings use it.
  'Oakland Athletics': 'OAK',
  'Atlanta Braves': 'ATL',
  'Baltimore Orioles': 'BAL',
  'Boston Red Sox': 'BOS',
  'Chicago Cubs': 'CHC',
  'Chicago White Sox': 'CHW',
  'Cincinnati Reds': 'CIN',
  'Cleveland Guardians': 'CLE',
  'Colorado Rockies': 'COL',
  'Detroit Tigers': 'DET',
  'Houston Astros': 'HOU',
  'Kansas City Royals': 'KC',
  'Los Angeles Angels': 'LAA',
  'Los Angeles Dodgers': 'LAD',
  'Miami Marlins': 'MIA',
  'Milwaukee Brewers': 'MIL',
  'Minnesota Twins': 'MIN',
  'New York Mets': 'NYM',
  'New York Yankees': 'NYY',
  'Philadelphia Phillies': 'PHI',
  'Pittsburgh Pirates': 'PIT',
  'San Diego Padres': 'SD',
  'San Francisco Giants': 'SF',
  'Seattle Mariners': 'SEA',
  'St. Louis Cardinals': 'STL',
  'Tampa Bay Rays': 'TB',
  'Texas Rangers': 'TEX',
  'Toronto Blue Jays': 'TOR',
  'Washington Nationals': 'WSH',
};

const TABLES: Partial<Record<Sport, Readonly<Record<string, string>>>> = { nba: NBA, wnba: WNBA, mlb: MLB };

/** The abbreviation for an Odds API team name; null when the sport has no table or the name is unknown. */
export function teamAbbr(sport: Sport, fullName: string | null | undefined): string | null {
  if (!fullName) return null;
  return TABLES[sport]?.[fullName.trim()] ?? null;
}

/** Exposed for tests and the doctor command. */
export function teamTable(sport: 'nba' | 'wnba' | 'mlb'): Readonly<Record<string, string>> {
  return TABLES[sport] ?? {};
}
