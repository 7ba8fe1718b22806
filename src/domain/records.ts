/**
 * The public record: aggregates over ledger rows (docs/ledger.md, "Records"). Pure and
 * clock-free: the caller passes `now`. Only the public model record (user_id null) counts.
 * Every percentage goes through the record gate, so it is null below n = 20 and carries its
 * n and Wilson 95% interval at or above it.
 */
import { z } from 'zod';
import { gradeSchema } from './grades.js';
import { normalizeName } from './names.js';
import { MIN_SAMPLE, gateRate, type GatedRate } from './record-gate.js';
import type { LedgerEntry } from './settlement.js';
import { addDays, easternDate, isIsoDate } from './time.js';

/** Spec Limits: "model aggregate window: 30 days". */
export const RECORD_WINDOW_DAYS = 30;

/** The tiers the record reports on (spec: "Per-tier calibration for A+, A, B, C"); F is not a tier. */
export const TIER_GRADES = gradeSchema.exclude(['F']).options;
export type TierGrade = (typeof TIER_GRADES)[number];

/** The only row fields the records read; full ledger rows fit. */
export type RecordRow = Pick<
  LedgerEntry,
  'userId' | 'sport' | 'gameDate' | 'team' | 'player' | 'playerKey' | 'grade' | 'pWin' | 'outcome' | 'clvVerdict'
>;

const isoDateSchema = z.string().refine(isIsoDate, 'expected a yyyy-mm-dd date');

export const recordScopeSchema = z.object({
  now: z.date(),
  days: z.number().int().positive().default(RECORD_WINDOW_DAYS),
  team: z.string().trim().min(1).optional(),
  player: z.string().trim().min(1).optional(),
  /** One Eastern game date; it replaces the rolling window. */
  date: isoDateSchema.optional(),
  sport: z.string().trim().min(1).optional(),
});
export type RecordScopeInput = z.input<typeof recordScopeSchema>;

export type RecordWindow = { from: string; to: string };

export type OutcomeCounts = {
  entries: number;
  hits: number;
  misses: number;
  pushes: number;
  voids: number;
  pending: number;
};

export type ModelAggregate = {
  window: RecordWindow;
  scope: { team: string | null; player: string | null; sport: string | null };
  counts: OutcomeCounts;
  /** successes = hits, n = hits + misses (pushes and voids are not decisions). */
  hitRate: GatedRate;
  /** successes = beat, n = entries with a verdict (beat + faded + flat). */
  beatClose: GatedRate;
  clv: { beat: number; faded: number; flat: number };
};

export type TierCalibration = {
  grade: TierGrade;
  counts: OutcomeCounts;
  hitRate: GatedRate;
  /** Predicted vs actual over the settled entries (hit or miss) that carry a p_win. */
  calibration: { n: number; meanPWinPct: number | null; actual: GatedRate };
};

export type TierAccuracy = {
  grade: TierGrade;
  n: number;
  hits: number;
  pct: number | null;
  ci95: [number, number] | null;
  state: 'ok' | 'learning';
  label: string;
};

/**
 * The window as inclusive Eastern dates: [ET date(now) - days + 1, ET date(now)], so days = 1
 * is today only and days = 30 is today plus the 29 days before it.
 */
export function recordWindow(now: Date, days: number, date?: string): RecordWindow {
  if (date !== undefined) return { from: date, to: date };
  const to = easternDate(now);
  return { from: addDays(to, -(days - 1)), to };
}

type Matcher = (row: RecordRow) => boolean;

function scopeMatcher(scope: z.output<typeof recordScopeSchema>, window: RecordWindow): Matcher {
  const team = scope.team?.toUpperCase();
  const playerKey = scope.player === undefined ? undefined : normalizeName(scope.player).key;
  const { sport } = scope;
  const { from, to } = window;
  return (row) =>
    row.userId === null &&
    row.gameDate >= from &&
    row.gameDate <= to &&
    (sport === undefined || row.sport === sport) &&
    (team === undefined || (row.team !== null && row.team.toUpperCase() === team)) &&
    (playerKey === undefined || row.playerKey === playerKey);
}

function emptyCounts(): OutcomeCounts {
  return { entries: 0, hits: 0, misses: 0, pushes: 0, voids: 0, pending: 0 };
}

function tally(counts: OutcomeCounts, outcome: RecordRow['outcome']): void {
  counts.entries++;
  if (outcome === 'hit') counts.hits++;
  else if (outcome === 'miss') counts.misses++;
  else if (outcome === 'push') counts.pushes++;
  else if (outcome === 'void') counts.voids++;
  else counts.pending++;
}

export function modelAggregate(rows: readonly RecordRow[], options: RecordScopeInput): ModelAggregate {
  const scope = recordScopeSchema.parse(options);
  const window = recordWindow(scope.now, scope.days, scope.date);
  const matches = scopeMatcher(scope, window);
  const counts = emptyCounts();
  const clv = { beat: 0, faded: 0, flat: 0 };
  for (const row of rows) {
    if (!matches(row)) continue;
    tally(counts, row.outcome);
    // CLV is a property of the price, known once the close is captured, whatever the result.
    if (row.clvVerdict !== null) clv[row.clvVerdict]++;
  }
  return {
    window,
    scope: { team: scope.team ?? null, player: scope.player ?? null, sport: scope.sport ?? null },
    counts,
    hitRate: gateRate(counts.hits, counts.hits + counts.misses),
    beatClose: gateRate(clv.beat, clv.beat + clv.faded + clv.flat),
    clv,
  };
}

function isTier(grade: string | null): grade is TierGrade {
  return grade !== null && (TIER_GRADES as readonly string[]).includes(grade);
}

/** Per-tier hit rate and predicted-vs-actual, over the same scope and window as the aggregate. */
export function tierCalibration(rows: readonly RecordRow[], options: RecordScopeInput): TierCalibration[] {
  const scope = recordScopeSchema.parse(options);
  const matches = scopeMatcher(scope, recordWindow(scope.now, scope.days, scope.date));
  const acc = new Map<TierGrade, { counts: OutcomeCounts; pWinSum: number; pWinN: number; pWinHits: number }>();
  for (const grade of TIER_GRADES) acc.set(grade, { counts: emptyCounts(), pWinSum: 0, pWinN: 0, pWinHits: 0 });
  for (const row of rows) {
    if (!isTier(row.grade) || !matches(row)) continue;
    const a = acc.get(row.grade);
    if (a === undefined) continue;
    tally(a.counts, row.outcome);
    const settled = row.outcome === 'hit' || row.outcome === 'miss';
    if (settled && row.pWin !== null && Number.isFinite(row.pWin)) {
      a.pWinSum += row.pWin;
      a.pWinN++;
      if (row.outcome === 'hit') a.pWinHits++;
    }
  }
  return TIER_GRADES.map((grade) => {
    const a = acc.get(grade) ?? { counts: emptyCounts(), pWinSum: 0, pWinN: 0, pWinHits: 0 };
    return {
      grade,
      counts: a.counts,
      hitRate: gateRate(a.counts.hits, a.counts.hits + a.counts.misses),
      calibration: {
        n: a.pWinN,
        meanPWinPct: a.pWinN === 0 ? null : (a.pWinSum / a.pWinN) * 100,
        actual: gateRate(a.pWinHits, a.pWinN),
      },
    };
  });
}

export const accuracyOptionsSchema = z.object({
  now: z.date(),
  days: z.number().int().positive().default(RECORD_WINDOW_DAYS),
  /** May be raised above the record gate, never lowered below it (spec Limits: n >= 20). */
  minSample: z.number().int().min(MIN_SAMPLE).default(MIN_SAMPLE),
  sport: z.string().trim().min(1).optional(),
});
export type AccuracyOptionsInput = z.input<typeof accuracyOptionsSchema>;

/** Rolling accuracy per tier; below `minSample` decided entries a tier is `learning` with no percentage. */
export function accuracyByTier(
  rows: readonly RecordRow[],
  options: AccuracyOptionsInput,
): { window: RecordWindow; minSample: number; tiers: TierAccuracy[] } {
  const opts = accuracyOptionsSchema.parse(options);
  const window = recordWindow(opts.now, opts.days);
  const tiers = tierCalibration(rows, { now: opts.now, days: opts.days, sport: opts.sport });
  return {
    window,
    minSample: opts.minSample,
    tiers: tiers.map(({ grade, hitRate }) => toAccuracy(grade, hitRate, opts.minSample)),
  };
}

function toAccuracy(grade: TierGrade, rate: GatedRate, minSample: number): TierAccuracy {
  const { n, successes: hits } = rate;
  if (n < minSample || rate.state !== 'ok') {
    return { grade, n, hits, pct: null, ci95: null, state: 'learning', label: `${n} of ${minSample}` };
  }
  return { grade, n, hits, pct: rate.pct, ci95: rate.ci95, state: 'ok', label: rate.label };
}
