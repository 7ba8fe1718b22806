import type { PlayerGameStat } from '../entities.js';
import type { StatType } from '../stats.js';
import { FIT_GRID, fitDispersion, fitExposureHalfLife, leagueRate, predictSeries, type Prediction, type StatFit } from './fit.js';

/**
 * Pitcher strikeouts and outs: the same fit as a basketball stat, with batters faced as the exposure
 * and starts only (the projection's series: src/domain/model/projection.ts). Each training start is
 * predicted from the pitcher's earlier starts, so every fitted number is an out-of-sample choice.
 * The caller passes only rows dated before the cut-off.
 */

interface Start {
  value: number;
  /** Batters faced (the fit's exposure unit; `minutes` is fit.ts's name for it). */
  minutes: number;
}

/** MLB pitcher stats fitted per batter faced. */
export type PitcherStat = Extract<StatType, 'strikeouts' | 'pitcher_outs'>;

/** Starts with the real stat and batters faced, per pitcher, oldest first (relief outings left out). */
export function pitcherSeries(rows: readonly PlayerGameStat[], stat: PitcherStat): Start[][] {
  type Dated = { date: string; gameId: string | null; s: Start };
  const byPitcher = new Map<string, Dated[]>();
  for (const r of rows) {
    if (r.sport !== 'mlb' || r.extras['is_starter'] !== 1) continue;
    const k = r.stats[stat];
    const bf = r.extras['batters_faced'];
    if (typeof k !== 'number' || typeof bf !== 'number' || !(bf > 0)) continue;
    let list = byPitcher.get(r.playerKey);
    if (!list) byPitcher.set(r.playerKey, (list = []));
    list.push({ date: r.date, gameId: r.gameId ?? null, s: { value: k, minutes: bf } });
  }
  // Same-day starts (a doubleheader) by game id; a start without one first, as before.
  const byGame = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
  const order = (a: Dated, b: Dated) => (a.date < b.date ? -1 : a.date > b.date ? 1 : byGame(a.gameId, b.gameId) || 1);
  return [...byPitcher.keys()].sort().map((k) => (byPitcher.get(k) as Dated[]).sort(order).map((x) => x.s));
}

export const strikeoutSeries = (rows: readonly PlayerGameStat[]): Start[][] => pitcherSeries(rows, 'strikeouts');

const mse = (preds: readonly Prediction[]) => preds.reduce((s, p) => s + (p.y - p.mean) ** 2, 0) / preds.length;

type PitcherFit = StatFit & { exposureHalfLife: { halfLife: number; mse: number; n: number } };

/** Fits MLB strikeouts: exposure half-life, league K per batter faced, rate half-life and prior strength by MSE, dispersion by likelihood. */
export function fitStrikeouts(rows: readonly PlayerGameStat[]): PitcherFit | null {
  return fitPitcherStat(rows, 'strikeouts');
}

/** The same fit for a pitcher stat: outs per batter faced (issue 43) as strikeouts per batter faced. */
export function fitPitcherStat(rows: readonly PlayerGameStat[], stat: PitcherStat): PitcherFit | null {
  const series = pitcherSeries(rows, stat);
  const priorRate = leagueRate(series);
  if (!(priorRate > 0)) return null;
  const exposure = fitExposureHalfLife(series);
  let best: { h: number; k: number; mse: number; preds: Prediction[] } | null = null;
  for (const h of FIT_GRID.rateHalfLives) {
    for (const k of FIT_GRID.priorStrengths) {
      const preds = predictSeries(series, { rateHalfLifeGames: h, exposureHalfLifeGames: exposure.halfLife, priorStrength: k, priorRate });
      if (preds.length === 0) continue;
      const e = mse(preds);
      if (best === null || e < best.mse) best = { h, k, mse: e, preds };
    }
  }
  if (best === null) return null;
  const disp = fitDispersion(best.preds);
  return {
    exposureHalfLife: exposure,
    params: {
      exposure: 'batters_faced',
      rateHalfLifeGames: best.h,
      exposureHalfLifeGames: exposure.halfLife,
      priorRate: Math.round(priorRate * 1e6) / 1e6,
      priorStrength: best.k,
      dispersion: disp.dispersion,
      fitted: true,
    },
    diagnostics: { trainingGames: best.preds.length, mse: best.mse, meanLogLik: disp.meanLogLik, poissonLogLik: disp.poissonLogLik },
  };
}
