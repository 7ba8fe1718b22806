import type { GameStatus } from '../domain/entities.js';
import type { GradedSport } from '../domain/sports.js';
import type { StatType } from '../domain/stats.js';
import { espnLeague, fetchScoreboard, fetchSummary, type EspnLeague, type GameSummary } from '../feeds/espn/index.js';
import { fetchBoxscore, fetchLiveFeed, fetchSchedule, type MlbLiveGame, type MlbPlayerLine } from '../feeds/mlb-statsapi/index.js';
import type { Transport } from '../feeds/transport/types.js';
import type { LoadResult } from '../store/cache.js';
import type { loadLog } from '../feeds/context.js';

/**
 * The live board of a date: every game on the provider's scoreboard (ESPN; MLB Stats API) with its
 * clock and, once started, its box score. Loaded through the context cache by the live view
 * (live.ts); a game whose feed fails keeps its last good lines.
 */

/** ESPN soccer competitions scanned for a soccer entry's game (eng.1 and fifa.world are in the recordings). */
export const ESPN_SOCCER_LEAGUES = ['eng.1', 'esp.1', 'ger.1', 'ita.1', 'fra.1', 'usa.1', 'uefa.champions', 'fifa.world'] as const;

export interface LiveLine {
  playerKey: string;
  playerName: string;
  team: string | null;
  /** MLB: which side the player is on (the pitcher's clock reads the other side's outs). */
  side: 'home' | 'away' | null;
  /** ESPN wrote the player as did-not-play. */
  didNotPlay: boolean;
  /** Soccer: false for a substitute not (yet) on the pitch (ESPN `appearances` 0); null elsewhere. */
  appeared: boolean | null;
  stats: Partial<Record<StatType, number | null>>;
}

export interface LiveGame {
  gameId: string;
  league: string | null;
  home: string | null;
  away: string | null;
  commenceTime: string | null;
  status: GameStatus;
  statusName: string | null;
  detail: string | null;
  period: number | null;
  clockSeconds: number | null;
  displayClock: string | null;
  inning: number | null;
  inningState: string | null;
  outs: number | null;
  /** ok: the box score was read; not_started: no box score before the game; unavailable: the feed failed. */
  boxScore: 'ok' | 'not_started' | 'unavailable';
  lines: LiveLine[];
}

export interface LiveBoard {
  sport: GradedSport;
  date: string;
  games: LiveGame[];
}

const STARTED: ReadonlySet<GameStatus> = new Set(['in_progress', 'final', 'suspended']);

function baseGame(g: Omit<LiveGame, 'boxScore' | 'lines' | 'period' | 'clockSeconds' | 'displayClock' | 'inning' | 'inningState' | 'outs'>): LiveGame {
  return { ...g, period: null, clockSeconds: null, displayClock: null, inning: null, inningState: null, outs: null, boxScore: STARTED.has(g.status) ? 'unavailable' : 'not_started', lines: [] };
}

async function espnBoard(transport: Transport, sport: Exclude<GradedSport, 'mlb'>, date: string, previous: LiveBoard | null, log: ReturnType<typeof loadLog>): Promise<LoadResult<LiveBoard>> {
  const leagues: EspnLeague[] = sport === 'soccer' ? ESPN_SOCCER_LEAGUES.map((l) => espnLeague('soccer', l)) : [espnLeague(sport)];
  const games: LiveGame[] = [];
  let answered = 0;
  for (const league of leagues) {
    const board = await fetchScoreboard(transport, league, date, log);
    if (board === null) continue;
    answered += 1;
    for (const g of board) {
      const game = baseGame({
        gameId: g.event.id,
        league: league.league,
        home: g.event.homeAbbr,
        away: g.event.awayAbbr,
        commenceTime: g.event.commenceTime,
        status: g.status,
        statusName: g.statusName,
        detail: g.statusDetail,
      });
      if (STARTED.has(g.status)) {
        const summary = await fetchSummary(transport, league, g.event.id, log);
        if (summary) applySummary(game, summary);
        else keepPrevious(game, previous);
      }
      games.push(game);
    }
  }
  if (answered === 0) return { ok: false, reason: log.why(`no ESPN ${sport} scoreboard for ${date}`) };
  return { ok: true, value: { sport, date, games } };
}

/** An ESPN summary's clock and box score onto its game. */
export function applySummary(game: LiveGame, summary: GameSummary): LiveGame {
  game.status = summary.status === 'unknown' ? game.status : summary.status;
  game.statusName = summary.statusName ?? game.statusName;
  game.period = summary.period;
  game.clockSeconds = summary.clockSeconds;
  game.displayClock = summary.displayClock;
  game.home = game.home ?? summary.homeAbbr;
  game.away = game.away ?? summary.awayAbbr;
  game.boxScore = 'ok';
  game.lines = summary.lines.map((l) => ({
    playerKey: l.playerKey,
    playerName: l.playerName,
    team: l.team,
    side: null,
    // ESPN writes a did-not-play row with no stats (the adapter keeps it as 0 minutes, no stats).
    didNotPlay: l.minutes === 0 && Object.keys(l.stats).length === 0,
    appeared: l.extras['appearances'] === undefined || l.extras['appearances'] === null ? null : l.extras['appearances'] > 0,
    stats: l.stats,
  }));
  return game;
}

/** A game straight from its ESPN summary (no scoreboard row). */
export function liveGameFromSummary(summary: GameSummary, league: string): LiveGame {
  const game = baseGame({
    gameId: summary.eventId,
    league,
    home: summary.homeAbbr,
    away: summary.awayAbbr,
    commenceTime: summary.commenceTime,
    status: summary.status,
    statusName: summary.statusName,
    detail: null,
  });
  return applySummary(game, summary);
}

/** The MLB live feed's inning state and current lines onto its game. */
export function applyLiveFeed(game: LiveGame, feed: MlbLiveGame): LiveGame {
  game.status = feed.status === 'unknown' ? game.status : feed.status;
  game.detail = feed.detailedState ?? game.detail;
  game.inning = feed.inning;
  game.inningState = feed.inningState;
  game.outs = feed.outs;
  return applyMlbLines(game, feed.lines);
}

/** A final game's lines from the boxscore endpoint settle reads (jobs/settle via feeds/factory). */
export function applyMlbLines(game: LiveGame, lines: readonly MlbPlayerLine[]): LiveGame {
  game.boxScore = 'ok';
  game.lines = lines.map((l) => ({
    playerKey: l.stat.playerKey,
    playerName: l.stat.playerName,
    team: l.stat.team,
    side: l.side,
    didNotPlay: false,
    appeared: null,
    stats: l.stat.stats,
  }));
  return game;
}

async function mlbBoard(transport: Transport, date: string, previous: LiveBoard | null, log: ReturnType<typeof loadLog>): Promise<LoadResult<LiveBoard>> {
  const schedule = await fetchSchedule(transport, date, log);
  if (schedule === null) return { ok: false, reason: log.why(`no MLB schedule for ${date}`) };
  const games: LiveGame[] = [];
  for (const g of schedule) {
    const game = baseGame({
      gameId: String(g.gamePk),
      league: 'mlb',
      home: g.event.homeAbbr,
      away: g.event.awayAbbr,
      commenceTime: g.event.commenceTime,
      status: g.status,
      statusName: g.detailedState,
      detail: g.detailedState,
    });
    if (g.status === 'final') {
      // A final game is read from the same boxscore settle reads (same feed, same replay files), so
      // live and settle cannot disagree on whether its box score exists or what it says.
      const lines = await fetchBoxscore(transport, { gamePk: g.gamePk, date: g.officialDate ?? date }, log);
      if (lines) applyMlbLines(game, lines);
      else keepPrevious(game, previous);
    } else if (STARTED.has(g.status)) {
      const feed = await fetchLiveFeed(transport, g.gamePk, log);
      if (feed) applyLiveFeed(game, feed);
      else keepPrevious(game, previous);
    }
    games.push(game);
  }
  return { ok: true, value: { sport: 'mlb', date, games } };
}

/** One game's feed failed: its last good lines stay (the game is marked unavailable only without them). */
function keepPrevious(game: LiveGame, previous: LiveBoard | null): void {
  const old = previous?.games.find((g) => g.gameId === game.gameId && g.boxScore === 'ok');
  if (!old) return;
  Object.assign(game, { ...old, boxScore: 'ok' as const });
}

export function loadLiveBoard(transport: Transport, sport: GradedSport, date: string, previous: LiveBoard | null, log: ReturnType<typeof loadLog>): Promise<LoadResult<LiveBoard>> {
  return sport === 'mlb' ? mlbBoard(transport, date, previous, log) : espnBoard(transport, sport, date, previous, log);
}
