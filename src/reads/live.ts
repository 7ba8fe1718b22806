import { and, desc, eq, isNull, lte } from 'drizzle-orm';
import type { GameStatus } from '../domain/entities.js';
import { basketballElapsed, compareLive, liveRead, mlbElapsed, soccerElapsed, type LiveRead } from '../domain/live.js';
import type { GradedSport, Side } from '../domain/sports.js';
import type { StatType } from '../domain/stats.js';
import { easternDate } from '../domain/time.js';
import { espnLeague, fetchScoreboard, fetchSummary, type EspnLeague, type GameSummary } from '../feeds/espn/index.js';
import { fetchLiveFeed, fetchSchedule, type MlbLiveGame } from '../feeds/mlb-statsapi/index.js';
import { teamAbbr } from '../feeds/teams/lookup.js';
import type { Transport } from '../feeds/transport/types.js';
import { ledgerEntries, snapshots, gradedRows } from '../store/schema.js';
import type { Store } from '../store/db.js';
import { CONTEXT_CACHE, freshnessOf, type Freshness, type LoadResult } from '../store/cache.js';
import { contextKey, loadLog, type ContextDeps } from '../feeds/context.js';
import { compareRows, SLATE_CARD_SIZE } from './slate.js';

/**
 * Live tracking (spec: Live progress; docs/live.md): every public ledger entry of the day, plus the
 * slate card's props the ledger does not hold, with the real current value from the live box
 * score (ESPN summary; MLB live feed) and a tracking state. Reads the store and the cached box
 * scores; writes nothing but the cache, so a locked grade or a ledger outcome never changes here.
 */

/** ESPN soccer competitions scanned for a soccer entry's game (eng.1 and fifa.world are in the recordings). */
export const ESPN_SOCCER_LEAGUES = ['eng.1', 'esp.1', 'ger.1', 'ita.1', 'fra.1', 'usa.1', 'uefa.champions', 'fifa.world'] as const;

export const TRACKING_NOTE = 'Tracking only: a state describes the game so far. It never changes a locked grade; outcomes come from settlement.';

export interface TrackedProp {
  source: 'ledger' | 'slate';
  eventId: string;
  commenceTime: string;
  player: string;
  playerKey: string;
  team: string | null;
  opponent: string | null;
  statType: string;
  line: number;
  side: Side;
  grade: string | null;
  /** Ledger rows: the entry's outcome (pending until settlement decides it); slate rows: null. */
  outcome: string | null;
}

/**
 * What is tracked on an ET date, as of `now`: public ledger entries (locked at or before now) and
 * the card of the newest snapshot of that slate taken at or before now (one row per player and
 * stat, six per game) for props the ledger does not hold. Users' own scans stay private.
 */
export function trackedProps(store: Store, sport: GradedSport, date: string, now: Date): TrackedProp[] {
  const at = now.toISOString();
  const ledger = store.db
    .select()
    .from(ledgerEntries)
    .where(and(isNull(ledgerEntries.userId), eq(ledgerEntries.sport, sport), eq(ledgerEntries.gameDate, date), lte(ledgerEntries.lockedAt, at)))
    .orderBy(ledgerEntries.id)
    .all();
  const out: TrackedProp[] = ledger.map((e) => ({
    source: 'ledger',
    eventId: e.eventId,
    commenceTime: e.commenceTime,
    player: e.player,
    playerKey: e.playerKey,
    team: e.team,
    opponent: e.opponent,
    statType: e.statType,
    line: e.line,
    side: e.side,
    grade: e.grade,
    outcome: e.outcome,
  }));
  const covered = new Set(out.map((p) => `${p.eventId}|${p.playerKey}|${p.statType}`));
  const snap = store.db
    .select()
    .from(snapshots)
    .where(and(eq(snapshots.sport, sport), eq(snapshots.slateDate, date), lte(snapshots.takenAt, at)))
    .orderBy(desc(snapshots.takenAt), desc(snapshots.id))
    .limit(1)
    .get();
  if (!snap) return out;
  const byGame = new Map<string, Array<typeof gradedRows.$inferSelect>>();
  for (const r of store.db.select().from(gradedRows).where(eq(gradedRows.snapshotId, snap.id)).all()) {
    const list = byGame.get(r.eventId) ?? [];
    list.push(r);
    byGame.set(r.eventId, list);
  }
  for (const rows of byGame.values()) {
    rows.sort(compareRows);
    const seen = new Set<string>();
    for (const r of rows) {
      const k = `${r.playerKey}|${r.statType}`;
      if (seen.has(k)) continue;
      seen.add(k);
      if (!covered.has(`${r.eventId}|${k}`) && (r.side === 'over' || r.side === 'under')) {
        out.push({
          source: 'slate',
          eventId: r.eventId,
          commenceTime: r.commenceTime,
          player: r.player,
          playerKey: r.playerKey,
          team: r.team,
          opponent: r.opponent,
          statType: r.statType,
          line: r.line,
          side: r.side,
          grade: r.grade,
          outcome: null,
        });
      }
      if (seen.size === SLATE_CARD_SIZE) break;
    }
  }
  return out;
}

// ---- the cached box scores of a date ----

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
  game.boxScore = 'ok';
  game.lines = feed.lines.map((l) => ({
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
    if (STARTED.has(g.status)) {
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

// ---- joining tracked props to the board ----

export interface LiveRow {
  player: string;
  team: string | null;
  opponent: string | null;
  stat: string;
  line: number;
  side: Side;
  /** The locked grade, shown as it was locked (tracking never changes it). */
  grade: string | null;
  source: 'ledger' | 'slate';
  /** The ledger outcome: `pending` while tracking; hit/miss/push/void only once settlement decided it. */
  outcome: string | null;
  gameId: string | null;
  gameStatus: GameStatus | null;
  /** The real current value from the box score; null when the feed has none for the player. */
  current: number | null;
  state: LiveRead['state'];
  label: string | null;
  needs: number | null;
  paceProjection: number | null;
  /** Share of regulation played as this row's clock reads it (docs/live.md); null without a clock. */
  elapsedShare: number | null;
  proximity: number | null;
  /** Why there is no state, when there is none (or a caveat). */
  note: string | null;
}

const norm = (sport: GradedSport, code: string | null): string | null => (code === null ? null : (teamAbbr(sport, code) ?? code));

function gameFor(board: LiveBoard, prop: TrackedProp): LiveGame | null {
  const team = norm(board.sport, prop.team);
  const candidates = board.games.filter((g) => team !== null && (norm(board.sport, g.home) === team || norm(board.sport, g.away) === team));
  const withPlayer = (g: LiveGame) => g.lines.some((l) => l.playerKey === prop.playerKey);
  if (candidates.length > 0) return candidates.find(withPlayer) ?? candidates[0] ?? null;
  // Only a prop with no known team is found by the player's name; a known team never borrows another game.
  return team === null ? (board.games.find(withPlayer) ?? null) : null;
}

function elapsedFor(sport: GradedSport, game: LiveGame, line: LiveLine | null, stat: string): number | null {
  switch (sport) {
    case 'nba':
    case 'wnba':
      return basketballElapsed(sport, game.status, game.period, game.clockSeconds);
    case 'soccer':
      return soccerElapsed(game.status, game.statusName, game.period, game.displayClock);
    case 'mlb': {
      const side = line?.side ?? null;
      if (side === null) return game.status === 'final' ? 1 : null;
      return mlbElapsed(game.status, { inning: game.inning, inningState: game.inningState, outs: game.outs }, side, stat === 'strikeouts' ? 'pitcher' : 'batter');
    }
  }
}

export function liveRow(board: LiveBoard, prop: TrackedProp): LiveRow {
  const base = {
    player: prop.player,
    team: prop.team,
    opponent: prop.opponent,
    stat: prop.statType,
    line: prop.line,
    side: prop.side,
    grade: prop.grade,
    source: prop.source,
    outcome: prop.outcome,
  };
  const none = (game: LiveGame | null, note: string): LiveRow => ({
    ...base,
    gameId: game?.gameId ?? null,
    gameStatus: game?.status ?? null,
    current: null,
    state: null,
    label: null,
    needs: null,
    paceProjection: null,
    elapsedShare: null,
    proximity: null,
    note,
  });
  const game = gameFor(board, prop);
  if (!game) return none(null, `no game of ${prop.team ?? 'this team'} on the ${board.date} scoreboard`);
  if (game.boxScore === 'not_started') return none(game, game.status === 'scheduled' ? 'game not started' : `game ${game.status}`);
  if (game.boxScore === 'unavailable') return none(game, 'box score unavailable');
  const line = game.lines.find((l) => l.playerKey === prop.playerKey) ?? null;
  if (!line) return none(game, 'not in the box score');
  if (line.didNotPlay) return none(game, 'did not play');
  const raw = line.stats[prop.statType as StatType];
  const current = raw === undefined || raw === null || !Number.isFinite(raw) ? null : raw;
  if (current === null) return none(game, `no ${prop.statType} in the box score`);
  const elapsed = elapsedFor(board.sport, game, line, prop.statType);
  const read = liveRead({ side: prop.side, line: prop.line, current, elapsed, final: game.status === 'final' });
  const note =
    game.status === 'final'
      ? 'game final: awaiting settlement'
      : line.appeared === false
        ? 'not on the pitch yet'
        : elapsed === null
          ? 'no game clock in the feed: no pace'
          : null;
  return {
    ...base,
    gameId: game.gameId,
    gameStatus: game.status,
    current,
    state: read.state,
    label: read.label,
    needs: read.needs,
    paceProjection: read.paceProjection === null ? null : Math.round(read.paceProjection * 100) / 100,
    elapsedShare: elapsed === null ? null : Math.round(elapsed * 10_000) / 10_000,
    proximity: read.proximity === null ? null : Math.round(read.proximity * 10_000) / 10_000,
    note,
  };
}

export interface LiveGameView {
  gameId: string;
  home: string | null;
  away: string | null;
  status: GameStatus;
  clock: string | null;
  boxScore: LiveGame['boxScore'];
}

export type LiveView =
  | ({ sport: GradedSport; date: string; available: true; tracking: true; note: string; games: LiveGameView[]; count: number; rows: LiveRow[] } & Freshness)
  | { sport: GradedSport; date: string; available: false; reason: string };

function clockText(sport: GradedSport, g: LiveGame): string | null {
  if (g.status === 'final') return 'final';
  if (g.status !== 'in_progress' && g.status !== 'suspended') return g.status;
  if (sport === 'mlb') return g.inning !== null && g.inningState ? `${g.inningState} ${g.inning}, ${g.outs ?? '-'} out` : (g.detail ?? null);
  if (sport === 'soccer') return g.displayClock ?? g.statusName;
  return g.period !== null ? `Q${g.period} ${g.displayClock ?? ''}`.trim() : g.statusName;
}

/** The live view of a sport on an ET date (default: today's ET date at `now`). */
export async function readLive(deps: ContextDeps, sport: GradedSport, options: { date?: string; refresh?: boolean } = {}): Promise<LiveView> {
  const date = options.date ?? easternDate(deps.now);
  const tracked = trackedProps(deps.store, sport, date, deps.now);
  if (tracked.length === 0) return { sport, date, available: false, reason: `no ledger or slate entry to track for ${sport} on ${date}` };
  const read = await deps.cache.read<LiveBoard>(contextKey(deps.providers, 'live', sport, date), CONTEXT_CACHE.live, deps.now, {
    ...(options.refresh ? { refresh: true } : {}),
    load: (previous) => loadLiveBoard(deps.providers.keyless, sport, date, previous?.value ?? null, loadLog(deps.log)),
  });
  if (!read.ok) return { sport, date, available: false, reason: read.reason };
  const board = read.value;
  const rows = tracked.map((p) => liveRow(board, p));
  rows.sort((a, b) =>
    compareLive(
      { read: { state: a.state, needs: a.needs, paceProjection: a.paceProjection, label: a.label, proximity: a.proximity }, player: a.player, stat: a.stat },
      { read: { state: b.state, needs: b.needs, paceProjection: b.paceProjection, label: b.label, proximity: b.proximity }, player: b.player, stat: b.stat },
    ),
  );
  const gameIds = new Set(rows.map((r) => r.gameId).filter((id): id is string => id !== null));
  const games = board.games
    .filter((g) => gameIds.has(g.gameId))
    .map((g) => ({ gameId: g.gameId, home: g.home, away: g.away, status: g.status, clock: clockText(sport, g), boxScore: g.boxScore }));
  return { sport, date, available: true, tracking: true, note: TRACKING_NOTE, ...freshnessOf(read), games, count: rows.length, rows };
}
