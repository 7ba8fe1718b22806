import { describe, expect, it } from 'vitest';
import { GRADE_RULES, gradeFor, isTakeable, letterForEv } from '../../../src/domain/model/grading.js';
import { blendProbability } from '../../../src/domain/model/pricing.js';

const full = { fairSource: 'consensus', thinConsensus: false, gradedAtOutlier: false, fitted: true } as const;

describe('grade letters from EV against the market', () => {
  it('maps EV to letters at the documented floors', () => {
    expect(GRADE_RULES.evFloor).toEqual({ 'A+': 5, A: 2, B: 0, C: -4 });
    expect(letterForEv(5)).toBe('A+');
    expect(letterForEv(4.999)).toBe('A');
    expect(letterForEv(2)).toBe('A');
    expect(letterForEv(1.999)).toBe('B');
    expect(letterForEv(0)).toBe('B');
    expect(letterForEv(-0.001)).toBe('C');
    expect(letterForEv(-4)).toBe('C');
    expect(letterForEv(-4.001)).toBe('F');
    expect(gradeFor({ ...full, evPct: 9 })).toBe('A+');
  });

  it('caps a row by how well the market backs its fair probability', () => {
    expect(gradeFor({ ...full, evPct: 9, thinConsensus: true })).toBe('B');
    expect(gradeFor({ ...full, evPct: 9, fairSource: 'market_implied' })).toBe('B');
    expect(gradeFor({ ...full, evPct: 9, fairSource: 'book' })).toBe('C');
    expect(gradeFor({ ...full, evPct: 9, gradedAtOutlier: true })).toBe('C');
    expect(gradeFor({ ...full, evPct: 9, fitted: false })).toBe('B');
    // A cap never lifts a letter.
    expect(gradeFor({ ...full, evPct: -5, fitted: false })).toBe('F');
    expect(gradeFor({ ...full, evPct: -5, fairSource: 'book' })).toBe('F');
  });

  it('takeable means a backed claim of at least the A floor', () => {
    expect(isTakeable('A+')).toBe(true);
    expect(isTakeable('A')).toBe(true);
    expect(isTakeable('B')).toBe(false);
    expect(isTakeable('F')).toBe(false);
  });
});

describe('logit pool', () => {
  it('weight 0 is the market, 1 the model, and it is symmetric in the sides', () => {
    expect(blendProbability(0.7, 0.5, 0)).toBeCloseTo(0.5, 12);
    expect(blendProbability(0.7, 0.5, 1)).toBeCloseTo(0.7, 6);
    expect(blendProbability(0.7, 0.4, 0.3) + blendProbability(0.3, 0.6, 0.3)).toBeCloseTo(1, 12);
  });
});
