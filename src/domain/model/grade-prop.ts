import type { PlayerGameStat } from '../entities.js';
import type { Grade } from '../grades.js';
import { americanToDecimal, fairAmerican } from '../odds.js';
import type { GradedSport, Side } from '../sports.js';
import type { StatType } from '../stats.js';
import { countDistribution, lineProbabilities, type CountDistribution, type LineProbabilities } from './distributions.js';
import { FITTED_PARAMS } from './fitted-params.js';
import { gradeFor, isTakeable, type CapReason } from './grading.js';
import type { FairSource } from './market.js';
import { nudgeWeightFor, paramsFor, type Exposure, type ModelParams } from './params.js';
import { blendProbability, conditionalWinProbability } from './pricing.js';
import { ownDispersion, projectStat } from './projection.js';

/** The market side of a row: the graded price and the market's fair probability (from priceLadder). */
export interface MarketPricing {
  bookOdds: number;
  /** Fair probability of the side from the market alone (consensus, market-implied or the book's own pair). */
  fairProb: number;
  fairSource: FairSource;
  consensusBooks: number;
  thinConsensus: boolean;
  gradedAtOutlier: boolean;
  /** A one-sided soccer line (RowPricing.oneSided): whether its market passed the held-out gate; absent when two-sided. */
  oneSidedPassed?: boolean | null;
}

export interface GradeInput {
  sport: GradedSport;
  stat: StatType;
  line: number;
  side: Side;
  /** Null when no book prices both sides of the line: a grade is a claim about a price, so it is refused. */
  market: MarketPricing | null;
  /** The player's real games strictly before the graded game; a later row is a caller bug and throws. */
  history: readonly PlayerGameStat[];
  /** ET yyyy-mm-dd of the graded game. */
  gameDate: string;
}

export interface GradeDetail {
  sampleSize: number;
  /** Mean of the stat over the last 5 played games. */
  recentForm: number;
  /** Mean of the stat over all played games in the lookback window. */
  lookbackAverage: number;
  exposure: Exposure;
  expectedExposure: number;
  /** Mean exposure (minutes) over the last 5 played games minus the lookback mean. */
  exposureTrend: number;
  rate: number;
  priorRate: number;
  priorShare: number;
  lastGameDate: string;
  daysSinceLastGame: number;
  distribution: CountDistribution;
  variance: number;
  /** Model probability of a push at this line (0 on .5 lines). */
  pPush: number;
  /** Pure-model win probability for the side (conditional on no push). */
  pModel: number;
  /** The market's fair probability for the side (MarketPricing.fairProb). */
  pFair: number;
  fairSource: FairSource;
  consensusBooks: number;
  thinConsensus: boolean;
  /** The model's weight in the pool with the market for this stat (0 = the market alone). */
  nudgeWeight: number;
  fitted: boolean;
}

export type GradeOutput =
  | {
      grade: Grade;
      /** The letter the EV earns by the bands alone; differs from grade only when capReason says why. */
      gradeUncapped: Grade;
      capReason: CapReason | null;
      insufficientData: false;
      projection: number;
      pWin: number;
      modelOdds: number | null;
      evPct: number;
      value: number;
      takeable: boolean;
      detail: GradeDetail;
    }
  | { grade: null; insufficientData: true; reason: string; projection: number | null };

function refuse(reason: string, projection: number | null = null): GradeOutput {
  return { grade: null, insufficientData: true, reason, projection };
}

/**
 * What gradeProp derives from (history, params, sport, stat, game date) alone, before any line or
 * price: every line and side of a player's stat in a slate shares it. Memoised per history array
 * (histories are read-only inputs; an array that changed length or ends is recomputed, never
 * trusted), so a slate grades each player-stat's projection once instead of once per row.
 */
interface Prepared {
  sp: ReturnType<typeof paramsFor>;
  nudgeWeight: number;
  /** Computed on first use, at the point gradeProp needs it (after the line is checked). */
  projected?: ReturnType<typeof projectStat>;
  variance?: number;
  dist?: CountDistribution;
  /** lineProbabilities(dist, line) per line. */
  lines: Map<number, LineProbabilities>;
}

interface HistoryMemo {
  length: number;
  first: PlayerGameStat | undefined;
  last: PlayerGameStat | undefined;
  /** Per game date: the first history row on or after it (the caller-bug check), or null. */
  lateRow: Map<string, PlayerGameStat | null>;
  /** params -> sport -> stat -> game date. */
  byParams: WeakMap<ModelParams, Map<string, Map<string, Map<string, Prepared>>>>;
}

const memo = new WeakMap<readonly PlayerGameStat[], HistoryMemo>();

function historyMemo(history: readonly PlayerGameStat[]): HistoryMemo {
  let m = memo.get(history);
  if (!m || m.length !== history.length || m.first !== history[0] || m.last !== history[history.length - 1]) {
    m = { length: history.length, first: history[0], last: history[history.length - 1], lateRow: new Map(), byParams: new WeakMap() };
    memo.set(history, m);
  }
  return m;
}

function prepare(input: GradeInput, params: ModelParams, m: HistoryMemo): Prepared {
  let bySport = m.byParams.get(params);
  if (!bySport) m.byParams.set(params, (bySport = new Map()));
  let byStat = bySport.get(input.sport);
  if (!byStat) bySport.set(input.sport, (byStat = new Map()));
  let byDate = byStat.get(input.stat);
  if (!byDate) byStat.set(input.stat, (byDate = new Map()));
  let p = byDate.get(input.gameDate);
  if (!p) {
    p = { sp: paramsFor(params, input.sport, input.stat), nudgeWeight: nudgeWeightFor(params, input.sport, input.stat), lines: new Map() };
    byDate.set(input.gameDate, p);
  }
  return p;
}

/**
 * Grades one prop side: the projection must exist (no projection, no grade), the market supplies the
 * fair probability, the model nudges it only by its fitted per-market weight, and the letter maps
 * from EV at the graded price (grading.ts). Pure and allocation-light: the snapshot calls it per row.
 */
export function gradeProp(input: GradeInput, params: ModelParams = FITTED_PARAMS): GradeOutput {
  const m = historyMemo(input.history);
  let late = m.lateRow.get(input.gameDate);
  if (late === undefined) {
    late = input.history.find((row) => row.date >= input.gameDate) ?? null;
    m.lateRow.set(input.gameDate, late);
  }
  if (late !== null) {
    throw new RangeError(`history holds a game on ${late.date}, not strictly before the graded game on ${input.gameDate}`);
  }
  const prep = prepare(input, params, m);
  const sp = prep.sp;
  if (sp === null) return refuse(`${input.stat} is not graded for ${input.sport}`);
  if (!Number.isFinite(input.line) || input.line < 0) return refuse(`line ${input.line} is not a stat threshold`);

  prep.projected ??= projectStat(input.history, input.stat, sp, input.gameDate);
  const projected = prep.projected;
  if (!projected.ok) return refuse(projected.reason);
  const pr = projected.projection;

  if (prep.dist === undefined) {
    prep.variance =
      sp.dispersion !== null
        ? sp.dispersion.a * pr.mean + sp.dispersion.b * pr.mean * pr.mean
        : pr.mean + ownDispersion(projected.series, pr.rate) * pr.mean * pr.mean;
    prep.dist = countDistribution(pr.mean, prep.variance);
  }
  const variance = prep.variance as number;
  const dist = prep.dist;
  let probs = prep.lines.get(input.line);
  if (probs === undefined) prep.lines.set(input.line, (probs = lineProbabilities(dist, input.line)));
  const pModel = conditionalWinProbability(probs, input.side);
  if (!(pModel > 0 && pModel < 1)) {
    return refuse(`the model gives the ${input.side} no real chance either way at ${input.line}`, pr.mean);
  }
  const mk = input.market;
  if (mk === null) return refuse(`no book prices both sides of ${input.line}, so there is no market to grade a price against`, pr.mean);
  const decimal = americanToDecimal(mk.bookOdds);
  if (decimal === null || !(mk.fairProb > 0 && mk.fairProb < 1)) return refuse(`no valid price at ${input.line}`, pr.mean);

  const nudgeWeight = prep.nudgeWeight;
  const pWin = nudgeWeight > 0 ? blendProbability(pModel, mk.fairProb, nudgeWeight) : mk.fairProb;
  const evPct = 100 * (pWin * decimal - 1);
  const { grade, gradeUncapped, capReason } = gradeFor({ evPct, fairSource: mk.fairSource, thinConsensus: mk.thinConsensus, gradedAtOutlier: mk.gradedAtOutlier, fitted: sp.fitted, oneSidedPassed: mk.oneSidedPassed ?? null });

  return {
    grade,
    gradeUncapped,
    capReason,
    insufficientData: false,
    projection: pr.mean,
    pWin,
    modelOdds: fairAmerican(pWin),
    evPct,
    value: pWin - mk.fairProb,
    takeable: isTakeable(grade),
    detail: {
      sampleSize: pr.sampleSize,
      recentForm: pr.recentForm,
      lookbackAverage: pr.lookbackAverage,
      exposure: pr.exposure,
      expectedExposure: pr.expectedExposure,
      exposureTrend: pr.exposureRecent - pr.exposureLookback,
      rate: pr.rate,
      priorRate: pr.priorRate,
      priorShare: pr.priorShare,
      lastGameDate: pr.lastGameDate,
      daysSinceLastGame: pr.daysSinceLastGame,
      // A copy per grade: outputs never share a mutable object.
      distribution: { ...dist },
      variance,
      pPush: probs.push,
      pModel,
      pFair: mk.fairProb,
      fairSource: mk.fairSource,
      consensusBooks: mk.consensusBooks,
      thinConsensus: mk.thinConsensus,
      nudgeWeight,
      fitted: sp.fitted,
    },
  };
}
