import type { StatParams } from './params.js';

/**
 * Output of `propgrade backtest --sport wnba` (fitParams on ESPN WNBA box scores dated before
 * 2024-01-01 and the 2023 morning props): the five stats the WNBA props cover, each back-tested on
 * the held-out 2024 props (docs/model.md §6, "WNBA"). Blocks and steals have no WNBA props in the
 * data, so they were never back-tested and keep the structural parameters (capped at B). Every stat
 * looks back 365 days (the WNBA off-season, October to May, is longer than the NBA's 240 days cover).
 */
const wnba = (rateHalfLifeGames: number, priorRate: number, a: number): StatParams => ({
  exposure: 'minutes',
  rateHalfLifeGames,
  exposureHalfLifeGames: 2,
  priorRate,
  priorStrength: 30,
  dispersion: { a, b: 0 },
  fitted: true,
  lookbackDays: 365,
});

export const WNBA_FITTED_STATS: Readonly<Record<string, StatParams>> = {
  'wnba:points': wnba(12, 0.4046, 4.063),
  'wnba:rebounds': wnba(16, 0.1716, 1.5313),
  'wnba:assists': wnba(16, 0.0966, 1.2781),
  'wnba:threes': wnba(16, 0.0367, 1.2429),
  'wnba:pra': wnba(12, 0.6728, 4.0222),
};

/**
 * No WNBA market passes the held-out gate (docs/model.md §3, "The held-out gate"), so every one is
 * priced by the market alone. Rebounds was the candidate: the 2023 training fit gave it full weight
 * (log loss 0.6894 -> 0.6665), but on held-out 2024 its gain was 0.0087 with a 95% interval of
 * -0.0367 .. +0.0177 (it contains 0), and the A/A+ it created beat the close ~10 min before tip
 * 33.6% (A+) and 40.6% (A) of the time over the 2024 season simulation.
 */
export const WNBA_NUDGE_WEIGHTS: Readonly<Record<string, number>> = {};
