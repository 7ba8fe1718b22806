import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareStanding, edgeNow, evNowPct, evPctAt, projectionAgrees, standingGrade } from '../../src/domain/claim.js';
import { gradeProp, type ModelParams } from '../../src/domain/model/index.js';
import { blendProbability } from '../../src/domain/model/pricing.js';
import { loadNbaGameLogsCsv } from '../../src/feeds/history/nba-gamelogs.js';

const american = fc.oneof(fc.integer({ min: 100, max: 3000 }), fc.integer({ min: -3000, max: -100 }));
const prob = fc.double({ min: 0.001, max: 0.999, noNaN: true });
const decimal = (a: number) => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);

const logs = loadNbaGameLogsCsv(readFileSync('test/fixtures/history/gamelogs-nop-excerpt.csv', 'utf8')).rows;
const herb = logs.filter((r) => r.playerName === 'Herbert Jones' && r.date < '2025-11-04');
const REB = { exposure: 'minutes', rateHalfLifeGames: 16, exposureHalfLifeGames: 3, priorRate: 0.18, priorStrength: 30, dispersion: { a: 1.5, b: 0 }, fitted: true } as const;

describe('a claim holds to its definition for any price (property)', () => {
  it('gradeProp: ev_pct = 100 x (p_win x decimal(the graded price) - 1), with and without a model weight', () => {
    for (const weight of [0, 0.25]) {
      const params: ModelParams = { fitBefore: '2025-10-21', nudgeWeights: { 'nba:rebounds': weight }, marketDispersionScale: 0.9, stats: { 'nba:rebounds': REB } };
      fc.assert(
        fc.property(american, prob, fc.constantFrom('over', 'under') as fc.Arbitrary<'over' | 'under'>, (bookOdds, fairProb, side) => {
          const out = gradeProp({ sport: 'nba', stat: 'rebounds', line: 4.5, side, history: herb, gameDate: '2025-11-04', market: { bookOdds, fairProb, fairSource: 'consensus', consensusBooks: 5, thinConsensus: false, gradedAtOutlier: false } }, params);
          if (out.insufficientData) return;
          expect(out.evPct).toBe(100 * (out.pWin * decimal(bookOdds) - 1));
          expect(out.evPct).toBe(evPctAt(out.pWin, bookOdds));
          // The EV now, by the same rule, at the same price and fair, is the claim itself.
          expect(evNowPct(out.grade, fairProb, bookOdds, { nudgeWeight: out.detail.nudgeWeight, pModel: out.detail.pModel })).toBeCloseTo(out.evPct, 9);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('evNowPct pools the current fair with the model exactly as the grade did', () => {
    fc.assert(
      fc.property(american, prob, prob, fc.double({ min: 0.01, max: 0.99, noNaN: true }), (odds, fair, pModel, w) => {
        expect(evNowPct('B', fair, odds, { nudgeWeight: 0, pModel })).toBe(100 * (fair * decimal(odds) - 1));
        expect(evNowPct('B', fair, odds, { nudgeWeight: w, pModel })).toBe(100 * (blendProbability(pModel, fair, w) * decimal(odds) - 1));
        expect(evNowPct(null, fair, odds, { nudgeWeight: 0, pModel })).toBeNull();
      }),
    );
  });
});

describe('edge now and a projection that contradicts the side', () => {
  it('holds at the letter\'s EV floor or above, reduced while still positive, gone at zero or below; C and F claim no edge', () => {
    expect(edgeNow('A', 2)).toBe('holds');
    expect(edgeNow('A', 1.9)).toBe('reduced');
    expect(edgeNow('A', 0)).toBe('gone');
    expect(edgeNow('A+', 4.9)).toBe('reduced');
    expect(edgeNow('B', 0)).toBe('holds');
    expect(edgeNow('B', -0.1)).toBe('gone');
    expect(edgeNow('C', 3)).toBeNull();
    expect(edgeNow('A', null)).toBeNull();
  });

  it('projection_agrees is false only when the projection sits strictly on the other side of the line', () => {
    expect(projectionAgrees(5.3, 9.5, 'over')).toBe(false); // Ben Sheppard points over 9.5, projection 5.3
    expect(projectionAgrees(3.0, 2.5, 'under')).toBe(false); // Jalen Brunson rebounds under 2.5, projection 3.0
    expect(projectionAgrees(10.2, 9.5, 'over')).toBe(true);
    expect(projectionAgrees(2.5, 2.5, 'under')).toBeNull();
    expect(projectionAgrees(null, 2.5, 'under')).toBeNull();
  });
});

describe('the claim as it stands (slate order)', () => {
  it('the locked letter while the edge holds; the lower of it and the band of EV now once reduced or gone', () => {
    expect(standingGrade('A+', 6, 'holds')).toBe('A+');
    expect(standingGrade('A+', 3, 'reduced')).toBe('A');
    expect(standingGrade('A+', -5.2, 'gone')).toBe('F');
    expect(standingGrade('A', -0.5, 'gone')).toBe('C');
    expect(standingGrade('C', 8, null)).toBe('C');
    expect(standingGrade(null, 3, null)).toBeNull();
  });

  it('a gone A+ sorts below an honest C; within a letter, EV now leads', () => {
    const rows = [
      { name: 'gone A+', grade: 'A+', evPct: 7.3, evNowPct: -5.2, edgeNow: 'gone' as const },
      { name: 'C', grade: 'C', evPct: -1, evNowPct: -1, edgeNow: null },
      { name: 'A holds', grade: 'A', evPct: 2.5, evNowPct: 2.1, edgeNow: 'holds' as const },
      { name: 'A+ reduced to A', grade: 'A+', evPct: 6, evNowPct: 4, edgeNow: 'reduced' as const },
      { name: 'none', grade: null, evPct: null, evNowPct: null, edgeNow: null },
    ];
    expect(rows.sort(compareStanding).map((r) => r.name)).toEqual(['A+ reduced to A', 'A holds', 'C', 'gone A+', 'none']);
  });
});
