import { describe, expect, it } from 'vitest';
import { settledElsewhere } from '../../src/domain/record-elsewhere.js';
import { accuracyByTier, modelAggregate, recordWindow, tierCalibration } from '../../src/domain/records.js';
import { settleEntry, type LedgerEntry } from '../../src/domain/settlement.js';
import { realNbaCases } from '../fixtures/ledger/real-ledger.js';

/** The real 2025-11-21 slate, settled against the real game logs; entries without a real result stay pending. */
const realRows: LedgerEntry[] = realNbaCases().map(({ entry, result }) => {
  if (result === null) return entry;
  const s = settleEntry(entry, result);
  if (s.outcome === 'pending') return entry;
  return { ...entry, outcome: s.outcome, actualValue: 'actualValue' in s ? s.actualValue : null };
});
const decided = realRows.filter((r) => r.outcome === 'hit' || r.outcome === 'miss');
const overs = decided.filter((r) => r.side === 'over');

const nowAfterSlate = new Date('2025-11-22T16:00:00Z');

/** A row shaped like the real ones with the fields a records test varies. */
function row(overrides: Partial<LedgerEntry>): LedgerEntry {
  const template = realRows[0];
  if (!template) throw new Error('no real rows');
  return { ...template, ...overrides };
}

describe('modelAggregate over the real settled 2025-11-21 slate', () => {
  const agg = modelAggregate(realRows, { now: nowAfterSlate });

  it('counts every outcome; both sides of every real prop make the record exactly 50%', () => {
    expect(agg.window).toEqual({ from: '2025-10-24', to: '2025-11-22' });
    expect(agg.counts.entries).toBe(realRows.length);
    expect(agg.counts.hits).toBe(agg.counts.misses);
    expect(agg.counts.hits + agg.counts.misses).toBe(decided.length);
    expect(agg.counts.pushes).toBe(0); // every line on the slate ends in .5
    expect(agg.counts.voids).toBeGreaterThan(0);
    expect(agg.counts.voids % 2).toBe(0);
    expect(agg.counts.pending).toBe(realRows.filter((r) => r.outcome === 'pending').length);
    expect(agg.counts.pending).toBeGreaterThan(0);
    expect(agg.hitRate.n).toBe(decided.length);
    expect(agg.hitRate.pct).toBe(50);
    const [lo, hi] = agg.hitRate.ci95 ?? [Number.NaN, Number.NaN];
    expect(50 - lo).toBeCloseTo(hi - 50, 9);
  });

  it('has no beat-close percentage without captured closes: n = 0, building', () => {
    expect(agg.beatClose).toMatchObject({ n: 0, pct: null, ci95: null, state: 'building', label: '0 of 20' });
  });

  it('scopes by team (case-insensitive), player (by normalised key), sport and date', () => {
    const cle = modelAggregate(realRows, { now: nowAfterSlate, team: 'cle' });
    expect(cle.counts.entries).toBe(realRows.filter((r) => r.team === 'CLE').length);
    expect(cle.counts.entries).toBeGreaterThan(0);
    const mitchell = modelAggregate(realRows, { now: nowAfterSlate, player: 'Donovan Mitchell' });
    expect(mitchell.counts.entries).toBe(realRows.filter((r) => r.player === 'Donovan Mitchell').length);
    expect(mitchell.counts.entries).toBeGreaterThan(0);
    expect(modelAggregate(realRows, { now: nowAfterSlate, sport: 'mlb' }).counts.entries).toBe(0);
    expect(modelAggregate(realRows, { now: nowAfterSlate, date: '2025-11-21' }).counts.entries).toBe(realRows.length);
    expect(modelAggregate(realRows, { now: nowAfterSlate, date: '2025-11-22' }).counts.entries).toBe(0);
  });

  it('counts only the public record (user_id null)', () => {
    const withScans = [...realRows, ...realRows.slice(0, 50).map((r) => ({ ...r, userId: 7 }))];
    expect(modelAggregate(withScans, { now: nowAfterSlate }).counts).toEqual(agg.counts);
  });
});

describe('record window edges in Eastern Time', () => {
  const entries = (now: string, days?: number) => modelAggregate(realRows, { now: new Date(now), days }).counts.entries;

  it('includes the slate on the first day of the window and excludes it the day after', () => {
    // now = 2025-12-20 ET: window 2025-11-21..2025-12-20, the slate date is its first day.
    expect(recordWindow(new Date('2025-12-20T17:00:00Z'), 30)).toEqual({ from: '2025-11-21', to: '2025-12-20' });
    expect(entries('2025-12-20T17:00:00Z')).toBe(realRows.length);
    // now = 2025-12-21 ET: window 2025-11-22..2025-12-21, the slate is the day before it.
    expect(entries('2025-12-21T17:00:00Z')).toBe(0);
  });

  it('uses the Eastern date of now: 04:59Z on the 21st is still the 20th in Eastern Time', () => {
    expect(entries('2025-12-21T04:59:59Z')).toBe(realRows.length);
    expect(entries('2025-12-21T05:00:00Z')).toBe(0);
  });

  it('excludes games after today and honours a 1-day window', () => {
    expect(entries('2025-11-20T23:00:00Z')).toBe(0);
    expect(entries('2025-11-22T04:00:00Z', 1)).toBe(realRows.length); // 23:00 ET on the 21st
    expect(entries('2025-11-22T05:00:00Z', 1)).toBe(0);
  });
});

describe('the n = 19 / n = 20 boundary', () => {
  it('hides the hit percentage at 19 decided entries and shows it at 20 (real overs)', () => {
    const nineteen = modelAggregate(overs.slice(0, 19), { now: nowAfterSlate }).hitRate;
    expect(nineteen).toMatchObject({ n: 19, pct: null, ci95: null, state: 'building', label: '19 of 20' });
    const twenty = modelAggregate(overs.slice(0, 20), { now: nowAfterSlate }).hitRate;
    const hits = overs.slice(0, 20).filter((r) => r.outcome === 'hit').length;
    expect(twenty).toMatchObject({ n: 20, successes: hits, state: 'ok', pct: (hits / 20) * 100 });
    expect(twenty.ci95).not.toBeNull();
  });

  it('pushes and voids never count toward n', () => {
    const nineteen = overs.slice(0, 19);
    const extra = [row({ id: 90001, outcome: 'push' }), row({ id: 90002, outcome: 'void' }), row({ id: 90003, outcome: 'pending' })];
    expect(modelAggregate([...nineteen, ...extra], { now: nowAfterSlate }).hitRate.pct).toBeNull();
  });

  it('gates the beat-close percentage the same way: beat / (beat + faded + flat)', () => {
    const verdicts = (n: number) =>
      Array.from({ length: n }, (_, i) => row({ id: 80000 + i, clvVerdict: i % 4 === 0 ? 'faded' : i % 4 === 1 ? 'flat' : 'beat' }));
    const nineteen = modelAggregate(verdicts(19), { now: nowAfterSlate });
    expect(nineteen.beatClose).toMatchObject({ n: 19, pct: null, state: 'building' });
    const twenty = modelAggregate([...verdicts(20), row({ id: 89999, clvVerdict: null })], { now: nowAfterSlate });
    expect(twenty.clv).toEqual({ beat: 10, faded: 5, flat: 5 });
    expect(twenty.beatClose).toMatchObject({ n: 20, successes: 10, pct: 50, state: 'ok' });
  });
});

describe('tierCalibration and accuracyByTier', () => {
  // Real decided outcomes, with grades and model probabilities assigned for the tier table.
  const graded = [
    ...overs.slice(0, 20).map((r) => ({ ...r, grade: 'A+', pWin: 0.62 })),
    ...overs.slice(20, 39).map((r) => ({ ...r, grade: 'A', pWin: 0.58 })),
    ...overs.slice(39, 44).map((r) => ({ ...r, grade: 'C', pWin: null })),
    row({ id: 70001, grade: 'C', outcome: 'push' }),
    row({ id: 70002, grade: 'F', outcome: 'hit' }),
  ];
  const hitsIn = (from: number, to: number) => overs.slice(from, to).filter((r) => r.outcome === 'hit').length;

  it('shows a tier percentage at n >= 20 and "n of 20" below, A+ A B C in that order', () => {
    const tiers = tierCalibration(graded, { now: nowAfterSlate });
    expect(tiers.map((t) => t.grade)).toEqual(['A+', 'A', 'B', 'C']);
    const [aPlus, a, b, c] = tiers;
    expect(aPlus?.hitRate).toMatchObject({ n: 20, state: 'ok', pct: (hitsIn(0, 20) / 20) * 100 });
    expect(a?.hitRate).toMatchObject({ n: 19, state: 'building', pct: null, label: '19 of 20' });
    expect(b?.hitRate).toMatchObject({ n: 0, state: 'building', label: '0 of 20' });
    expect(c?.counts).toMatchObject({ entries: 6, pushes: 1 });
    expect(c?.hitRate.label).toBe('5 of 20');
  });

  it('reports mean p_win against the actual rate on the same entries', () => {
    const [aPlus, a, b, c] = tierCalibration(graded, { now: nowAfterSlate });
    expect(aPlus?.calibration.n).toBe(20);
    expect(aPlus?.calibration.meanPWinPct).toBeCloseTo(62, 9);
    expect(aPlus?.calibration.actual.pct).toBe((hitsIn(0, 20) / 20) * 100);
    expect(a?.calibration.meanPWinPct).toBeCloseTo(58, 9);
    expect(a?.calibration.actual.pct).toBeNull();
    expect(b?.calibration).toMatchObject({ n: 0, meanPWinPct: null });
    expect(c?.calibration).toMatchObject({ n: 0, meanPWinPct: null }); // p_win absent: no prediction to show
  });

  it('reports learning below the minimum sample over a rolling 30 days', () => {
    const acc = accuracyByTier(graded, { now: nowAfterSlate, minSample: 25 });
    expect(acc.window).toEqual({ from: '2025-10-24', to: '2025-11-22' });
    expect(acc.tiers[0]).toMatchObject({ grade: 'A+', n: 20, state: 'learning', pct: null, label: '20 of 25' });
    const atGate = accuracyByTier(graded, { now: nowAfterSlate });
    expect(atGate.minSample).toBe(20);
    expect(atGate.tiers[0]).toMatchObject({ grade: 'A+', n: 20, state: 'ok', pct: (hitsIn(0, 20) / 20) * 100 });
    expect(atGate.tiers[1]).toMatchObject({ grade: 'A', state: 'learning', label: '19 of 20' });
    expect(accuracyByTier(graded, { now: new Date('2025-12-21T17:00:00Z') }).tiers[0]?.n).toBe(0);
  });

  it('refuses a minimum sample below the record gate', () => {
    expect(() => accuracyByTier(graded, { now: nowAfterSlate, minSample: 10 })).toThrow();
  });
});

describe('units at the locked price', () => {
  /** Profit of a winning 1-unit stake read from decimal odds (stake returned aside): an independent route from profitPerUnit. */
  const winProfit = (american: number) => (american > 0 ? 1 + american / 100 : 1 + 100 / -american) - 1;

  it('sums hits at their price, misses at -1, pushes at 0; voids, pending and unpriced entries are not stakes', () => {
    const rows = [
      row({ id: 60001, outcome: 'hit', lockedPrice: 150 }),
      row({ id: 60002, outcome: 'hit', lockedPrice: -200 }),
      row({ id: 60003, outcome: 'miss', lockedPrice: -110 }),
      row({ id: 60004, outcome: 'push', lockedPrice: -120 }),
      row({ id: 60005, outcome: 'void', lockedPrice: 200 }),
      row({ id: 60006, outcome: 'pending', lockedPrice: 200 }),
      row({ id: 60007, outcome: 'hit', lockedPrice: null }),
    ];
    const units = modelAggregate(rows, { now: nowAfterSlate }).units;
    expect(units).toMatchObject({ n: 4, roiPct: null, state: 'building', unpriced: 1 });
    expect(units.units).toBeCloseTo(1.5 + 0.5 - 1 + 0, 12);
  });

  it('has no units figure without a stake (n = 0), never a made-up 0', () => {
    const pending = realRows.filter((r) => r.outcome === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    expect(modelAggregate(pending, { now: nowAfterSlate }).units).toMatchObject({ n: 0, units: null, roiPct: null });
  });

  it('shows ROI % only at n >= 20, on the real decided overs at their real locked prices', () => {
    const expected = (rs: LedgerEntry[]) => rs.reduce((u, r) => u + (r.outcome === 'hit' ? winProfit(r.lockedPrice ?? Number.NaN) : -1), 0);
    const nineteen = modelAggregate(overs.slice(0, 19), { now: nowAfterSlate }).units;
    expect(nineteen.n).toBe(19);
    expect(nineteen.roiPct).toBeNull();
    expect(nineteen.units).toBeCloseTo(expected(overs.slice(0, 19)), 9);
    const all = modelAggregate(overs, { now: nowAfterSlate }).units;
    expect(all.n).toBe(overs.length);
    expect(all.units).toBeCloseTo(expected(overs), 9);
    expect(all.roiPct).toBeCloseTo((expected(overs) / overs.length) * 100, 9);
    expect(all.state).toBe('ok');
  });

  it('is reported per tier, and accuracy gates ROI at its own minimum sample', () => {
    const graded = [...overs.slice(0, 20).map((r) => ({ ...r, grade: 'A+' })), ...overs.slice(20, 25).map((r) => ({ ...r, grade: 'B' }))];
    const [aPlus, , b] = tierCalibration(graded, { now: nowAfterSlate });
    expect(aPlus?.units.n).toBe(20);
    expect(aPlus?.units.roiPct).not.toBeNull();
    expect(b?.units).toMatchObject({ n: 5, roiPct: null });
    const raised = accuracyByTier(graded, { now: nowAfterSlate, minSample: 21 });
    expect(raised.tiers[0]?.units).toMatchObject({ n: 20, roiPct: null, state: 'building' });
    expect(raised.tiers[0]?.units.units).toBeCloseTo(aPlus?.units.units ?? Number.NaN, 12);
    expect(accuracyByTier(graded, { now: nowAfterSlate }).tiers[0]?.units.roiPct).toBeCloseTo(aPlus?.units.roiPct ?? Number.NaN, 12);
  });
});

describe('settledElsewhere: where the record is when the window holds none', () => {
  const outside = { settled: 513, latestGameDate: '2025-11-05', latestSettledAt: '2025-11-06T12:00:00.000Z' };

  it('a window long after the data: the settle time as --now; --days only when it stays within the limit', () => {
    const late = recordWindow(new Date('2026-11-24T12:00:00Z'), 30);
    expect(settledElsewhere(late, 30, outside)).toEqual({ settled: 513, latestGameDate: '2025-11-05', tryNow: '2025-11-06T12:00:00.000Z', tryDays: null, tryDate: '2025-11-05' });
    const month = recordWindow(new Date('2025-12-20T12:00:00Z'), 30);
    // 2025-11-05..2025-12-20 inclusive is 46 days.
    expect(settledElsewhere(month, 30, outside)?.tryDays).toBe(46);
    expect(recordWindow(new Date('2025-12-20T12:00:00Z'), 46).from).toBe('2025-11-05');
  });

  it('a window before the data offers --now but no --days (a longer window reaches back, not forward)', () => {
    const early = recordWindow(new Date('2025-10-01T12:00:00Z'), 30);
    expect(settledElsewhere(early, 30, outside)).toMatchObject({ tryNow: '2025-11-06T12:00:00.000Z', tryDays: null });
  });

  it('drops a --now suggestion whose window would miss the date (settled long after the game)', () => {
    const w = recordWindow(new Date('2026-11-24T12:00:00Z'), 1);
    expect(settledElsewhere(w, 1, outside)?.tryNow).toBeNull(); // a 1-day window at 2025-11-06 is the 6th only
    expect(settledElsewhere(w, 2, outside)?.tryNow).toBe('2025-11-06T12:00:00.000Z');
  });

  it('is null when nothing is settled anywhere in scope', () => {
    expect(settledElsewhere(recordWindow(nowAfterSlate, 30), 30, { settled: 0, latestGameDate: null, latestSettledAt: null })).toBeNull();
  });
});
