import type { PlayerGameStat } from '../entities.js';
import type { StatType } from '../stats.js';
import { countDistribution, logPmf } from './distributions.js';
import { impliedMean } from './market.js';
import { HISTORY_RULES, type Dispersion, type StatParams } from './params.js';
import { blendProbability } from './pricing.js';
import { RateAccumulator, exposureOf } from './projection.js';

/**
 * Fitting on training data only. Each training example is a real player-game predicted from that
 * player's earlier games (the same RateAccumulator gradeProp uses), so every fitted number is an
 * out-of-sample choice. The caller passes only rows dated before the cut-off.
 */

export const FIT_GRID = {
  exposureHalfLives: [1, 2, 3, 4, 6, 8, 12, 16, 24],
  rateHalfLives: [4, 8, 12, 16, 24, 32, 48, 64, 128],
  priorStrengths: [0, 30, 60, 120, 240, 480, 960],
} as const;

interface Game {
  value: number;
  minutes: number;
}

/** Played games (minutes > 0) with the stat, per player, oldest first. */
export function trainingSeries(rows: readonly PlayerGameStat[], stat: StatType): Game[][] {
  const byPlayer = new Map<string, { date: string; g: Game }[]>();
  for (const r of rows) {
    const v = r.stats[stat];
    const m = exposureOf(r, 'minutes');
    if (typeof v !== 'number' || m === null) continue;
    let list = byPlayer.get(r.playerKey);
    if (!list) byPlayer.set(r.playerKey, (list = []));
    list.push({ date: r.date, g: { value: v, minutes: m } });
  }
  return [...byPlayer.values()].map((list) => list.sort((a, b) => (a.date < b.date ? -1 : 1)).map((x) => x.g));
}

export function leagueRate(series: readonly Game[][]): number {
  let v = 0;
  let m = 0;
  for (const games of series)
    for (const g of games) {
      v += g.value;
      m += g.minutes;
    }
  return m > 0 ? v / m : 0;
}

/** Expected-minutes half-life with the smallest squared error on the next game's minutes. */
export function fitExposureHalfLife(series: readonly Game[][]): { halfLife: number; mse: number; n: number } {
  let best = { halfLife: FIT_GRID.exposureHalfLives[0] as number, mse: Infinity, n: 0 };
  for (const h of FIT_GRID.exposureHalfLives) {
    let se = 0;
    let n = 0;
    for (const games of series) {
      const acc = new RateAccumulator(1, h);
      for (const g of games) {
        if (acc.n >= HISTORY_RULES.minPlayedGames) {
          se += (g.minutes - acc.expectedExposure()) ** 2;
          n++;
        }
        acc.add(g.value, g.minutes);
      }
    }
    const mse = se / n;
    if (mse < best.mse) best = { halfLife: h, mse, n };
  }
  return best;
}

export interface Prediction {
  mean: number;
  y: number;
}

/** One-step-ahead means for every gradeable training game under the given projection parameters. */
export function predictSeries(series: readonly Game[][], p: Pick<StatParams, 'rateHalfLifeGames' | 'exposureHalfLifeGames' | 'priorStrength'> & { priorRate: number }): Prediction[] {
  const out: Prediction[] = [];
  for (const games of series) {
    const acc = new RateAccumulator(p.rateHalfLifeGames, p.exposureHalfLifeGames);
    for (const g of games) {
      if (acc.n >= HISTORY_RULES.minPlayedGames) {
        const mean = acc.rate(p.priorRate, p.priorStrength) * acc.expectedExposure();
        if (mean > 0) out.push({ mean, y: g.value });
      }
      acc.add(g.value, g.minutes);
    }
  }
  return out;
}

function mse(preds: readonly Prediction[]): number {
  let s = 0;
  for (const p of preds) s += (p.y - p.mean) ** 2;
  return s / preds.length;
}

export function meanLogLik(preds: readonly Prediction[], d: Dispersion): number {
  let s = 0;
  for (const p of preds) s += logPmf(countDistribution(p.mean, d.a * p.mean + d.b * p.mean * p.mean), p.y);
  return s / preds.length;
}

/**
 * NB variance function a*mu + b*mu^2 by maximum likelihood: a Nelder-Mead simplex on (a, b) with
 * a >= 0.3 and b >= 0 (a and b trade off along a ridge, which coordinate-wise search crawls along).
 */
export function fitDispersion(preds: readonly Prediction[]): { dispersion: Dispersion; meanLogLik: number; poissonLogLik: number } {
  const clamp = ([a, b]: number[]): [number, number] => [Math.max(0.3, a ?? 1), Math.max(0, b ?? 0)];
  const f = (x: number[]): number => {
    const [a, b] = clamp(x);
    return -meanLogLik(preds, { a, b });
  };
  const best = clamp(nelderMead(f, [[1, 0], [2, 0], [1, 0.1]], 300, 1e-11));
  const dispersion = { a: round(best[0], 4), b: round(best[1], 5) };
  return { dispersion, meanLogLik: meanLogLik(preds, dispersion), poissonLogLik: meanLogLik(preds, { a: 1, b: 0 }) };
}

/** Minimises f from a starting simplex (standard reflection/expansion/contraction/shrink). */
export function nelderMead(f: (x: number[]) => number, start: number[][], maxIter: number, tol: number): number[] {
  let pts = start.map((x) => ({ x, v: f(x) }));
  const dim = start[0]?.length ?? 0;
  for (let it = 0; it < maxIter; it++) {
    pts.sort((p, q) => p.v - q.v);
    const bestP = pts[0] as { x: number[]; v: number };
    const worst = pts[pts.length - 1] as { x: number[]; v: number };
    const second = pts[pts.length - 2] as { x: number[]; v: number };
    if (Math.abs(worst.v - bestP.v) < tol) break;
    const centroid = Array.from({ length: dim }, (_, i) => pts.slice(0, -1).reduce((s, p) => s + (p.x[i] ?? 0), 0) / (pts.length - 1));
    const along = (t: number): number[] => centroid.map((c, i) => c + t * ((worst.x[i] ?? 0) - c));
    const refl = along(-1);
    const vr = f(refl);
    if (vr < bestP.v) {
      const exp = along(-2);
      const ve = f(exp);
      pts[pts.length - 1] = ve < vr ? { x: exp, v: ve } : { x: refl, v: vr };
    } else if (vr < second.v) {
      pts[pts.length - 1] = { x: refl, v: vr };
    } else {
      const con = vr < worst.v ? along(-0.5) : along(0.5);
      const vc = f(con);
      if (vc < Math.min(vr, worst.v)) pts[pts.length - 1] = { x: con, v: vc };
      else pts = pts.map((p, i) => (i === 0 ? p : { x: p.x.map((xi, j) => (bestP.x[j] ?? 0) + 0.5 * (xi - (bestP.x[j] ?? 0))), v: NaN })).map((p) => (Number.isNaN(p.v) ? { x: p.x, v: f(p.x) } : p));
    }
  }
  pts.sort((p, q) => p.v - q.v);
  return (pts[0] as { x: number[] }).x;
}

export interface StatFit {
  params: StatParams;
  diagnostics: { trainingGames: number; mse: number; meanLogLik: number; poissonLogLik: number };
}

/** Fits one basketball stat: league prior rate, rate half-life and prior strength by MSE, then dispersion by likelihood. */
export function fitStat(rows: readonly PlayerGameStat[], stat: StatType, exposureHalfLifeGames: number): StatFit | null {
  const series = trainingSeries(rows, stat);
  const priorRate = leagueRate(series);
  if (!(priorRate > 0)) return null;
  let best: { h: number; k: number; mse: number; preds: Prediction[] } | null = null;
  for (const h of FIT_GRID.rateHalfLives) {
    for (const k of FIT_GRID.priorStrengths) {
      const preds = predictSeries(series, { rateHalfLifeGames: h, exposureHalfLifeGames, priorStrength: k, priorRate });
      if (preds.length === 0) continue;
      const e = mse(preds);
      if (best === null || e < best.mse) best = { h, k, mse: e, preds };
    }
  }
  if (best === null) return null;
  const disp = fitDispersion(best.preds);
  return {
    params: {
      exposure: 'minutes',
      rateHalfLifeGames: best.h,
      exposureHalfLifeGames,
      priorRate: round(priorRate, 6),
      priorStrength: best.k,
      dispersion: disp.dispersion,
      fitted: true,
    },
    diagnostics: { trainingGames: best.preds.length, mse: best.mse, meanLogLik: disp.meanLogLik, poissonLogLik: disp.poissonLogLik },
  };
}

export interface BlendExample {
  pModel: number;
  pMarket: number;
  /** 1 when the side won. */
  y: 0 | 1;
}

/** Model weight in the logit blend with the market that minimises training log loss (grid of 0.01). */
export function fitBlendWeight(examples: readonly BlendExample[]): { weight: number; logLoss: number; marketLogLoss: number; modelLogLoss: number } {
  const ll = (w: number): number => {
    let s = 0;
    for (const e of examples) {
      const p = blendProbability(e.pModel, e.pMarket, w);
      s -= e.y === 1 ? Math.log(p) : Math.log(1 - p);
    }
    return s / examples.length;
  };
  let best = { weight: 0, logLoss: ll(0) };
  for (let i = 1; i <= 100; i++) {
    const w = i / 100;
    const l = ll(w);
    if (l < best.logLoss) best = { weight: w, logLoss: l };
  }
  return { ...best, marketLogLoss: ll(0), modelLogLoss: ll(1) };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export interface MarketDispersionExample {
  line: number;
  /** All books' consensus P(over) at the line. */
  pOver: number;
  actual: number;
  dispersion: Dispersion;
}

/**
 * The factor s on the variance function that best explains real outcomes around the mean the
 * market implies (solved at the consensus with the scaled law), by likelihood over a grid of 0.02.
 */
export function fitMarketDispersionScale(examples: readonly MarketDispersionExample[]): { scale: number; meanLogLik: number; unscaledLogLik: number; n: number } | null {
  const ll = (s: number): number | null => {
    let sum = 0;
    let n = 0;
    for (const e of examples) {
      const d = { a: e.dispersion.a * s, b: e.dispersion.b * s };
      const mu = impliedMean(e.line, e.pOver, d);
      if (mu === null) continue;
      sum += logPmf(countDistribution(mu, d.a * mu + d.b * mu * mu), e.actual);
      n += 1;
    }
    return n > 0 ? sum / n : null;
  };
  let best: { scale: number; meanLogLik: number } | null = null;
  for (let i = 10; i <= 75; i++) {
    const s = i / 50;
    const v = ll(s);
    if (v !== null && (best === null || v > best.meanLogLik)) best = { scale: s, meanLogLik: v };
  }
  const base = ll(1);
  return best && base !== null ? { ...best, unscaledLogLik: base, n: examples.length } : null;
}
