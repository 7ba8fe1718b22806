import { describe, expect, it } from 'vitest';
import { MIN_SAMPLE, gateRate, wilsonInterval } from '../../src/domain/record-gate.js';

describe('gateRate', () => {
  it('below n = 20 shows counts and a building state, never a percentage', () => {
    expect(MIN_SAMPLE).toBe(20);
    expect(gateRate(7, 12)).toEqual({ n: 12, successes: 7, pct: null, ci95: null, state: 'building', label: '12 of 20' });
    expect(gateRate(0, 0)).toEqual({ n: 0, successes: 0, pct: null, ci95: null, state: 'building', label: '0 of 20' });
    expect(gateRate(19, 19).pct).toBeNull();
  });

  it('at n = 20 and above gives the percentage and a Wilson 95% interval', () => {
    const r = gateRate(11, 20);
    expect(r.state).toBe('ok');
    expect(r.pct).toBe(55);
    // Wilson score interval, z = 1.959964: 11/20 -> [34.2085%, 74.1802%]
    expect(r.ci95?.[0]).toBeCloseTo(34.208534245, 6);
    expect(r.ci95?.[1]).toBeCloseTo(74.180214174, 6);
    expect(r.label).toBe('55.0% (11 of 20)');
  });

  it('keeps the interval inside [0, 100] at the edges', () => {
    expect(gateRate(0, 20).ci95).toEqual([0, expect.closeTo(16.112515805, 6)]);
    expect(gateRate(20, 20).ci95).toEqual([expect.closeTo(83.887484195, 6), 100]);
  });

  it('on a large real sample (NBA all-markets main lines: 10,605 scored, 47.55% overs)', () => {
    // history/NOTES.md baseline table: n 10,605, over hit rate 47.55% -> 5,043 overs.
    const r = gateRate(5043, 10605);
    expect(r.pct).toBeCloseTo(47.553, 3);
    const [lo, hi] = r.ci95 ?? [0, 0];
    expect(hi - lo).toBeLessThan(2);
    expect(lo).toBeLessThan(47.553);
    expect(hi).toBeGreaterThan(47.553);
  });

  it('rejects impossible counts', () => {
    expect(() => gateRate(21, 20)).toThrow(RangeError);
    expect(() => gateRate(-1, 20)).toThrow(RangeError);
    expect(() => gateRate(1.5, 20)).toThrow(RangeError);
    expect(() => gateRate(1, Number.NaN)).toThrow(RangeError);
  });
});

describe('wilsonInterval', () => {
  it('matches the closed form on a binomial sample', () => {
    const [lo, hi] = wilsonInterval(520, 1000);
    expect(lo).toBeCloseTo(0.4890177246575191, 12);
    expect(hi).toBeCloseTo(0.5508292050030589, 12);
  });

  it('needs n > 0', () => {
    expect(() => wilsonInterval(0, 0)).toThrow(RangeError);
  });
});
