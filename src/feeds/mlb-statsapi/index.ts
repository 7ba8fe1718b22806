/**
 * MLB Stats API adapter (statsapi.mlb.com, no key needed). What it offers:
 * - schedule (hydrate=probablePitcher,lineups): games, status, probable pitchers, posted lineups
 * - boxscore: batter lines (hits, total bases, home runs) and pitcher lines (strikeouts, batters
 *   faced, innings) as PlayerGameStat; starters = battingOrder ending "00"
 * - live feed: game state + current per-player values
 * - people / season players: MLBAM id <-> name lookup; game logs as PlayerGameStat history
 * - season/career stats with the ERA string and K%
 * - lineupStatus(): CONFIRMED / NOT_IN / PROJECTED
 */
export { mlbGameStatus, inningsFromNotation, totalBasesOf } from './common.js';
export { lineupStatus, lineupStatusSchema, lineupEntrySchema, lineupReadSchema, type LineupStatus, type LineupEntry, type LineupRead } from './lineups.js';
export { scheduleUrl, parseSchedule, fetchSchedule, mlbScheduleGameSchema, mlbProbableSchema, type MlbScheduleGame, type MlbProbable } from './schedule.js';
export { boxscoreUrl, parseBoxscore, fetchBoxscore, startingLineup, mlbPlayerLineSchema, type MlbPlayerLine, type BoxscoreContext } from './boxscore.js';
export { liveFeedUrl, parseLiveFeed, fetchLiveFeed, mlbLiveGameSchema, type MlbLiveGame } from './live-feed.js';
export {
  personUrl,
  seasonPlayersUrl,
  teamRosterUrl,
  parsePeople,
  parseTeamRoster,
  mlbamIdByName,
  fetchPerson,
  fetchSeasonPlayers,
  mlbPersonSchema,
  mlbRosterEntrySchema,
  type MlbPerson,
  type MlbRosterEntry,
} from './people.js';
export {
  gameLogUrl,
  seasonStatsUrl,
  parseGameLog,
  parseSeasonStats,
  fetchGameLog,
  fetchSeasonStats,
  seasonStatLineSchema,
  type SeasonStatLine,
  type GameLogContext,
  type StatGroup,
} from './people-stats.js';
