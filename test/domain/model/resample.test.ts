import { describe, expect, it } from 'vitest';
import { clusterInterval, olsSlope, olsSums, seededRandom, totalOf } from '../../../src/domain/model/resample.js';

describe('cluster bootstrap', () => {
  it('is deterministic for a seed and brackets the point estimate', () => {
    const clusters = Array.from({ length: 40 }, (_, i) => ({ n: 1 + (i % 3), p: (i % 5) - 2 }));
    const mean = (s: Record<string, number>) => (s['p'] ?? 0) / (s['n'] ?? 1);
    const a = clusterInterval(clusters, mean, 500, 7);
    const b = clusterInterval(clusters, mean, 500, 7);
    expect(a).toEqual(b);
    const point = mean(totalOf(clusters));
    expect(a![0]).toBeLessThanOrEqual(point);
    expect(a![1]).toBeGreaterThanOrEqual(point);
    expect(clusterInterval([{ n: 1 }], mean)).toBeNull();
  });

  it('seededRandom stays in [0, 1)', () => {
    const rnd = seededRandom(1);
    for (let i = 0; i < 1000; i++) {
      const x = rnd();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});

describe('OLS slope from sums', () => {
  it('recovers y = 2x + 1 and refuses a constant x', () => {
    const s = totalOf([0, 1, 2, 3].map((x) => olsSums(x, 2 * x + 1)));
    expect(olsSlope(s)).toBeCloseTo(2, 12);
    expect(olsSlope(totalOf([olsSums(1, 0), olsSums(1, 1)]))).toBeNull();
  });
});
