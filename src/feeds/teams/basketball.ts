/**
 * NBA and WNBA teams across providers. ESPN ids/abbreviations were read off the ESPN payloads in
 * ../shared/feeds/espn (scoreboards, summaries, the league injury file, news categories) unless
 * `seen: false`, in which case they come from ESPN's public team list and were not in a sample.
 * `nbaCom` is the NBA.com / stats.nba.com tricode.
 */
export interface BasketballTeam {
  readonly espn: string;
  /** ESPN team id; null when no sample showed it. */
  readonly espnId: string | null;
  readonly nbaCom: string;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly seen: boolean;
}

const b = (espn: string, espnId: string | null, nbaCom: string, name: string, aliases: string[] = [], seen = true): BasketballTeam => ({
  espn,
  espnId,
  nbaCom,
  name,
  aliases,
  seen,
});

export const NBA_TEAMS: readonly BasketballTeam[] = [
  b('ATL', '1', 'ATL', 'Atlanta Hawks'),
  b('BOS', '2', 'BOS', 'Boston Celtics'),
  b('BKN', '17', 'BKN', 'Brooklyn Nets', ['BRK']),
  b('CHA', '30', 'CHA', 'Charlotte Hornets', ['CHO']),
  b('CHI', '4', 'CHI', 'Chicago Bulls'),
  b('CLE', '5', 'CLE', 'Cleveland Cavaliers'),
  b('DAL', '6', 'DAL', 'Dallas Mavericks'),
  b('DEN', '7', 'DEN', 'Denver Nuggets'),
  b('DET', '8', 'DET', 'Detroit Pistons', [], false),
  b('GS', '9', 'GSW', 'Golden State Warriors'),
  b('HOU', '10', 'HOU', 'Houston Rockets'),
  b('IND', '11', 'IND', 'Indiana Pacers'),
  b('LAC', '12', 'LAC', 'LA Clippers', ['Los Angeles Clippers']),
  b('LAL', '13', 'LAL', 'Los Angeles Lakers'),
  b('MEM', '29', 'MEM', 'Memphis Grizzlies'),
  b('MIA', '14', 'MIA', 'Miami Heat'),
  b('MIL', '15', 'MIL', 'Milwaukee Bucks'),
  b('MIN', '16', 'MIN', 'Minnesota Timberwolves'),
  b('NO', '3', 'NOP', 'New Orleans Pelicans'),
  b('NY', '18', 'NYK', 'New York Knicks'),
  b('OKC', '25', 'OKC', 'Oklahoma City Thunder'),
  b('ORL', '19', 'ORL', 'Orlando Magic'),
  b('PHI', '20', 'PHI', 'Philadelphia 76ers'),
  b('PHX', '21', 'PHX', 'Phoenix Suns', ['PHO']),
  b('POR', '22', 'POR', 'Portland Trail Blazers'),
  b('SAC', '23', 'SAC', 'Sacramento Kings'),
  b('SA', '24', 'SAS', 'San Antonio Spurs'),
  b('TOR', '28', 'TOR', 'Toronto Raptors'),
  b('UTAH', '26', 'UTA', 'Utah Jazz'),
  b('WSH', '27', 'WAS', 'Washington Wizards'),
];

export const WNBA_TEAMS: readonly BasketballTeam[] = [
  b('ATL', null, 'ATL', 'Atlanta Dream', [], false),
  b('CHI', null, 'CHI', 'Chicago Sky', [], false),
  b('CONN', null, 'CON', 'Connecticut Sun', ['CT'], false),
  b('DAL', '3', 'DAL', 'Dallas Wings'),
  b('GS', null, 'GSV', 'Golden State Valkyries', [], false),
  b('IND', '5', 'IND', 'Indiana Fever'),
  b('LV', '17', 'LVA', 'Las Vegas Aces'),
  b('LA', '6', 'LAS', 'Los Angeles Sparks'),
  b('MIN', '8', 'MIN', 'Minnesota Lynx'),
  b('NY', null, 'NYL', 'New York Liberty', [], false),
  b('PHX', '11', 'PHO', 'Phoenix Mercury'),
  b('SEA', '14', 'SEA', 'Seattle Storm'),
  b('WSH', '16', 'WAS', 'Washington Mystics'),
  // 2026 expansion teams: named in the real Odds API WNBA events list (2026-08-01); no ESPN id or
  // NBA.com tricode seen in any recording, so those codes are the ESPN-style abbreviations.
  b('POR', null, 'POR', 'Portland Fire', [], false),
  b('TOR', null, 'TOR', 'Toronto Tempo', [], false),
];
