import type { PlayerGameStat } from '../entities.js';
import type { Grade } from '../grades.js';
import { americanToDecimal, fairAmerican } from '../odds.js';
import type { GradedSport, Side } from '../sports.js';
import type { StatType } from '../stats.js';
import { countDistribution, lineProbabilities, type CountDistribution } from './distributions.js';
import { FITTED_PARAMS } from './fitted-params.js';
import { gradeFor, isTakeable } from './grading.js';
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
 * Grades one prop side: the projection must exist (no projection, no grade), the market supplies the
 * fair probability, the model nudges it only by its fitted per-market weight, and the letter maps
 * from EV at the graded price (grading.ts). Pure and allocation-light: the snapshot calls it per row.
 */
export function gradeProp(input: GradeInput, params: ModelParams = FITTED_PARAMS): GradeOutput {
  for (const row of input.history) {
    if (row.date >= input.gameDate) {
      throw new RangeError(`history holds a game on ${row.date}, not strictly before the graded game on ${input.gameDate}`);
    }
  }
  const sp = paramsFor(params, input.sport, input.stat);
  if (sp === null) return refuse(`${input.stat} is not graded for ${input.sport}`);
  if (!Number.isFinite(input.line) || input.line < 0) return refuse(`line ${input.line} is not a stat threshold`);

  const projected = projectStat(input.history, input.stat, sp, input.gameDate);
  if (!projected.ok) return refuse(projected.reason);
  const pr = projected.projection;

  const variance =
    sp.dispersion !== null
      ? sp.dispersion.a * pr.mean + sp.dispersion.b * pr.mean * pr.mean
      : pr.mean + ownDispersion(projected.series, pr.rate) * pr.mean * pr.mean;
  const dist = countDistribution(pr.mean, variance);
  const probs = lineProbabilities(dist, input.line);
  const pModel = conditionalWinProbability(probs, input.side);
  if (!(pModel > 0 && pModel < 1)) {
    return refuse(`the model gives the ${input.side} no real chance either way at ${input.line}`, pr.mean);
  }
  const m = input.market;
  if (m === null) return refuse(`no book prices both sides of ${input.line}, so there is no market to grade a price against`, pr.mean);
  const decimal = americanToDecimal(m.bookOdds);
  if (decimal === null || !(m.fairProb > 0 && m.fairProb < 1)) return refuse(`no valid price at ${input.line}`, pr.mean);

  const nudgeWeight = nudgeWeightFor(params, input.sport, input.stat);
  const pWin = nudgeWeight > 0 ? blendProbability(pModel, m.fairProb, nudgeWeight) : m.fairProb;
  const evPct = 100 * (pWin * decimal - 1);
  const grade = gradeFor({ evPct, fairSource: m.fairSource, thinConsensus: m.thinConsensus, gradedAtOutlier: m.gradedAtOutlier, fitted: sp.fitted });

  return {
    grade,
    insufficientData: false,
    projection: pr.mean,
    pWin,
    modelOdds: fairAmerican(pWin),
    evPct,
    value: pWin - m.fairProb,
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
      distribution: dist,
      variance,
      pPush: probs.push,
      pModel,
      pFair: m.fairProb,
      fairSource: m.fairSource,
      consensusBooks: m.consensusBooks,
      thinConsensus: m.thinConsensus,
      nudgeWeight,
      fitted: sp.fitted,
    },
  };
}
