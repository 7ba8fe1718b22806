import { BOOTSTRAP, seededRandom } from './model/resample.js';

/**
 * The one 95% interval of an ROI, wherever a record prints one (`propgrade record`, the record
 * routes, the desk and the report, `simulate`): a percentile bootstrap that resamples whole games,
 * because bets on one game share its box score (both sides of a line, a ladder of rungs, teammates)
 * and are not independent stakes. The per-stake normal interval the record used before treated
 * them as independent and came out narrower than the season's for the same entries.
 *
 * Games are taken in event-id order and each game's profit to the nano-unit, so the interval depends
 * on the games alone, never on the order a store or a list hands the rows over; the resampling is the back-test's (`clusterInterval`, the
 * same seeded generator, reps and percentiles), written over two arrays because a record reads it
 * on every request.
 */

/** One game's stakes: how many, and their summed profit in units. */
export interface GameStakes {
  n: number;
  profit: number;
}

/** Adds one settled stake to its game's running sums (`key`: the event id). */
export function addStake(games: Map<string, GameStakes>, key: string, profit: number): void {
  const g = games.get(key);
  if (g) {
    g.n += 1;
    g.profit += profit;
  } else games.set(key, { n: 1, profit });
}

/** ROI in percent of resampled totals; percentile 95% interval, null with fewer than two games. */
export function roiInterval(games: ReadonlyMap<string, GameStakes>, reps: number = BOOTSTRAP.reps, seed: number = BOOTSTRAP.seed): [number, number] | null {
  const keys = [...games.keys()].sort();
  const k = keys.length;
  if (k < 2) return null;
  const n = new Float64Array(k);
  const profit = new Float64Array(k);
  keys.forEach((key, i) => {
    const g = games.get(key) as GameStakes;
    n[i] = g.n;
    // To the nano-unit: the order a game's stakes were summed in cannot move a resampled total.
    profit[i] = Math.round(g.profit * 1e9) / 1e9;
  });
  const rnd = seededRandom(seed);
  const values: number[] = [];
  for (let r = 0; r < reps; r++) {
    let sn = 0;
    let sp = 0;
    for (let i = 0; i < k; i++) {
      const j = Math.floor(rnd() * k);
      sn += n[j] as number;
      sp += profit[j] as number;
    }
    if (sn > 0) values.push((100 * sp) / sn);
  }
  if (values.length < reps / 2) return null;
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.floor(q * values.length)))] as number;
  return [at(0.025), at(0.975)];
}
