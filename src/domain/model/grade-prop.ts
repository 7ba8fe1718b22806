import { devigTwoWay } from '../devig.js';
import type { PlayerGameStat } from '../entities.js';
import type { Grade } from '../grades.js';
import { fairAmerican } from '../odds.js';
import type { GradedSport, Side } from '../sports.js';
import type { StatType } from '../stats.js';
import { countDistribution, lineProbabilities, type CountDistribution } from './distributions.js';
import { FITTED_PARAMS } from './fitted-params.js';
import { gradeFor, isTakeable } from './grading.js';
import { paramsFor, type Exposure, type ModelParams } from './params.js';
import { blendProbability, conditionalWinProbability, evPercent } from './pricing.js';
import { ownDispersion, projectStat } from './projection.js';

export interface GradeInput {
  sport: GradedSport;
  stat: StatType;
  line: number;
  side: Side;
  /** The book's two-way pair at this line (American). */
  overOdds: number | null;
  underOdds: number | null;
  /** Price for the graded side. */
  bookOdds: number | null;
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
  /** De-vigged (shin) market probability for the side from the book's pair; null without a pair. */
  pMarket: number | null;
  /** Model weight in the blend that produced pWin; null when pWin is the pure model. */
  blendWeight: number | null;
  fitted: boolean;
}

export type GradeOutput =
  | {
      grade: Grade;
      insufficientData: false;
      projection: number;
      pWin: number;
      modelOdds: number | null;
      evPct: number | null;
      value: number | null;
      takeable: boolean | null;
      detail: GradeDetail;
    }
  | { grade: null; insufficientData: true; reason: string; projection: number | null };

function refuse(reason: string, projection: number | null = null): GradeOutput {
  return { grade: null, insufficientData: true, reason, projection };
}

/** Grades one prop side from the player's real history. Pure and allocation-light: the snapshot calls it per row. */
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

  const market = devigTwoWay(input.overOdds, input.underOdds, 'shin');
  const pMarket = market.ok ? (input.side === 'over' ? market.probs[0] : market.probs[1]) ?? null : null;
  const blendWeight = pMarket !== null && params.blendWeight !== null ? params.blendWeight : null;
  const pWin = pMarket !== null && blendWeight !== null ? blendProbability(pModel, pMarket, blendWeight) : pModel;

  const evPct = input.bookOdds === null ? null : safeEv(pWin, probs.push, input.bookOdds);
  const value = pMarket === null ? null : pWin - pMarket;
  const grade = gradeFor({ evPct, pWin, sampleSize: pr.sampleSize, hasMarketPair: pMarket !== null, fitted: sp.fitted });

  return {
    grade,
    insufficientData: false,
    projection: pr.mean,
    pWin,
    modelOdds: fairAmerican(pWin),
    evPct,
    value,
    takeable: isTakeable(evPct, pr.sampleSize),
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
      pMarket,
      blendWeight,
      fitted: sp.fitted,
    },
  };
}

/** An invalid book price (|A| < 100) is not a price: no EV rather than a made-up one. */
function safeEv(pWin: number, pPush: number, american: number): number | null {
  if (!Number.isFinite(american) || Math.abs(american) < 100) return null;
  return evPercent(pWin, pPush, american);
}
