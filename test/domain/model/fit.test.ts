import { describe, expect, it } from 'vitest';
import { countDistribution, pmf } from '../../../src/domain/model/distributions.js';
import { fitBlendWeight, fitDispersion, nelderMead, type Prediction } from '../../../src/domain/model/fit.js';

/** Outcomes in exact proportion to a known NB law, so the likelihood maximum is known. */
function expectedSample(mean: number, variance: number, scale: number): Prediction[] {
  const d = countDistribution(mean, variance);
  const out: Prediction[] = [];
  for (let k = 0; k <= 80; k++) {
    const copies = Math.round(pmf(d, k) * scale);
    for (let i = 0; i < copies; i++) out.push({ mean, y: k });
  }
  return out;
}

describe('fitting', () => {
  it('nelderMead finds the minimum of a tilted quadratic bowl', () => {
    const [x, y] = nelderMead((p) => ((p[0] ?? 0) - 1.7) ** 2 + 3 * ((p[1] ?? 0) + 0.4) ** 2 + (p[0] ?? 0) * (p[1] ?? 0), [[0, 0], [1, 0], [0, 1]], 500, 1e-14);
    // Gradient zero: 2x + y = 3.4 and x + 6y = -2.4, so x = 22.8/11 and y = -8.2/11.
    expect(x).toBeCloseTo(22.8 / 11, 4);
    expect(y).toBeCloseTo(-8.2 / 11, 4);
  });

  it('dispersion recovers variance = 2 * mean from two means (NB1 shape)', () => {
    const preds = [...expectedSample(2, 4, 4000), ...expectedSample(8, 16, 4000)];
    const fit = fitDispersion(preds);
    expect(fit.dispersion.a).toBeCloseTo(2, 1);
    expect(fit.dispersion.b).toBeLessThan(0.01);
    expect(fit.meanLogLik).toBeGreaterThan(fit.poissonLogLik);
  });

  it('dispersion recovers variance = mean + 0.25 mean^2 (NB2 shape)', () => {
    const preds = [...expectedSample(2, 3, 4000), ...expectedSample(8, 24, 4000)];
    const fit = fitDispersion(preds);
    expect(fit.dispersion.a).toBeCloseTo(1, 1);
    expect(fit.dispersion.b).toBeCloseTo(0.25, 2);
  });

  it('blend weight: 0 when the model is noise, 1 when the market is', () => {
    // Outcomes follow pMarket exactly in frequency; the model says the opposite.
    const ex = [
      ...Array.from({ length: 60 }, () => ({ pModel: 0.4, pMarket: 0.6, y: 1 as const })),
      ...Array.from({ length: 40 }, () => ({ pModel: 0.4, pMarket: 0.6, y: 0 as const })),
    ];
    expect(fitBlendWeight(ex).weight).toBe(0);
    const flipped = ex.map((e) => ({ pModel: e.pMarket, pMarket: e.pModel, y: e.y }));
    const f = fitBlendWeight(flipped);
    expect(f.weight).toBe(1);
    expect(f.logLoss).toBeCloseTo(-(0.6 * Math.log(0.6) + 0.4 * Math.log(0.4)), 12);
  });
});
