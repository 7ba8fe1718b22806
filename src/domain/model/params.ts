import { z } from 'zod';
import type { GradedSport } from '../sports.js';
import { STATS, type StatType } from '../stats.js';

/**
 * The model's parameters. Fitted values (NBA) come from `fitModelParams` on real game logs and
 * props dated before the fit cut-off; `propgrade backtest` refits them and prints the result, and
 * FITTED_PARAMS below is that output (docs/model.md quotes the run). Sports with no history to fit
 * on get structural defaults that use only the player's own history, and their grades are capped.
 */

/** What one game's stat is "per": minutes for basketball and soccer, PA / batters faced for MLB. */
export const exposureSchema = z.enum(['minutes', 'plate_appearances', 'batters_faced', 'game']);
export type Exposure = z.infer<typeof exposureSchema>;

export const dispersionSchema = z.object({
  /** Variance = a * mean + b * mean^2 (a = 1, b = 0 is Poisson; a = 1 is classic NB2). */
  a: z.number().positive(),
  b: z.number().min(0),
});
export type Dispersion = z.infer<typeof dispersionSchema>;

export const statParamsSchema = z.object({
  exposure: exposureSchema,
  /** Recency half-life of the per-exposure rate, in played games. */
  rateHalfLifeGames: z.number().positive(),
  /** Recency half-life of expected exposure (minutes), in played games: how fast a role change shows. */
  exposureHalfLifeGames: z.number().positive(),
  /** League rate per exposure unit (fitted on training data); null = the player's own unweighted lookback rate. */
  priorRate: z.number().positive().nullable(),
  /** Prior weight in exposure units (e.g. minutes). */
  priorStrength: z.number().min(0),
  /** Fitted variance function; null = method-of-moments from the player's own residuals. */
  dispersion: dispersionSchema.nullable(),
  /** True when every number above was fitted on real training data and back-tested. */
  fitted: z.boolean(),
  /**
   * History window in days when the sport's off-season is longer than HISTORY_RULES.lookbackDays
   * covers (WNBA: October to May, so 240 days would drop the whole previous season by June).
   */
  lookbackDays: z.number().int().positive().optional(),
});
export type StatParams = z.infer<typeof statParamsSchema>;

export const modelParamsSchema = z.object({
  /** Fit cut-off (exclusive), yyyy-mm-dd; null for structural defaults. */
  fitBefore: z.string().nullable(),
  /**
   * Per market (`${sport}:${stat}`), the model's weight in the logit pool with the market's fair
   * probability, fitted on training props only; a market without an entry gets 0 (the market alone).
   */
  nudgeWeights: z.record(z.string(), z.number().min(0).max(1)),
  /**
   * Factor on the fitted variance function for the spread of outcomes around the MARKET's mean
   * (market-implied rungs); the model's own variance includes its projection error, which the
   * market's mean does not carry. Fitted on training props; null = no market-implied rungs.
   */
  marketDispersionScale: z.number().positive().nullable(),
  /** Keyed `${sport}:${stat}`. */
  stats: z.record(z.string(), statParamsSchema),
});
export type ModelParams = z.infer<typeof modelParamsSchema>;

export function statKey(sport: GradedSport, stat: StatType): string {
  return `${sport}:${stat}`;
}

/** Structural choices for a (sport, stat) with no fitted parameters: own-history prior, own dispersion. */
export function structuralParams(sport: GradedSport, stat: StatType): StatParams {
  return {
    exposure: exposureFor(sport, stat),
    rateHalfLifeGames: 20,
    exposureHalfLifeGames: 8,
    priorRate: null,
    // Exposure units; scaled per player in projection (5 average games of the player's own exposure).
    priorStrength: 0,
    dispersion: null,
    fitted: false,
    ...(sport === 'wnba' ? { lookbackDays: WNBA_LOOKBACK_DAYS } : {}),
  };
}

/** WNBA: one year back covers one off-season (about 7 months, October to May), never two. */
export const WNBA_LOOKBACK_DAYS = 365;

export function exposureFor(sport: GradedSport, stat: StatType): Exposure {
  // A pitcher's strikeouts and outs are both per batter faced (starts only: buildSeries).
  if (sport === 'mlb') return stat === 'strikeouts' || stat === 'pitcher_outs' ? 'batters_faced' : 'plate_appearances';
  return 'minutes';
}

/** Dispersion of outcomes around the market's mean for (sport, stat); null without a fitted stat or scale. */
export function marketDispersionFor(params: ModelParams, sport: GradedSport, stat: StatType): Dispersion | null {
  const d = params.stats[statKey(sport, stat)]?.dispersion ?? null;
  const s = params.marketDispersionScale;
  return d === null || s === null ? null : { a: d.a * s, b: d.b * s };
}

/** The model's weight against the market for (sport, stat): 0 unless a training fit showed it helps. */
export function nudgeWeightFor(params: ModelParams, sport: GradedSport, stat: StatType): number {
  return params.nudgeWeights[statKey(sport, stat)] ?? 0;
}

/** The parameters for (sport, stat): fitted when present, else structural defaults; null for a stat the sport does not have. */
export function paramsFor(params: ModelParams, sport: GradedSport, stat: StatType): StatParams | null {
  if (!STATS[stat].sports.includes(sport)) return null;
  return params.stats[statKey(sport, stat)] ?? structuralParams(sport, stat);
}

/** Game-count rules shared by every stat. */
export const HISTORY_RULES = {
  /** Only games this many days before the graded game count (covers one off-season, not two). */
  lookbackDays: 240,
  /** Fewer played games than this in the lookback = refusal (fitted stats). */
  minPlayedGames: 5,
  /** Unfitted stats lean on the player's own variance, so they need more games. */
  minPlayedGamesUnfitted: 10,
  /** Prior strength for the own-history prior, in the player's average games of exposure. */
  selfPriorGames: 5,
} as const;
