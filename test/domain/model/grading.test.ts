import { describe, expect, it } from 'vitest';
import { GRADE_RULES, gradeFor, isTakeable } from '../../../src/domain/model/grading.js';
import { blendProbability, evPercent } from '../../../src/domain/model/pricing.js';

const strong = { pWin: 0.6, sampleSize: 20, hasMarketPair: true, fitted: true };

describe('grade thresholds', () => {
  it('sits on the documented EV floors, inclusive at each boundary', () => {
    expect(GRADE_RULES.evFloor).toEqual({ 'A+': 6, A: 3, B: 0, C: -4 });
    expect(gradeFor({ ...strong, evPct: 6 })).toBe('A+');
    expect(gradeFor({ ...strong, evPct: 5.999 })).toBe('A');
    expect(gradeFor({ ...strong, evPct: 3 })).toBe('A');
    expect(gradeFor({ ...strong, evPct: 2.999 })).toBe('B');
    expect(gradeFor({ ...strong, evPct: 0 })).toBe('B');
    expect(gradeFor({ ...strong, evPct: -0.001 })).toBe('C');
    expect(gradeFor({ ...strong, evPct: -4 })).toBe('C');
    expect(gradeFor({ ...strong, evPct: -4.001 })).toBe('F');
  });

  it('A+ needs 20 played games, A needs 10', () => {
    expect(gradeFor({ ...strong, evPct: 9, sampleSize: 19 })).toBe('A');
    expect(gradeFor({ ...strong, evPct: 9, sampleSize: 10 })).toBe('A');
    expect(gradeFor({ ...strong, evPct: 9, sampleSize: 9 })).toBe('B');
  });

  it('without a two-way market pair or fitted parameters the grade stops at B', () => {
    expect(gradeFor({ ...strong, evPct: 9, hasMarketPair: false })).toBe('B');
    expect(gradeFor({ ...strong, evPct: 9, fitted: false })).toBe('B');
    expect(gradeFor({ ...strong, evPct: -5, fitted: false })).toBe('F');
  });

  it('without a book price there is no EV and the grade stops at C', () => {
    expect(gradeFor({ ...strong, evPct: null, pWin: 0.9 })).toBe('C');
    expect(gradeFor({ ...strong, evPct: null, pWin: 0.49 })).toBe('F');
  });

  it('takeable needs +2% EV and 10 games; null without a price', () => {
    expect(isTakeable(2, 10)).toBe(true);
    expect(isTakeable(1.99, 30)).toBe(false);
    expect(isTakeable(5, 9)).toBe(false);
    expect(isTakeable(null, 30)).toBeNull();
  });
});

describe('pricing', () => {
  it('EV at -110: 55% wins 0.55 * 100/110 - 0.45 = +5.0%', () => {
    expect(evPercent(0.55, 0, -110)).toBeCloseTo(5, 12);
    expect(evPercent(0.5, 0, 100)).toBeCloseTo(0, 12);
    expect(evPercent(0.4, 0, 150)).toBeCloseTo(0, 12);
  });

  it('a push returns the stake: EV scales by P(no push)', () => {
    expect(evPercent(0.55, 0.2, -110)).toBeCloseTo(4, 12);
  });

  it('blend is a logit pool: weight 1 = model, 0 = market, 0.5 halves the log-odds', () => {
    expect(blendProbability(0.6, 0.45, 1)).toBeCloseTo(0.6, 12);
    expect(blendProbability(0.6, 0.45, 0)).toBeCloseTo(0.45, 12);
    // 0.5 * logit(0.6) + 0.5 * logit(0.5) = 0.5 * ln(1.5)
    expect(blendProbability(0.6, 0.5, 0.5)).toBeCloseTo(1 / (1 + Math.exp(-0.5 * Math.log(1.5))), 12);
  });
});
