import { describe, expect, it } from 'vitest';
import { seasonRecord, type SeasonEntry } from '../../src/domain/season-record.js';

const e = (grade: string, outcome: string, lockedPrice: number | null, eventId: string, clvVerdict: string | null = null, closeLeadMinutes: number | null = null, pWin: number | null = null): SeasonEntry => ({
  grade,
  outcome,
  lockedPrice,
  eventId,
  clvVerdict,
  closeLeadMinutes,
  pWin,
});

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

  it('splits beat-close by the lead band of each close and states what the tier claimed', () => {
    const r = seasonRecord([
      e('A', 'hit', 150, 'g1', 'beat', 10, 0.45), // within 30 min; EV 100 * (0.45 * 2.5 - 1) = +12.5%
      e('A', 'miss', -110, 'g1', 'faded', 30, 0.55), // 30 min is still within the first band; EV 100 * (0.55 * 1.90909 - 1) = +5%
      e('A', 'hit', -110, 'g2', 'beat', 30.5, null), // 30m_to_3h; no p_win: no claim
      e('A', 'miss', -110, 'g2', 'flat', 181, null), // over 3 h
      e('A', 'pending', -110, 'g3', 'beat', 400, 0.6), // a close counts whatever the result; a pending stake claims nothing yet
      e('A', 'void', -110, 'g3', null, null, 0.6),
    ]);
    const bands = r.A!.beatCloseByLead;
    expect(bands.map((b) => [b.band, b.n, b.beat, b.faded, b.flat, b.pct])).toEqual([
      ['within_30m', 2, 1, 1, 0, null],
      ['30m_to_3h', 1, 1, 0, 0, null],
      ['over_3h', 2, 1, 0, 1, null],
    ]);
    expect(r.A!.withClose).toBe(5);
    expect(r.A!.claimedEvN).toBe(2);
    expect(r.A!.claimedEvPct).toBeCloseTo((12.5 + 100 * (0.55 * (1 + 100 / 110) - 1)) / 2, 10);
  });

  it('never prices a settled entry without a real locked price', () => {
    const r = seasonRecord([e('C', 'hit', null, 'g1'), e('C', 'miss', -110, 'g1')]);
    expect(r.C).toMatchObject({ entries: 2, n: 1, hits: 0, misses: 1, hitRate: 0 });
    expect(r.C?.roiPct.value).toBe(-100);
  });
});
