import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cdf,
  countDistribution,
  type CountDistribution,
  distributionVariance,
  lineProbabilities,
  logGamma,
  logPmf,
  pmf,
  pmfTable,
} from '../../../src/domain/model/distributions.js';
import { conditionalWinProbability } from '../../../src/domain/model/pricing.js';

describe('count distributions', () => {
  it('Poisson pmf/cdf match the closed form e^-m m^k / k!', () => {
    const d = countDistribution(2.5, 2.5);
    expect(d.family).toBe('poisson');
    // e^-2.5 * 2.5^3 / 3! = 0.0820849986238988 * 15.625 / 6
    expect(pmf(d, 3)).toBeCloseTo((Math.exp(-2.5) * 15.625) / 6, 14);
    expect(pmf(d, 3)).toBeCloseTo(0.21376301724973645, 14);
    // P(X <= 2) = e^-2.5 (1 + 2.5 + 3.125)
    expect(cdf(d, 2)).toBeCloseTo(Math.exp(-2.5) * 6.625, 14);
    expect(logPmf(d, 3)).toBeCloseTo(Math.log(0.21376301724973645), 12);
  });

  it('NB with mean 2, variance 4 is r = 2, p = 1/2: pmf (k+1)/2^(k+2)', () => {
    const d = countDistribution(2, 4);
    expect(d).toEqual({ family: 'negbin', mean: 2, r: 2, p: 0.5 });
    expect(distributionVariance(d)).toBe(4);
    expect(pmf(d, 0)).toBeCloseTo(0.25, 15);
    expect(pmf(d, 1)).toBeCloseTo(0.25, 15);
    expect(pmf(d, 2)).toBeCloseTo(0.1875, 15);
    expect(pmf(d, 5)).toBeCloseTo(6 / 128, 15);
    expect(cdf(d, 2)).toBeCloseTo(0.6875, 15);
    expect(logPmf(d, 2)).toBeCloseTo(Math.log(0.1875), 12);
  });

  it('NB with non-integer size r matches the gamma-function pmf', () => {
    // variance 9 = 3 + 3^2 / r  ->  r = 1.5
    const e = countDistribution(3, 9);
    expect(e.family === 'negbin' && e.r).toBeCloseTo(1.5, 12);
    // C(k + r - 1, k) p^r (1-p)^k with p = 1.5/4.5 = 1/3, k = 2: (1.5 * 2.5 / 2) * (1/3)^1.5 * (2/3)^2
    expect(pmf(e, 2)).toBeCloseTo(((1.5 * 2.5) / 2) * Math.pow(1 / 3, 1.5) * (4 / 9), 14);
  });

  it('variance at or below the mean falls back to Poisson (no under-dispersed NB exists)', () => {
    expect(countDistribution(4, 3.2).family).toBe('poisson');
    expect(countDistribution(4, 4).family).toBe('poisson');
    expect(() => countDistribution(0, 1)).toThrow(RangeError);
  });

  it('logGamma is exact on integers and half-integers', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(logGamma(10.5)).toBeCloseTo(Math.log(1133278.3889487855), 10);
  });
});

describe('line probabilities and pushes', () => {
  const d = countDistribution(2, 4);

  it('a .5 line has no push: under = P(X <= 1), over = the rest', () => {
    const p = lineProbabilities(d, 1.5);
    expect(p.push).toBe(0);
    expect(p.under).toBeCloseTo(0.5, 15);
    expect(p.over).toBeCloseTo(0.5, 15);
  });

  it('a whole line pushes on X = line, and p_win is conditional on no push', () => {
    const p = lineProbabilities(d, 2);
    expect(p.under).toBeCloseTo(0.5, 15); // P(0) + P(1)
    expect(p.push).toBeCloseTo(0.1875, 15); // P(2)
    expect(p.over).toBeCloseTo(0.3125, 15);
    expect(conditionalWinProbability(p, 'over')).toBeCloseTo(0.3125 / 0.8125, 15);
    expect(conditionalWinProbability(p, 'under')).toBeCloseTo(0.5 / 0.8125, 15);
  });

  it('a zero line: under is impossible, push is P(0)', () => {
    const p = lineProbabilities(d, 0);
    expect(p.under).toBe(0);
    expect(p.push).toBeCloseTo(0.25, 15);
    expect(p.over).toBeCloseTo(0.75, 15);
  });
});

describe('lineProbabilities sums the pmf table, bit for bit', () => {
  // It sums pmfTable's terms as it makes them instead of building the table: the same terms in the
  // same order, so every probability is the same double (the snapshot's outputs are byte-identical).
  const fromTable = (d: CountDistribution, line: number) => {
    const whole = Number.isInteger(line);
    const below = whole ? line - 1 : Math.floor(line);
    const table = pmfTable(d, whole ? line : below);
    let under = 0;
    for (let k = 0; k <= below; k++) under += table[k] ?? 0;
    const push = whole ? (table[line] ?? 0) : 0;
    under = Math.min(1, under);
    return { under, push, over: Math.max(0, 1 - under - push) };
  };
  it('for random laws and lines, whole and half', () => {
    const law = fc.tuple(fc.double({ min: 0.05, max: 60, noNaN: true }), fc.double({ min: 0, max: 4, noNaN: true }));
    const line = fc.oneof(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 80 }).map((n) => n + 0.5));
    fc.assert(
      fc.property(law, line, ([mean, extra], l) => {
        const d = countDistribution(mean, mean + extra * mean * mean);
        expect(lineProbabilities(d, l)).toStrictEqual(fromTable(d, l));
      }),
      { numRuns: 5_000 },
    );
  });
});
