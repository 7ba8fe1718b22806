import { describe, expect, it } from 'vitest';
import { capLegend, formatEvPct, GRADE_RULES, gradeFor, isTakeable, letterForEv, printedEvPct } from '../../../src/domain/model/grading.js';
import { blendProbability } from '../../../src/domain/model/pricing.js';

const full = { fairSource: 'consensus', thinConsensus: false, gradedAtOutlier: false, fitted: true } as const;

describe('grade letters from EV against the market', () => {
  it('maps EV to letters at the documented floors', () => {
    expect(GRADE_RULES.evFloor).toEqual({ 'A+': 5, A: 2, B: 0, C: -4 });
    expect(letterForEv(5)).toBe('A+');
    expect(letterForEv(4.94)).toBe('A');
    expect(letterForEv(2)).toBe('A');
    expect(letterForEv(1.94)).toBe('B');
    expect(letterForEv(0)).toBe('B');
    expect(letterForEv(-0.05)).toBe('C');
    expect(letterForEv(-4)).toBe('C');
    expect(letterForEv(-4.06)).toBe('F');
    expect(gradeFor({ ...full, evPct: 9 })).toEqual({ grade: 'A+', gradeUncapped: 'A+', capReason: null });
  });

  it('bands the EV as printed (one decimal), so a printed EV and its letter always agree', () => {
    // What the issue saw: "+5.0%" printed as A, "-4.0%" as F, "0.0%" as C.
    for (const [ev, printed, letter] of [
      [4.996, '+5.0%', 'A+'],
      [4.95, '+5.0%', 'A+'],
      [1.96, '+2.0%', 'A'],
      [-0.04, '+0.0%', 'B'],
      [-0.001, '+0.0%', 'B'],
      [-4.04, '-4.0%', 'C'],
      [-4.0001, '-4.0%', 'C'],
      [-4.06, '-4.1%', 'F'],
    ] as const) {
      expect(formatEvPct(ev)).toBe(printed);
      expect(letterForEv(ev)).toBe(letter);
      // The band of the printed number is the band of the EV.
      expect(letterForEv(Number.parseFloat(printed))).toBe(letter);
    }
    expect(printedEvPct(-0.04)).toBe(0);
    expect(Object.is(printedEvPct(-0.04), -0)).toBe(false);
  });

  it('caps a row by how well the market backs its fair probability, and says which cap and what the EV earns', () => {
    expect(gradeFor({ ...full, evPct: 9, thinConsensus: true })).toEqual({ grade: 'B', gradeUncapped: 'A+', capReason: 'thin_consensus' });
    expect(gradeFor({ ...full, evPct: 9, fairSource: 'market_implied' })).toEqual({ grade: 'B', gradeUncapped: 'A+', capReason: 'alternate_rung' });
    expect(gradeFor({ ...full, evPct: 9, fairSource: 'book' })).toEqual({ grade: 'C', gradeUncapped: 'A+', capReason: 'own_book_only' });
    expect(gradeFor({ ...full, evPct: 3, gradedAtOutlier: true })).toEqual({ grade: 'C', gradeUncapped: 'A', capReason: 'outlier_price' });
    expect(gradeFor({ ...full, evPct: 9, fitted: false })).toEqual({ grade: 'B', gradeUncapped: 'A+', capReason: 'not_backtested' });
    // The tightest cap is the reason: an outlier (C) on a thin line (B) is capped for the outlier.
    expect(gradeFor({ ...full, evPct: 9, thinConsensus: true, gradedAtOutlier: true })).toEqual({ grade: 'C', gradeUncapped: 'A+', capReason: 'outlier_price' });
    // A cap that does not bind is no reason: a B on a thin line earns B anyway.
    expect(gradeFor({ ...full, evPct: 1, thinConsensus: true })).toEqual({ grade: 'B', gradeUncapped: 'B', capReason: null });
    // A cap never lifts a letter.
    expect(gradeFor({ ...full, evPct: -5, fitted: false })).toEqual({ grade: 'F', gradeUncapped: 'F', capReason: null });
    expect(gradeFor({ ...full, evPct: -5, fairSource: 'book' })).toEqual({ grade: 'F', gradeUncapped: 'F', capReason: null });
    expect(capLegend('A+', 'thin_consensus')).toBe('capped: the EV would earn A+; thin consensus (fewer than 3 other books at the line)');
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
