/**
 * The public record: aggregates over ledger rows (docs/ledger.md, "Records"). Pure and
 * clock-free: the caller passes `now`. Only the public model record (user_id null) counts.
 * Every percentage goes through the record gate, so it is null below n = 20 and carries its
 * n and Wilson 95% interval at or above it.
 */
import { z } from 'zod';
import { gradeSchema } from './grades.js';
import { normalizeName } from './names.js';
import { evPctAt } from './claim.js';
import { profitPerUnit } from './odds.js';
import { MIN_SAMPLE, gateRate, type GatedRate } from './record-gate.js';
import { addStake, roiInterval, type GameStakes } from './roi-interval.js';
import { closeLeadBand, createLeadTally, type BeatCloseByLead, type LeadTally } from './close-lead.js';
import type { LedgerEntry } from './ledger.js';
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
> & {
  /** The American price the entry was locked at; absent (or invalid) means no units for it. */
  lockedPrice?: number | null;
  /** own_book_devig: a close read the old way (before migration 0008); its verdict never counts. */
  closeMethod?: string | null;
  /** Minutes from the close's capture to the start: which lead band its verdict counts in. */
  closeLeadMinutes?: number | null;
  /** The game the stake belongs to: the ROI interval resamples whole games (domain/roi-interval.ts). */
  eventId?: string | null;
  /** The verdict against Pinnacle's own no-vig close and that close's lead (issue 43); absent where Pinnacle never priced the line. */
  pinnacleClvVerdict?: string | null;
  pinnacleCloseLeadMinutes?: number | null;
};

/** The verdict the record counts: a close read on the one yardstick, never one read the old way. */
export function yardstickVerdict(row: { clvVerdict: string | null; closeMethod?: string | null }): string | null {
  return row.closeMethod === 'own_book_devig' ? null : row.clvVerdict;
}

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

/**
 * Flat-stake return at the locked price: every settled hit, miss or push with a valid locked
 * American price is a 1-unit stake. A hit wins the price's profit per unit (+150 -> +1.5, -120 ->
 * +0.833), a miss loses 1, a push returns the stake (0). Voids never had a game and pending is
 * not decided: neither is in n. ROI is units / n as a percentage, gated at n >= 20 like every
 * percentage; the units figure itself is shown at any n >= 1 (a real sum, like a count).
 */
export type UnitsRecord = {
  /** Stakes counted: settled hits, misses and pushes carrying a valid locked price. */
  n: number;
  /** Profit in units over those n stakes; null when n = 0 (no stake, nothing to sum). */
  units: number | null;
  /** units / n * 100; null below n = 20. */
  roiPct: number | null;
  state: 'ok' | 'building';
  /** 95% interval of the ROI, percent, resampling whole games (domain/roi-interval.ts); null below n = 20 or with one game. */
  roiCi95: [number, number] | null;
  /** Settled hits, misses and pushes without a usable locked price: left out of n, stated. */
  unpriced: number;
};

export type ModelAggregate = {
  window: RecordWindow;
  scope: { team: string | null; player: string | null; sport: string | null };
  counts: OutcomeCounts;
  /** successes = hits, n = hits + misses (pushes and voids are not decisions). */
  hitRate: GatedRate;
  /** successes = beat, n = entries with a verdict (beat + faded + flat). */
  beatClose: GatedRate;
  /** The same verdicts split by how long before the start the close was taken (domain/close-lead.ts). */
  beatCloseByLead: BeatCloseByLead;
  /** The second yardstick (issue 43): beat share against Pinnacle's own no-vig close, over the entries Pinnacle priced, and by that close's lead. */
  beatClosePinnacle: GatedRate;
  beatClosePinnacleByLead: BeatCloseByLead;
  clv: { beat: number; faded: number; flat: number };
  /** Flat 1-unit stakes at the locked price over the settled entries (see UnitsRecord). */
  units: UnitsRecord;
};

export type TierCalibration = {
  grade: TierGrade;
  counts: OutcomeCounts;
  hitRate: GatedRate;
  units: UnitsRecord;
  /**
   * What the tier's grades claimed: the mean EV of each settled stake's locked price at its p_win
   * (percent), over the same n as `units`. A+ and A claim positive EV, C and F negative by definition.
   */
  claim: { n: number; meanEvPct: number | null };
  /** Share of the tier's closes (on the one yardstick) that the locked price beat. */
  beatClose: GatedRate;
  /** The tier's verdicts by the close's lead time before the start; n >= 20 per band for a percentage. */
  beatCloseByLead: BeatCloseByLead;
  /** Against Pinnacle's own no-vig close (issue 43), in all and by its lead. */
  beatClosePinnacle: GatedRate;
  beatClosePinnacleByLead: BeatCloseByLead;
  clv: { beat: number; faded: number; flat: number };
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
  /** Flat 1-unit stakes at the locked price; ROI % gated at the same minimum sample. */
  units: UnitsRecord;
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

/** Running sum of flat stakes, and each game's; `unitsRecord` turns it into the published figure. */
type UnitsAcc = { n: number; units: number; unpriced: number; games: Map<string, GameStakes> };

function emptyUnits(): UnitsAcc {
  return { n: 0, units: 0, unpriced: 0, games: new Map() };
}

function isAmericanPrice(p: number | null | undefined): p is number {
  return typeof p === 'number' && Number.isFinite(p) && Math.abs(p) >= 100;
}

/** `game`: the stake's event id; a row without one is a game of its own (never merged with another). */
function stakeAt(acc: UnitsAcc, outcome: RecordRow['outcome'], lockedPrice: number | null | undefined, game: string | null): void {
  if (outcome !== 'hit' && outcome !== 'miss' && outcome !== 'push') return;
  if (!isAmericanPrice(lockedPrice)) {
    acc.unpriced++;
    return;
  }
  acc.n++;
  const r = outcome === 'hit' ? profitPerUnit(lockedPrice) : outcome === 'miss' ? -1 : 0;
  acc.units += r;
  addStake(acc.games, game ?? `\u0000row ${acc.n}`, r);
}

/** The published units figure: the sum at n >= 1, ROI % and its game-resampled interval only at n >= `minSample` (the record gate). */
export function unitsRecord(acc: UnitsAcc, minSample: number = MIN_SAMPLE): UnitsRecord {
  const ok = acc.n >= Math.max(minSample, MIN_SAMPLE);
  const mean = acc.n === 0 ? 0 : acc.units / acc.n;
  return {
    n: acc.n,
    units: acc.n === 0 ? null : acc.units,
    roiPct: ok ? mean * 100 : null,
    state: ok ? 'ok' : 'building',
    roiCi95: ok ? roiInterval(acc.games) : null,
    unpriced: acc.unpriced,
  };
}

/** Outcome codes of a tally: hit, miss, push, void, anything else (counted as pending). */
export const OUTCOME_CODE = { hit: 0, miss: 1, push: 2, void: 3, pending: 4 } as const;
export type OutcomeCode = (typeof OUTCOME_CODE)[keyof typeof OUTCOME_CODE];

/**
 * One pass over rows already in scope: the model aggregate's counts, units and CLV, and each tier's
 * counts, units and p_win sums, added in the order the rows come (so every float sum is the same
 * to the bit whoever feeds it: the row arrays of modelAggregate / tierCalibration, or a store
 * cursor that never builds the rows). `tier` is the row's index in TIER_GRADES, or -1 for no tier;
 * `verdict` is the stored clv_verdict (null for none). `parts` leaves out the half a caller does
 * not read (modelAggregate alone, tierCalibration alone).
 */
export interface RecordTally {
  add(tier: number, outcome: OutcomeCode, verdict: string | null, pWin: number | null, lockedPrice: number | null | undefined, leadMinutes?: number | null, eventId?: string | null, pinnacleVerdict?: string | null, pinnacleLeadMinutes?: number | null): void;
  aggregate(window: RecordWindow, scope: ModelAggregate['scope']): ModelAggregate;
  tiers(): TierCalibration[];
}

type TierAcc = { counts: OutcomeCounts; units: UnitsAcc; pWinSum: number; pWinN: number; pWinHits: number; evSum: number; evN: number; clv: { beat: number; faded: number; flat: number }; lead: LeadTally; pin: LeadTally };

const OUTCOME_NAMES = ['hit', 'miss', 'push', 'void', 'pending'] as const;

export function createRecordTally(parts: { model: boolean; tiers: boolean } = { model: true, tiers: true }): RecordTally {
  const { model, tiers: withTiers } = parts;
  const counts = emptyCounts();
  const clv = { beat: 0, faded: 0, flat: 0 } as Record<string, number>;
  const units = emptyUnits();
  const lead = createLeadTally();
  const pin = createLeadTally();
  const tierAcc: TierAcc[] = TIER_GRADES.map(() => ({ counts: emptyCounts(), units: emptyUnits(), pWinSum: 0, pWinN: 0, pWinHits: 0, evSum: 0, evN: 0, clv: { beat: 0, faded: 0, flat: 0 }, lead: createLeadTally(), pin: createLeadTally() }));
  return {
    add(tier, outcome, verdict, pWin, lockedPrice, leadMinutes = null, eventId = null, pinnacleVerdict = null, pinnacleLeadMinutes = null) {
      const name = OUTCOME_NAMES[outcome] as RecordRow['outcome'];
      const band = verdict === null ? null : closeLeadBand(leadMinutes);
      const pinBand = pinnacleVerdict === null ? null : closeLeadBand(pinnacleLeadMinutes);
      if (model) {
        tally(counts, name);
        stakeAt(units, name, lockedPrice, eventId);
        // CLV is a property of the price, known once the close is captured, whatever the result.
        if (verdict !== null) clv[verdict] = (clv[verdict] as number) + 1;
        lead.add(band, verdict);
        pin.add(pinBand, pinnacleVerdict);
      }
      if (tier < 0 || !withTiers) return;
      const a = tierAcc[tier] as TierAcc;
      tally(a.counts, name);
      stakeAt(a.units, name, lockedPrice, eventId);
      if (verdict === 'beat' || verdict === 'faded' || verdict === 'flat') a.clv[verdict]++;
      a.lead.add(band, verdict);
      a.pin.add(pinBand, pinnacleVerdict);
      const staked = outcome === OUTCOME_CODE.hit || outcome === OUTCOME_CODE.miss || outcome === OUTCOME_CODE.push;
      const claimed = staked ? evPctAt(pWin, lockedPrice) : null;
      if (claimed !== null) {
        a.evSum += claimed;
        a.evN++;
      }
      const settled = outcome === OUTCOME_CODE.hit || outcome === OUTCOME_CODE.miss;
      if (settled && pWin !== null && Number.isFinite(pWin)) {
        a.pWinSum += pWin;
        a.pWinN++;
        if (outcome === OUTCOME_CODE.hit) a.pWinHits++;
      }
    },
    aggregate(window, scope) {
      const c = clv as { beat: number; faded: number; flat: number };
      return {
        window,
        scope,
        counts,
        hitRate: gateRate(counts.hits, counts.hits + counts.misses),
        beatClose: gateRate(c.beat, c.beat + c.faded + c.flat),
        beatCloseByLead: lead.result(),
        ...pinnacleRates(pin),
        clv: c,
        units: unitsRecord(units),
      };
    },
    tiers() {
      return TIER_GRADES.map((grade, i) => {
        const a = tierAcc[i] as TierAcc;
        return {
          grade,
          counts: a.counts,
          hitRate: gateRate(a.counts.hits, a.counts.hits + a.counts.misses),
          units: unitsRecord(a.units),
          claim: { n: a.evN, meanEvPct: a.evN === 0 ? null : a.evSum / a.evN },
          beatClose: gateRate(a.clv.beat, a.clv.beat + a.clv.faded + a.clv.flat),
          beatCloseByLead: a.lead.result(),
          ...pinnacleRates(a.pin),
          clv: a.clv,
          calibration: {
            n: a.pWinN,
            meanPWinPct: a.pWinN === 0 ? null : (a.pWinSum / a.pWinN) * 100,
            actual: gateRate(a.pWinHits, a.pWinN),
          },
        };
      });
    },
  };
}

/** The Pinnacle yardstick's pooled rate and bands from its lead tally (its captures always carry a lead). */
function pinnacleRates(t: LeadTally): { beatClosePinnacle: GatedRate; beatClosePinnacleByLead: BeatCloseByLead } {
  const bands = t.result();
  const beat = bands.reduce((s, b) => s + b.beat, 0);
  const n = bands.reduce((s, b) => s + b.n, 0);
  return { beatClosePinnacle: gateRate(beat, n), beatClosePinnacleByLead: bands };
}

/** The tally codes of a row: its tier index (-1 for none) and its outcome code. */
export function tierIndex(grade: string | null): number {
  return isTier(grade) ? TIER_GRADES.indexOf(grade) : -1;
}
export function outcomeCode(outcome: string): OutcomeCode {
  return outcome === 'hit' ? 0 : outcome === 'miss' ? 1 : outcome === 'push' ? 2 : outcome === 'void' ? 3 : 4;
}

/** The window and scope of a record read, as the aggregate reports them. */
export function recordScope(options: RecordScopeInput): { window: RecordWindow; scope: ModelAggregate['scope'] } {
  const scope = recordScopeSchema.parse(options);
  return {
    window: recordWindow(scope.now, scope.days, scope.date),
    scope: { team: scope.team ?? null, player: scope.player ?? null, sport: scope.sport ?? null },
  };
}

function tallyRows(rows: readonly RecordRow[], options: RecordScopeInput, parts: { model: boolean; tiers: boolean }): RecordTally {
  const scope = recordScopeSchema.parse(options);
  const matches = scopeMatcher(scope, recordWindow(scope.now, scope.days, scope.date));
  const t = createRecordTally(parts);
  for (const row of rows) {
    if (!matches(row)) continue;
    t.add(tierIndex(row.grade), outcomeCode(row.outcome), yardstickVerdict(row), row.pWin, row.lockedPrice, row.closeLeadMinutes ?? null, row.eventId ?? null, row.pinnacleClvVerdict ?? null, row.pinnacleCloseLeadMinutes ?? null);
  }
  return t;
}

export function modelAggregate(rows: readonly RecordRow[], options: RecordScopeInput): ModelAggregate {
  const { window, scope } = recordScope(options);
  return tallyRows(rows, options, { model: true, tiers: false }).aggregate(window, scope);
}

function isTier(grade: string | null): grade is TierGrade {
  return grade !== null && (TIER_GRADES as readonly string[]).includes(grade);
}

/** Per-tier hit rate and predicted-vs-actual, over the same scope and window as the aggregate. */
export function tierCalibration(rows: readonly RecordRow[], options: RecordScopeInput): TierCalibration[] {
  return tallyRows(rows, options, { model: false, tiers: true }).tiers();
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
  return tierAccuracy(window, opts.minSample, tierCalibration(rows, { now: opts.now, days: opts.days, sport: opts.sport }));
}

/** The accuracy view of a tier table already computed over the window. */
export function tierAccuracy(window: RecordWindow, minSample: number, tiers: readonly TierCalibration[]): { window: RecordWindow; minSample: number; tiers: TierAccuracy[] } {
  return {
    window,
    minSample,
    tiers: tiers.map(({ grade, hitRate, units }) => toAccuracy(grade, hitRate, units, minSample)),
  };
}

function toAccuracy(grade: TierGrade, rate: GatedRate, units: UnitsRecord, minSample: number): TierAccuracy {
  const { n, successes: hits } = rate;
  // ROI follows the same minimum sample as the tier's percentage.
  const gatedUnits: UnitsRecord = units.n >= minSample ? units : { ...units, roiPct: null, roiCi95: null, state: 'building' };
  if (n < minSample || rate.state !== 'ok') {
    return { grade, n, hits, pct: null, ci95: null, state: 'learning', label: `${n} of ${minSample}`, units: gatedUnits };
  }
  return { grade, n, hits, pct: rate.pct, ci95: rate.ci95, state: 'ok', label: rate.label, units: gatedUnits };
}
