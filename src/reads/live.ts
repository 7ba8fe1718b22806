import type { GameStatus } from '../domain/entities.js';
import { basketballElapsed, compareLive, countStates, finalRead, finalReadOf, liveRead, mlbElapsed, soccerElapsed, type LivePhase, type LiveRead, type LiveState } from '../domain/live.js';
import { settleEntry } from '../domain/settlement.js';
import type { GradedSport, Side } from '../domain/sports.js';
import type { StatType } from '../domain/stats.js';
import { isReplayed } from '../domain/freshness.js';
import { easternDate } from '../domain/time.js';
import { teamAbbr } from '../feeds/teams/lookup.js';
import { CONTEXT_CACHE, freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, replayTracking, requireUpstream, type ContextDeps } from '../feeds/context.js';
import { loadLiveBoard, type LiveBoard, type LiveGame, type LiveLine } from './live-board.js';
import { trackedProps, type TrackedProp } from './live-tracked.js';
import { keptAnswers, storeMemo } from './memo.js';
import { dataVersion } from './stats-common.js';

/**
 * Live tracking (spec: Live progress; docs/live.md): every public ledger entry of the day, plus the
 * slate card's props the ledger does not hold, with the real current value from the live box
 * score (ESPN summary; MLB live feed) and a tracking state. Reads the store and the cached box
 * scores; writes nothing but the cache, so a locked grade or a ledger outcome never changes here.
 */

export const TRACKING_NOTE =
  "Tracking only: while a game runs a state describes the game so far; once it is final a row shows the final box score's outcome (phase final) or the ledger's settled outcome (phase settled). It never changes a locked grade.";

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
  /** tracking (the game so far), final (the final box score's outcome, not yet in the ledger), settled (the ledger's outcome). */
  phase: LivePhase;
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
      return mlbElapsed(game.status, { inning: game.inning, inningState: game.inningState, outs: game.outs }, side, stat === 'strikeouts' || stat === 'pitcher_outs' ? 'pitcher' : 'batter');
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
    phase: 'tracking',
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
  if (isSettled(prop.outcome)) return settledRow(base, prop, prop.outcome, game);
  if (!game) return none(null, `no game of ${prop.team ?? 'this team'} on the ${board.date} scoreboard`);
  if (game.status === 'final' && game.boxScore === 'ok') return finalRow(base, prop, game);
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
    line.appeared === false
        ? 'not on the pitch yet'
        : elapsed === null
          ? 'no game clock in the feed: no pace'
          : null;
  return {
    ...base,
    phase: 'tracking',
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

type RowBase = Pick<LiveRow, 'player' | 'team' | 'opponent' | 'stat' | 'line' | 'side' | 'grade' | 'source' | 'outcome'>;
type Decided = 'hit' | 'miss' | 'push' | 'void';
const isSettled = (o: string | null): o is Decided => o === 'hit' || o === 'miss' || o === 'push' || o === 'void';

function decidedRow(base: RowBase, phase: LivePhase, read: LiveRead, game: LiveGame | null, current: number | null, note: string | null): LiveRow {
  return {
    ...base,
    phase,
    gameId: game?.gameId ?? null,
    gameStatus: game?.status ?? null,
    current,
    state: read.state,
    label: read.label,
    needs: null,
    paceProjection: null,
    elapsedShare: game?.status === 'final' ? 1 : null,
    proximity: read.proximity,
    note,
  };
}

/** The ledger decided it: its outcome and actual value are the row's (the box score only fills a void's value). */
function settledRow(base: RowBase, prop: TrackedProp, outcome: Decided, game: LiveGame | null): LiveRow {
  const boxValue = game === null ? null : statOf(game, prop);
  return decidedRow(base, 'settled', finalRead(outcome), game, prop.actualValue ?? boxValue, null);
}

/** A final game the ledger has not settled: the settlement rule over the final box score. */
function finalRow(base: RowBase, prop: TrackedProp, game: LiveGame): LiveRow {
  const line = game.lines.find((l) => l.playerKey === prop.playerKey) ?? null;
  const current = statOf(game, prop);
  const settlement = settleEntry(
    { line: prop.line, side: prop.side },
    { status: 'final', boxScore: line === null ? null : { stat: current, minutes: line.didNotPlay ? 0 : null } },
  );
  const read = finalReadOf(settlement);
  const unsettled = prop.source === 'ledger' ? 'final box score; not settled yet' : 'final box score (slate row, not in the ledger)';
  if (read === null) return decidedRow(base, 'final', { state: null, needs: null, paceProjection: null, label: null, proximity: null }, game, null, `no ${prop.statType} in the final box score`);
  const why = settlement.outcome === 'void' ? (line === null ? 'not in the final box score' : 'did not play') : null;
  return decidedRow(base, 'final', read, game, current, why === null ? unsettled : `${unsettled}: ${why}`);
}

function statOf(game: LiveGame, prop: TrackedProp): number | null {
  const raw = game.lines.find((l) => l.playerKey === prop.playerKey)?.stats[prop.statType as StatType];
  return raw === undefined || raw === null || !Number.isFinite(raw) ? null : raw;
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
  | ({
      sport: GradedSport;
      date: string;
      available: true;
      tracking: true;
      note: string;
      games: LiveGameView[];
      count: number;
      /** Rows per state (null: no state), in state order; every row is counted once. */
      stateCounts: { state: LiveState | null; count: number }[];
      rows: LiveRow[];
    } & Freshness)
  | { sport: GradedSport; date: string; available: false; reason: string };

function clockText(sport: GradedSport, g: LiveGame): string | null {
  if (g.status === 'final') return 'final';
  if (g.status !== 'in_progress' && g.status !== 'suspended') return g.status;
  if (sport === 'mlb') return g.inning !== null && g.inningState ? `${g.inningState} ${g.inning}, ${g.outs ?? '-'} out` : (g.detail ?? null);
  if (sport === 'soccer') return g.displayClock ?? g.statusName;
  return g.period !== null ? `Q${g.period} ${g.displayClock ?? ''}`.trim() : g.statusName;
}

/** The live view of a sport on an ET date (default: today's ET date at `now`). */
/**
 * Live answers kept per sport, date and stored data (the latest snapshot and game line) while their
 * box scores are fresh (CONTEXT_CACHE.live, 90 s on the data clock): each answer is worked out once
 * per board fetch instead of on every poll (43-46 ms of CPU for the bundled slate's 66 props;
 * issue 40). Bounded: the dates a caller may ask lie in a window (server/date-window.ts).
 */
const LIVE_ANSWERS_KEPT = 64;
type KeptLive = { at: string; view: Extract<LiveView, { available: true }>; served?: { stamp: string; view: Extract<LiveView, { available: true }> } };
const liveAnswers = storeMemo<KeptLive>(LIVE_ANSWERS_KEPT);

/** Live answers kept for `store`, and how many were worked out (a test checks polls reuse them). */
export const liveAnswerStats = (store: ContextDeps['store']) => liveAnswers.stats(store);

export async function readLive(deps: ContextDeps, sport: GradedSport, options: { date?: string; refresh?: boolean } = {}): Promise<LiveView> {
  const date = options.date ?? easternDate(deps.now);
  const memoKey = ['live', deps.providers.source, sport, date, await dataVersion(deps.store, sport)].join(':');
  const kept = options.refresh ? undefined : liveAnswers.peek(deps.store, memoKey);
  const keptAge = kept ? Math.floor((deps.now.getTime() - Date.parse(kept.at)) / 1000) : -1;
  if (kept && keptAge >= 0 && keptAge < CONTEXT_CACHE.live.ttlSeconds) {
    // The same object while the age (live) or the read clock (replay) stands: served once, serialized once.
    const replayed = isReplayed(kept.view);
    const stamp = replayed ? deps.now.toISOString() : String(keptAge);
    if (kept.served?.stamp !== stamp) {
      kept.served = { stamp, view: replayed ? { ...kept.view, readAsOf: stamp } : { ...kept.view, ageSeconds: keptAge } };
      keptAnswers.add(kept.served.view);
    }
    return kept.served.view;
  }
  const tracked = await trackedProps(deps.store, sport, date, deps.now);
  if (tracked.length === 0) return { sport, date, available: false, reason: `no ledger or slate entry to track for ${sport} on ${date}` };
  requireUpstream(deps, 'live tracking');
  const read = await deps.cache.read<LiveBoard>(contextKey(deps.providers, 'live', sport, date), CONTEXT_CACHE.live, deps.now, {
    ...replayTracking(deps),
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
  const stateCounts = countStates(rows.map((r) => r.state));
  const view = { sport, date, available: true as const, tracking: true as const, note: TRACKING_NOTE, ...freshnessOf(read), games, count: rows.length, stateCounts, rows };
  // A stale board (the provider failed) is not kept: the next poll asks again, past the back-off.
  if (!read.stale) liveAnswers.set(deps.store, memoKey, { at: read.fetchedAt, view });
  return view;
}
