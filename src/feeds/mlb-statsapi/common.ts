import type { GameStatus } from '../../domain/entities.js';
import { outsFromInnings } from '../../domain/innings.js';

export const STATSAPI_BASE = 'https://statsapi.mlb.com/api/v1';
export const STATSAPI_BASE_V11 = 'https://statsapi.mlb.com/api/v1.1';

export interface RawGameStatus {
  abstractGameState?: string | null | undefined;
  detailedState?: string | null | undefined;
}

/** statsapi game status to a GameStatus: detailed states that end a game early first, then the abstract state. */
export function mlbGameStatus(status: RawGameStatus | null | undefined): GameStatus {
  if (!status) return 'unknown';
  const detailed = (status.detailedState ?? '').toLowerCase();
  if (detailed.startsWith('postponed')) return 'postponed';
  if (detailed.startsWith('suspended')) return 'suspended';
  if (detailed.startsWith('cancelled') || detailed.startsWith('canceled')) return 'canceled';
  switch (status.abstractGameState) {
    case 'Final':
      return 'final';
    case 'Live':
      return 'in_progress';
    case 'Preview':
      return 'scheduled';
    default:
      return 'unknown';
  }
}

/**
 * statsapi numbers: counting stats are ints; rates are strings (".242", "2.33") and ".---" /
 * "-.--" mean "no value". Anything else non-numeric is null.
 */
export function statNum(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  return Number(text);
}

/** Baseball innings notation ("3.2" = 3 2/3) to innings as a real number; null when malformed. */
export function inningsFromNotation(value: unknown): number | null {
  const text = typeof value === 'number' ? value.toFixed(1) : typeof value === 'string' ? value.trim() : '';
  const m = /^(\d+)(?:\.([0-2]))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) + Number(m[2] ?? '0') / 3;
}

/**
 * Outs recorded (the pitcher_outs market's outcome): from `inningsPitched`, else the payload's own
 * `outs`; when both are present and disagree the line is unreadable and the outcome stays hidden.
 */
export function pitcherOutsOf(p: Record<string, unknown>): number | null {
  const fromInnings = outsFromInnings(p['inningsPitched']);
  const given = statNum(p['outs']);
  if (fromInnings === null) return given;
  return given === null || given === fromInnings ? fromInnings : null;
}

type StatValues = Record<string, number | null>;

/** Total bases: the payload's own figure, else 1B + 2x2B + 3x3B + 4xHR when every part is present. */
export function totalBasesOf(b: Record<string, unknown>): number | null {
  const given = statNum(b['totalBases']);
  if (given !== null) return given;
  const [h, d, t, hr] = [statNum(b['hits']), statNum(b['doubles']), statNum(b['triples']), statNum(b['homeRuns'])];
  if (h === null || d === null || t === null || hr === null) return null;
  return h - d - t - hr + 2 * d + 3 * t + 4 * hr;
}

/** A statsapi batting stat object (boxscore or game log) to graded stats + model extras. */
export function battingLine(b: Record<string, unknown>): { stats: { hits: number | null; total_bases: number | null; home_runs: number | null }; extras: StatValues } {
  return {
    stats: { hits: statNum(b['hits']), total_bases: totalBasesOf(b), home_runs: statNum(b['homeRuns']) },
    extras: {
      at_bats: statNum(b['atBats']),
      plate_appearances: statNum(b['plateAppearances']),
      walks: statNum(b['baseOnBalls']),
      batter_strikeouts: statNum(b['strikeOuts']),
    },
  };
}

/** A statsapi pitching stat object to graded stats (strikeouts, outs) + extras (batters faced, outs, innings). */
export function pitchingLine(p: Record<string, unknown>): { stats: { strikeouts: number | null; pitcher_outs: number | null }; extras: StatValues } {
  const outs = statNum(p['outs']);
  return {
    stats: { strikeouts: statNum(p['strikeOuts']), pitcher_outs: pitcherOutsOf(p) },
    extras: {
      batters_faced: statNum(p['battersFaced']),
      outs,
      innings_pitched: outs !== null ? outs / 3 : inningsFromNotation(p['inningsPitched']),
      pitches: statNum(p['numberOfPitches']),
      walks_allowed: statNum(p['baseOnBalls']),
      earned_runs: statNum(p['earnedRuns']),
    },
  };
}
