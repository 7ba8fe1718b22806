import { describe, expect, it } from 'vitest';
import { clusterInterval, seededRandom, type Sums } from '../../src/domain/model/resample.js';
import { addStake, roiInterval, type GameStakes } from '../../src/domain/roi-interval.js';

/**
 * The one ROI interval (docs/ledger.md "Intervals"): the back-test's game bootstrap, taken over the
 * games in event-id order, so it is the same whatever order the stakes are read in.
 */
function games(stakes: Array<[string, number]>): Map<string, GameStakes> {
  const out = new Map<string, GameStakes>();
  for (const [game, profit] of stakes) addStake(out, game, profit);
  return out;
}

// 60 stakes on 17 games at real American prices (-110 wins 0.909, +150 wins 1.5), seeded.
const rand = seededRandom(41);
const STAKES: Array<[string, number]> = Array.from({ length: 60 }, () => [`e${Math.floor(rand() * 17)}`, rand() < 0.48 ? (rand() < 0.5 ? 100 / 110 : 1.5) : -1]);

describe('roiInterval', () => {
  it('is the back-test cluster bootstrap over the games in event-id order (each game to the nano-unit), to the bit', () => {
    const g = games(STAKES);
    const ordered = [...g.keys()].sort().map((k) => ({ n: g.get(k)!.n, profit: Math.round(g.get(k)!.profit * 1e9) / 1e9 }) as Sums);
    const roi = (s: Sums) => ((s['n'] ?? 0) > 0 ? (100 * (s['profit'] ?? 0)) / (s['n'] as number) : null);
    expect(roiInterval(g)).toEqual(clusterInterval(ordered, roi));
  });

  it('does not depend on the order the stakes come in', () => {
    const shuffled = [...STAKES].reverse();
    expect(roiInterval(games(shuffled))).toEqual(roiInterval(games(STAKES)));
  });

  it('holds the ROI of all the stakes, and is wider than stakes taken one by one would say when games move together', () => {
    const g = games(STAKES);
    const roi = (100 * STAKES.reduce((s, [, p]) => s + p, 0)) / STAKES.length;
    const [lo, hi] = roiInterval(g)!;
    expect(lo).toBeLessThan(roi);
    expect(hi).toBeGreaterThan(roi);
    // Both sides of one line on every game: each game returns the same, the resampled ROI never moves.
    const paired = games(Array.from({ length: 20 }, (_, i): Array<[string, number]> => [[`g${i}`, 100 / 110], [`g${i}`, -1]]).flat());
    const [a, b] = roiInterval(paired)!;
    expect(a).toBeCloseTo(b, 12);
  });

  it('has no interval over fewer than two games', () => {
    expect(roiInterval(games([['e1', 1.5], ['e1', -1]]))).toBeNull();
    expect(roiInterval(new Map())).toBeNull();
  });
});
