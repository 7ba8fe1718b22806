/** Team tables shared by the adapters: ESPN vs Savant vs MLB Stats API vs NBA.com codes, full names. */
export { MLB_TEAMS, type MlbTeam } from './mlb.js';
export { NBA_TEAMS, WNBA_TEAMS, type BasketballTeam } from './basketball.js';
export {
  teamAbbr,
  teamAbbrByEspnId,
  mlbTeamByStatsapiId,
  savantToEspn,
  espnToSavant,
  nbaComToEspn,
  espnToNbaCom,
} from './lookup.js';
