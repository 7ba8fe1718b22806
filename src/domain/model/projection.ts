import type { PlayerGameStat } from '../entities.js';
import type { StatType } from '../stats.js';
import type { Exposure, StatParams } from './params.js';
import { HISTORY_RULES } from './params.js';

/**
 * Projection of one stat for one player's next game from real past games only.
 * mean = shrunk recency-weighted rate per exposure unit x recency-weighted expected exposure.
 */

/** One played game reduced to what the projection needs. */
export interface SeriesPoint {
  date: string;
  value: number;
  exposure: number;
}

/**
 * Streaming accumulator: the projection is a function of exponentially weighted sums, so a player's
 * whole season can be replayed game by game in O(1) per game. The fitter and gradeProp both use it,
 * which keeps the back-test on exactly the grading code.
 */
export class RateAccumulator {
  private readonly rateDecay: number;
  private readonly exposureDecay: number;
  private wValue = 0;
  private wExposure = 0;
  private eSum = 0;
  private eWeight = 0;
  totalValue = 0;
  totalExposure = 0;
  n = 0;

  constructor(rateHalfLifeGames: number, exposureHalfLifeGames: number) {
    this.rateDecay = Math.pow(0.5, 1 / rateHalfLifeGames);
    this.exposureDecay = Math.pow(0.5, 1 / exposureHalfLifeGames);
  }

  add(value: number, exposure: number): void {
    this.wValue = this.wValue * this.rateDecay + value;
    this.wExposure = this.wExposure * this.rateDecay + exposure;
    this.eSum = this.eSum * this.exposureDecay + exposure;
    this.eWeight = this.eWeight * this.exposureDecay + 1;
    this.totalValue += value;
    this.totalExposure += exposure;
    this.n += 1;
  }

  /** Recency-weighted mean exposure per game (the expected minutes). */
  expectedExposure(): number {
    return this.eWeight > 0 ? this.eSum / this.eWeight : 0;
  }

  /** Gamma-Poisson posterior mean of the rate: (K * prior + sum w x) / (K + sum w e). */
  rate(priorRate: number, priorStrength: number): number {
    const denom = priorStrength + this.wExposure;
    return denom > 0 ? (priorStrength * priorRate + this.wValue) / denom : priorRate;
  }

  /** Share of the rate estimate that comes from the prior rather than the player. */
  priorShare(priorStrength: number): number {
    const denom = priorStrength + this.wExposure;
    return denom > 0 ? priorStrength / denom : 1;
  }
}

/** The real per-game exposure of a row, or null when the row cannot count as a played game. */
export function exposureOf(row: PlayerGameStat, exposure: Exposure): number | null {
  if (exposure === 'minutes') return row.minutes !== null && row.minutes > 0 ? row.minutes : null;
  if (exposure === 'game') return 1;
  const v = row.extras[exposure];
  return typeof v === 'number' && v > 0 ? v : null;
}

function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function daysBetween(fromIso: string, toIso: string): number {
  return Math.round((Date.parse(`${toIso}T00:00:00Z`) - Date.parse(`${fromIso}T00:00:00Z`)) / 86_400_000);
}

/**
 * Played games for one stat inside the lookback window, oldest first. MLB rows without the exposure
 * extra fall back to per-game rates for the whole series (mixing units would corrupt the rate).
 */
export function buildSeries(
  history: readonly PlayerGameStat[],
  stat: StatType,
  exposure: Exposure,
  gameDate: string,
): { series: SeriesPoint[]; exposure: Exposure } {
  // yyyy-mm-dd strings order like dates, so the window test is two string compares per row.
  const earliest = addDays(gameDate, -HISTORY_RULES.lookbackDays);
  const inWindow = history.filter((r) => r.date >= earliest && r.date < gameDate && typeof r.stats[stat] === 'number');
  const effective: Exposure =
    exposure === 'plate_appearances' || exposure === 'batters_faced'
      ? inWindow.every((r) => exposureOf(r, exposure) !== null)
        ? exposure
        : 'game'
      : exposure;
  const series: SeriesPoint[] = [];
  for (const r of inWindow) {
    const e = exposureOf(r, effective);
    const v = r.stats[stat];
    if (e === null || typeof v !== 'number') continue;
    series.push({ date: r.date, value: v, exposure: e });
  }
  series.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  return { series, exposure: effective };
}

export interface Projection {
  mean: number;
  rate: number;
  priorRate: number;
  priorShare: number;
  expectedExposure: number;
  exposure: Exposure;
  sampleSize: number;
  recentForm: number;
  lookbackAverage: number;
  exposureRecent: number;
  exposureLookback: number;
  lastGameDate: string;
  daysSinceLastGame: number;
}

export type ProjectionResult = { ok: true; projection: Projection; series: SeriesPoint[] } | { ok: false; reason: string };

const RECENT_GAMES = 5;

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function projectStat(
  history: readonly PlayerGameStat[],
  stat: StatType,
  params: StatParams,
  gameDate: string,
): ProjectionResult {
  const { series, exposure } = buildSeries(history, stat, params.exposure, gameDate);
  const minGames = params.fitted ? HISTORY_RULES.minPlayedGames : HISTORY_RULES.minPlayedGamesUnfitted;
  if (series.length < minGames) {
    return {
      ok: false,
      reason: `only ${series.length} played game(s) with ${stat} in the last ${HISTORY_RULES.lookbackDays} days (need ${minGames})`,
    };
  }
  const acc = new RateAccumulator(params.rateHalfLifeGames, params.exposureHalfLifeGames);
  for (const p of series) acc.add(p.value, p.exposure);
  const ownRate = acc.totalExposure > 0 ? acc.totalValue / acc.totalExposure : 0;
  const priorRate = params.priorRate ?? ownRate;
  const priorStrength =
    params.priorRate === null ? HISTORY_RULES.selfPriorGames * (acc.totalExposure / acc.n) : params.priorStrength;
  const rate = acc.rate(priorRate, priorStrength);
  const expectedExposure = acc.expectedExposure();
  const projected = rate * expectedExposure;
  if (!(projected > 0)) {
    return { ok: false, reason: `no ${stat} recorded in ${series.length} played games: the rate cannot be estimated` };
  }
  const recent = series.slice(-RECENT_GAMES);
  const last = series[series.length - 1] as SeriesPoint;
  return {
    ok: true,
    series,
    projection: {
      mean: projected,
      rate,
      priorRate,
      priorShare: acc.priorShare(priorStrength),
      expectedExposure,
      exposure,
      sampleSize: series.length,
      recentForm: mean(recent.map((p) => p.value)),
      lookbackAverage: acc.totalValue / acc.n,
      exposureRecent: mean(recent.map((p) => p.exposure)),
      exposureLookback: acc.totalExposure / acc.n,
      lastGameDate: last.date,
      daysSinceLastGame: daysBetween(last.date, gameDate),
    },
  };
}

/**
 * Method-of-moments NB2 dispersion from the player's own residuals around the projected rate,
 * shrunk toward Poisson by sample size (an unfitted stat has no league variance to lean on).
 */
export function ownDispersion(series: readonly SeriesPoint[], rate: number): number {
  let sq = 0;
  let mu = 0;
  let mu2 = 0;
  for (const p of series) {
    const m = rate * p.exposure;
    sq += (p.value - m) ** 2;
    mu += m;
    mu2 += m * m;
  }
  if (!(mu2 > 0)) return 0;
  const raw = Math.max(0, (sq - mu) / mu2);
  return (raw * series.length) / (series.length + 10);
}
