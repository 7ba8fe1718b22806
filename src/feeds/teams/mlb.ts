/**
 * MLB clubs across providers. ESPN ids/abbreviations were read off the ESPN scoreboards in
 * ../shared/feeds/espn (all 30 clubs occur there); Savant codes off the 2025 arsenal CSV
 * (`team_name_alt`); MLB Stats API ids are the statsapi team ids (112 CHC, 116 DET, 117 HOU,
 * 141 TOR, 133 ATH occur in ../shared/feeds/mlb-statsapi; the others are the API's fixed club ids).
 */
export interface MlbTeam {
  /** ESPN abbreviation: the canonical team code propgrade stores. */
  readonly espn: string;
  readonly espnId: string;
  readonly savant: string;
  readonly statsapiId: number;
  readonly name: string;
  /** Other spellings seen in feeds (older names, statsapi/odds spellings). */
  readonly aliases: readonly string[];
}

const t = (espn: string, espnId: string, savant: string, statsapiId: number, name: string, aliases: string[] = []): MlbTeam => ({
  espn,
  espnId,
  savant,
  statsapiId,
  name,
  aliases,
});

export const MLB_TEAMS: readonly MlbTeam[] = [
  t('ARI', '29', 'AZ', 109, 'Arizona Diamondbacks'),
  t('ATH', '11', 'ATH', 133, 'Athletics', ['Oakland Athletics', 'OAK', 'Athletics Athletics']),
  t('ATL', '15', 'ATL', 144, 'Atlanta Braves'),
  t('BAL', '1', 'BAL', 110, 'Baltimore Orioles'),
  t('BOS', '2', 'BOS', 111, 'Boston Red Sox'),
  t('CHC', '16', 'CHC', 112, 'Chicago Cubs'),
  t('CHW', '4', 'CWS', 145, 'Chicago White Sox', ['CWS']),
  t('CIN', '17', 'CIN', 113, 'Cincinnati Reds'),
  t('CLE', '5', 'CLE', 114, 'Cleveland Guardians', ['Cleveland Indians']),
  t('COL', '27', 'COL', 115, 'Colorado Rockies'),
  t('DET', '6', 'DET', 116, 'Detroit Tigers'),
  t('HOU', '18', 'HOU', 117, 'Houston Astros'),
  t('KC', '7', 'KC', 118, 'Kansas City Royals', ['KCR']),
  t('LAA', '3', 'LAA', 108, 'Los Angeles Angels'),
  t('LAD', '19', 'LAD', 119, 'Los Angeles Dodgers'),
  t('MIA', '28', 'MIA', 146, 'Miami Marlins'),
  t('MIL', '8', 'MIL', 158, 'Milwaukee Brewers'),
  t('MIN', '9', 'MIN', 142, 'Minnesota Twins'),
  t('NYM', '21', 'NYM', 121, 'New York Mets'),
  t('NYY', '10', 'NYY', 147, 'New York Yankees'),
  t('PHI', '22', 'PHI', 143, 'Philadelphia Phillies'),
  t('PIT', '23', 'PIT', 134, 'Pittsburgh Pirates'),
  t('SD', '25', 'SD', 135, 'San Diego Padres', ['SDP']),
  t('SEA', '12', 'SEA', 136, 'Seattle Mariners'),
  t('SF', '26', 'SF', 137, 'San Francisco Giants', ['SFG']),
  t('STL', '24', 'STL', 138, 'St. Louis Cardinals'),
  t('TB', '30', 'TB', 139, 'Tampa Bay Rays', ['TBR']),
  t('TEX', '13', 'TEX', 140, 'Texas Rangers'),
  t('TOR', '14', 'TOR', 141, 'Toronto Blue Jays'),
  t('WSH', '20', 'WSH', 120, 'Washington Nationals', ['WSN', 'WAS']),
];
