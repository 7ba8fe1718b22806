import { describe, expect, it } from 'vitest';
import { seasonRecord, type SeasonEntry } from '../../src/domain/season-record.js';

const e = (grade: string, outcome: string, lockedPrice: number | null, eventId: string, clvVerdict: string | null = null): SeasonEntry => ({ grade, outcome, lockedPrice, eventId, clvVerdict });

describe('seasonRecord', () => {
  it('counts per tier, prices ROI at the locked price and leaves voids and pendings out of the units', () => {
    const r = seasonRecord([
      e('A', 'hit', 150, 'g1', 'beat'), // +1.5
      e('A', 'miss', -110, 'g1', 'faded'), // -1
      e('A', 'push', -110, 'g2'), // 0
      e('A', 'void', -110, 'g2', 'flat'),
      e('B', 'hit', -200, 'g3'), // +0.5
      e('B', 'pending', -110, 'g3'),
    ]);
    expect(r.A).toMatchObject({ entries: 4, n: 3, hits: 1, misses: 1, pushes: 1, voids: 1, pending: 0, hitRate: 0.5, withClose: 3, beatCloseShare: 1 / 3 });
    expect(r.A?.roiPct.value).toBeCloseTo((100 * (1.5 - 1 + 0)) / 3, 10);
    expect(r.B).toMatchObject({ entries: 2, n: 1, hits: 1, pending: 1, hitRate: 1, withClose: 0, beatCloseShare: null });
    expect(r.B?.roiPct.value).toBeCloseTo(50, 10);
    expect(r.all).toMatchObject({ entries: 6, n: 4, hits: 2 });
    expect(r['A+']).toBeUndefined();
    const [lo, hi] = r.A!.roiPct.ci95!;
    expect(lo).toBeLessThanOrEqual(r.A!.roiPct.value!);
    expect(hi).toBeGreaterThanOrEqual(r.A!.roiPct.value!);
  });

  it('never prices a settled entry without a real locked price', () => {
    const r = seasonRecord([e('C', 'hit', null, 'g1'), e('C', 'miss', -110, 'g1')]);
    expect(r.C).toMatchObject({ entries: 2, n: 1, hits: 0, misses: 1, hitRate: 0 });
    expect(r.C?.roiPct.value).toBe(-100);
  });
});
