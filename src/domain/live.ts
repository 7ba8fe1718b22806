import type { GameStatus } from './entities.js';
import type { Settlement } from './settlement.js';
import type { Side } from './sports.js';

/**
 * Live prop tracking (spec: Live progress; thresholds in docs/live.md). Pure: a locked prop
 * (line, side) plus the real current value and how much of the game has run give a tracking
 * state. A state describes the game so far; it is never an outcome (settlement decides those)
 * and never touches a locked grade.
 */

export const TRACKING_STATES = ['HIT', 'ON PACE', 'NEEDS', 'HOLDS', 'LINE PASSED'] as const;
/** A final game's states: the outcome its final box score gives (or settlement wrote). */
export const FINAL_STATES = ['HIT', 'PUSH', 'MISS', 'VOID'] as const;
export const LIVE_STATES = ['HIT', 'ON PACE', 'NEEDS', 'HOLDS', 'LINE PASSED', 'PUSH', 'MISS', 'VOID'] as const;
export type LiveState = (typeof LIVE_STATES)[number];
export type FinalState = (typeof FINAL_STATES)[number];

/**
 * Where a row's state comes from: `tracking` (the game so far), `final` (the game is over and its
 * final box score decides the outcome by the settlement rule; the ledger has not recorded it) or
 * `settled` (the ledger's outcome).
 */
export const LIVE_PHASES = ['tracking', 'final', 'settled'] as const;
export type LivePhase = (typeof LIVE_PHASES)[number];

/** Below this share of regulation a pace is noise: no ON PACE before a quarter of the game. */
export const PACE_MIN_ELAPSED = 0.25;

export interface LiveInput {
  side: Side;
  line: number;
  /** The real current value from the live box score; null when the feed has none for the player. */
  current: number | null;
  /** Share of regulation played, in [0, 1]; null when the feed has no clock. */
  elapsed: number | null;
  /** The game is over: no pace. A final game's row takes a final state instead (finalReadOf). */
  final: boolean;
}

export interface LiveRead {
  state: LiveState | null;
  /** Over not yet hit: the real remaining amount to a winning total (the N of NEEDS N). */
  needs: number | null;
  /** current / elapsed, stated only when a pace is (clock known, past PACE_MIN_ELAPSED, game running). */
  paceProjection: number | null;
  /** 'HIT', 'ON PACE', 'NEEDS 3', 'HOLDS', 'LINE PASSED'; null without a current value. */
  label: string | null;
  /** 0..1, how close the prop is to hitting (docs/live.md); null sorts last. */
  proximity: number | null;
}

const EMPTY: LiveRead = { state: null, needs: null, paceProjection: null, label: null, proximity: null };

/** The smallest total that wins an over: strictly above the line (an integer line reached is a push). */
export function overTarget(line: number): number {
  return Math.floor(line) + 1;
}

function formatAmount(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/**
 * The tracking state of one prop. An over above its line is HIT, and since a counting stat never
 * goes down it stays HIT for the rest of the game; otherwise ON PACE when the pace projection
 * reaches a winning total, else NEEDS N. An under below its line HOLDS; at or past it the line is
 * passed (LINE PASSED is a tracking state, not a loss). No current value: no state.
 */
export function liveRead(input: LiveInput): LiveRead {
  const { side, line, current, elapsed, final } = input;
  if (current === null || !Number.isFinite(current) || !Number.isFinite(line)) return EMPTY;
  if (side === 'under') {
    if (current < line) {
      const proximity = final ? 1 : elapsed === null ? 0 : clamp01(elapsed);
      return { state: 'HOLDS', needs: null, paceProjection: null, label: 'HOLDS', proximity };
    }
    return { state: 'LINE PASSED', needs: null, paceProjection: null, label: 'LINE PASSED', proximity: 0 };
  }
  if (current > line) return { state: 'HIT', needs: null, paceProjection: null, label: 'HIT', proximity: 1 };
  const target = overTarget(line);
  const needs = target - current;
  const proximity = target > 0 ? Math.min(clamp01(current / target), 0.9999) : 0;
  const paceProjection = paceOf(current, elapsed, final);
  if (paceProjection !== null && paceProjection >= target) {
    return { state: 'ON PACE', needs, paceProjection, label: 'ON PACE', proximity };
  }
  return { state: 'NEEDS', needs, paceProjection, label: `NEEDS ${formatAmount(needs)}`, proximity };
}

/** current / elapsed, only while the game runs, with a clock, past the minimum share. */
export function paceOf(current: number, elapsed: number | null, final: boolean): number | null {
  if (final || elapsed === null || !Number.isFinite(elapsed) || elapsed < PACE_MIN_ELAPSED || elapsed >= 1) return null;
  return current / elapsed;
}

function clamp01(x: number): number {
  return Math.max(0, Math.min(1, x));
}

const STATE_ORDER: Record<LiveState, number> = { HIT: 0, 'ON PACE': 1, NEEDS: 2, HOLDS: 3, 'LINE PASSED': 4, PUSH: 5, MISS: 6, VOID: 7 };

const FINAL_PROXIMITY: Record<FinalState, number | null> = { HIT: 1, PUSH: 0, MISS: 0, VOID: null };

/** A decided outcome as a state: HIT 1 and MISS/PUSH 0 on the proximity scale; a void has none. */
export function finalRead(outcome: 'hit' | 'miss' | 'push' | 'void'): LiveRead {
  const state = outcome.toUpperCase() as FinalState;
  return { state, needs: null, paceProjection: null, label: state, proximity: FINAL_PROXIMITY[state] };
}

/**
 * A final game's row by the settlement rule (settleEntry): hit, miss, push or void; a box score
 * without the stat stays without a state (null), as settlement keeps it pending.
 */
export function finalReadOf(settlement: Settlement): LiveRead | null {
  return settlement.outcome === 'pending' ? null : finalRead(settlement.outcome);
}

/** Rows per state in display order (state order, then rows without a state); states with no row are left out. */
export function countStates(states: readonly (LiveState | null)[]): { state: LiveState | null; count: number }[] {
  const counts = new Map<LiveState | null, number>();
  for (const s of states) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...LIVE_STATES, null].filter((s) => counts.has(s)).map((state) => ({ state, count: counts.get(state) ?? 0 }));
}

/**
 * Closest to hitting first; rows without a state last; then by state (HIT, ON PACE, NEEDS, HOLDS,
 * LINE PASSED, PUSH, MISS, VOID), then by name for a stable order.
 */
export function compareLive(a: { read: LiveRead; player: string; stat: string }, b: { read: LiveRead; player: string; stat: string }): number {
  const pa = a.read.proximity;
  const pb = b.read.proximity;
  if (pa === null && pb !== null) return 1;
  if (pb === null && pa !== null) return -1;
  if (pa !== null && pb !== null && pa !== pb) return pb - pa;
  const sa = a.read.state === null ? 9 : STATE_ORDER[a.read.state];
  const sb = b.read.state === null ? 9 : STATE_ORDER[b.read.state];
  return sa - sb || a.player.localeCompare(b.player) || a.stat.localeCompare(b.stat);
}

// ---- game time elapsed (docs/live.md "How much of the game has run") ----

const QUARTER_MINUTES = { nba: 12, wnba: 10 } as const;
const RUNNING: ReadonlySet<GameStatus> = new Set(['in_progress', 'suspended']);

/** Final games have run their course; games not started, postponed or unknown have no clock. */
function settledShare(status: GameStatus): number | null | undefined {
  if (status === 'final') return 1;
  if (!RUNNING.has(status)) return null;
  return undefined;
}

/**
 * Basketball: (period - 1) full quarters plus the played part of the current one, over four
 * quarters (12 minutes NBA, 10 WNBA). Overtime counts as all of regulation. ESPN's `clock` is the
 * seconds left in the period; without it (or a period) there is no clock.
 */
export function basketballElapsed(sport: 'nba' | 'wnba', status: GameStatus, period: number | null, clockSeconds: number | null): number | null {
  const settled = settledShare(status);
  if (settled !== undefined) return settled;
  if (period === null || clockSeconds === null || period < 1 || clockSeconds < 0) return null;
  if (period > 4) return 1;
  const q = QUARTER_MINUTES[sport] * 60;
  const played = (period - 1) * q + Math.max(0, q - Math.min(clockSeconds, q));
  return clamp01(played / (4 * q));
}

/**
 * Soccer: the match minute over 90. ESPN writes the minute as `45'+6'`; stoppage time counts as
 * the end of its half (45 or 90). Half-time is 45 minutes played. Extra time counts as 90.
 */
export function soccerElapsed(status: GameStatus, statusName: string | null, period: number | null, displayClock: string | null): number | null {
  const settled = settledShare(status);
  if (settled !== undefined) return settled;
  if (statusName === 'STATUS_HALFTIME') return 0.5;
  const m = displayClock ? /^\s*(\d+)'?(?:\s*\+\s*(\d+)'?)?\s*$/.exec(displayClock) : null;
  if (!m) return null;
  const minute = Number(m[1]);
  const cap = period === 1 ? 45 : 90;
  return clamp01(Math.min(minute, cap) / 90);
}

export interface MlbInningState {
  inning: number | null;
  /** statsapi `inningState`: Top, Middle, Bottom, End. */
  inningState: string | null;
  outs: number | null;
}

/** Outs each side has made at bat so far (27 each in nine innings). */
export function mlbOffensiveOuts(s: MlbInningState): { away: number; home: number } | null {
  const { inning, inningState, outs } = s;
  if (inning === null || inning < 1 || inningState === null) return null;
  const done = (inning - 1) * 3;
  const o = Math.max(0, Math.min(3, outs ?? 0));
  switch (inningState.toLowerCase()) {
    case 'top':
      return outs === null ? null : { away: done + o, home: done };
    case 'middle':
      return { away: done + 3, home: done };
    case 'bottom':
      return outs === null ? null : { away: done + 3, home: done + o };
    case 'end':
      return { away: done + 3, home: done + 3 };
    default:
      return null;
  }
}

/**
 * MLB: outs, not innings. A batter's game has run by the outs his team has made at bat; a
 * pitcher's by the outs his team has recorded in the field (the other side's outs at bat). Over
 * 27 outs; extra innings count as the whole game.
 */
export function mlbElapsed(status: GameStatus, state: MlbInningState, playerSide: 'home' | 'away', role: 'batter' | 'pitcher'): number | null {
  const settled = settledShare(status);
  if (settled !== undefined) return settled;
  const outs = mlbOffensiveOuts(state);
  if (outs === null) return null;
  const team = role === 'batter' ? playerSide : playerSide === 'home' ? 'away' : 'home';
  return clamp01(outs[team] / 27);
}
