/**
 * ESPN site API adapter (no key needed). What it offers:
 * - scoreboard (nba, wnba, mlb, soccer leagues): games, status, scores, MLB probable pitchers with ERA
 * - MMA scoreboard (ufc, pfl): fight cards (two-fighter bouts, record, weight class, rounds)
 * - summary: per-player box-score lines (nba/wnba, soccer) + game status + injuries at fetch time
 * - team roster (with injury chips), league injuries (OUT/GTD/PROB chips), news (athlete/team from categories)
 * - athlete season tables, core statistics and game logs (generic rows; not settlement data)
 */
export { espnLeague, espnGameStatus, type EspnLeague } from './common.js';
export type { AdapterLog } from '../json.js';
export { scoreboardUrl, parseScoreboard, fetchScoreboard, scoreboardGameSchema, probablePitcherSchema, type ScoreboardGame, type ProbablePitcher } from './scoreboard.js';
export { summaryUrl, parseSummary, fetchSummary, gameSummarySchema, type GameSummary } from './summary.js';
export { injuriesUrl, parseInjuries, fetchInjuries, chipForStatus, injurySchema, injuryChipSchema, type Injury, type InjuryChip } from './injuries.js';
export { rosterUrl, parseRoster, parseRosterPage, fetchRoster, fetchRosterPage, rosterPlayerSchema, type RosterPlayer, type RosterPage } from './roster.js';
export { newsUrl, parseNews, fetchNews, newsItemSchema, type NewsItem } from './news.js';
export { parseFightCards, fetchFightCards, fetchUpcomingFightCards, upcomingFightCardsUrl, fightCardSchema, boutSchema, fighterSchema, DATA_LIMITED_MARKETS, type FightCard, type Bout, type Fighter } from './fight-cards.js';
export {
  athleteStatsUrl,
  athleteGamelogUrl,
  parseAthleteSeasonStats,
  parseAthleteCoreStatistics,
  parseAthleteGamelog,
  fetchAthleteSeasonStats,
  fetchAthleteGamelog,
  type AthleteSeasonRow,
  type GamelogRow,
} from './athlete-stats.js';
