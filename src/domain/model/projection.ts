import type { PlayerGameStat } from '../entities.js';
import type { StatType } from '../stats.js';
import type { Exposure, StatParams } from './params.js';
import { HISTORY_RULES } from './params.js';
import { soccerExpectedMinutes, type SoccerMinutes } from './soccer-projection.js';

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

/** Date.parse of yyyy-mm-dd at 00:00Z, memoised: a slate or a back-test reads the same few hundred dates over and over. */
const dayMs = new Map<string, number>();
function midnightMs(iso: string): number {
  let t = dayMs.get(iso);
  if (t === undefined) {
    t = Date.parse(`${iso}T00:00:00Z`);
    if (dayMs.size > 100_000) dayMs.clear();
    dayMs.set(iso, t);
  }
  return t;
}

const shifted = new Map<string, string>();
function addDays(iso: string, days: number): string {
  const key = `${iso}|${days}`;
  let out = shifted.get(key);
  if (out === undefined) {
    out = new Date(midnightMs(iso) + days * 86_400_000).toISOString().slice(0, 10);
    if (shifted.size > 100_000) shifted.clear();
    shifted.set(key, out);
  }
  return out;
}

function daysBetween(fromIso: string, toIso: string): number {
  return Math.round((midnightMs(toIso) - midnightMs(fromIso)) / 86_400_000);
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
  lookbackDays: number = HISTORY_RULES.lookbackDays,
): { series: SeriesPoint[]; exposure: Exposure } {
  // yyyy-mm-dd strings order like dates, so the window test is two string compares per row.
  const earliest = addDays(gameDate, -lookbackDays);
  const series: SeriesPoint[] = [];
  let effective: Exposure = exposure;
  if (exposure === 'plate_appearances' || exposure === 'batters_faced') {
    // Batters faced per START: a pitcher's relief outings (is_starter 0) would drag the expected
    // workload of the start being graded down, so they are left out; a row without the flag stays.
    const inWindow = history.filter(
      (r) => r.date >= earliest && r.date < gameDate && typeof r.stats[stat] === 'number' && !(exposure === 'batters_faced' && r.extras['is_starter'] === 0),
    );
    effective = inWindow.every((r) => exposureOf(r, exposure) !== null) ? exposure : 'game';
    for (const r of inWindow) {
      const e = exposureOf(r, effective);
      const v = r.stats[stat];
      if (e === null || typeof v !== 'number') continue;
      series.push({ date: r.date, value: v, exposure: e });
    }
  } else {
    // One pass: the window, a real stat and a real exposure (the same rows the two-step filter keeps).
    for (const r of history) {
      if (r.date < earliest || r.date >= gameDate) continue;
      const v = r.stats[stat];
      if (typeof v !== 'number') continue;
      const e = exposureOf(r, exposure);
      if (e === null) continue;
      series.push({ date: r.date, value: v, exposure: e });
    }
  }
  sortByDate(series);
  return { series, exposure: effective };
}

/**
 * Sorts oldest first as a stable sort by date would: history usually arrives newest first (the
 * store's order) or oldest first, so a strictly descending series is reversed and an ascending one
 * kept; anything else (ties out of order) goes through the sort itself.
 */
function sortByDate(series: SeriesPoint[]): void {
  let ascending = true;
  let strictlyDescending = true;
  for (let i = 1; i < series.length; i++) {
    const a = (series[i - 1] as SeriesPoint).date;
    const b = (series[i] as SeriesPoint).date;
    if (a > b) ascending = false;
    if (!(a > b)) strictlyDescending = false;
    if (!ascending && !strictlyDescending) break;
  }
  if (ascending) return;
  if (strictlyDescending) {
    series.reverse();
    return;
  }
  series.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
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
  /** Soccer: the start/substitute minutes behind expectedExposure (soccer-projection.ts). */
  soccerMinutes?: SoccerMinutes;
}

export type ProjectionResult = { ok: true; projection: Projection; series: SeriesPoint[] } | { ok: false; reason: string };

const RECENT_GAMES = 5;

export function projectStat(
  history: readonly PlayerGameStat[],
  stat: StatType,
  params: StatParams,
  gameDate: string,
): ProjectionResult {
  const lookbackDays = params.lookbackDays ?? HISTORY_RULES.lookbackDays;
  const { series, exposure } = buildSeries(history, stat, params.exposure, gameDate, lookbackDays);
  const minGames = params.fitted ? HISTORY_RULES.minPlayedGames : HISTORY_RULES.minPlayedGamesUnfitted;
  if (series.length < minGames) {
    return {
      ok: false,
      reason: `only ${series.length} played game(s) with ${stat} in the last ${lookbackDays} days (need ${minGames})`,
    };
  }
  const acc = new RateAccumulator(params.rateHalfLifeGames, params.exposureHalfLifeGames);
  for (const p of series) acc.add(p.value, p.exposure);
  const ownRate = acc.totalExposure > 0 ? acc.totalValue / acc.totalExposure : 0;
  const priorRate = params.priorRate ?? ownRate;
  const priorStrength =
    params.priorRate === null ? HISTORY_RULES.selfPriorGames * (acc.totalExposure / acc.n) : params.priorStrength;
  const rate = acc.rate(priorRate, priorStrength);
  // Soccer: the minutes of his next appearance as a starter or a substitute, not one blended spread.
  const soccerMinutes =
    history[0]?.sport === 'soccer' && exposure === 'minutes'
      ? soccerExpectedMinutes(history, stat, addDays(gameDate, -lookbackDays), gameDate, params.exposureHalfLifeGames)
      : null;
  const expectedExposure = soccerMinutes?.expected ?? acc.expectedExposure();
  const projected = rate * expectedExposure;
  if (!(projected > 0)) {
    return { ok: false, reason: `no ${stat} recorded in ${series.length} played games: the rate cannot be estimated` };
  }
  const from = Math.max(0, series.length - RECENT_GAMES);
  let recentValue = 0;
  let recentExposure = 0;
  for (let i = from; i < series.length; i++) recentValue += (series[i] as SeriesPoint).value;
  for (let i = from; i < series.length; i++) recentExposure += (series[i] as SeriesPoint).exposure;
  const recentN = series.length - from;
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
      // mean() of the last RECENT_GAMES values and exposures: the same sums, in the same order.
      recentForm: recentN === 0 ? 0 : recentValue / recentN,
      lookbackAverage: acc.totalValue / acc.n,
      exposureRecent: recentN === 0 ? 0 : recentExposure / recentN,
      exposureLookback: acc.totalExposure / acc.n,
      lastGameDate: last.date,
      daysSinceLastGame: daysBetween(last.date, gameDate),
      ...(soccerMinutes ? { soccerMinutes } : {}),
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
