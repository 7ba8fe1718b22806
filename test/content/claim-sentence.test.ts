import { describe, expect, it } from 'vitest';
import { Brief } from '../../src/content/document.js';
import type { ClaimedRow } from '../../src/domain/facts.js';
import { nowSentence, projectionText, readSentence } from '../../src/content/templates/common.js';

/**
 * The branches of a claim sentence the bundled day does not reach: an edge reduced now, a claim
 * made the day before, a row whose lock is not in the store, a projection on the line. The row is
 * the bundled Kelly Oubre Jr threes over (graded 10:05 ET at -117 betrivers against 57.83%).
 */
function row(extra: Partial<ClaimedRow> = {}): ClaimedRow {
  return {
    id: 7,
    sport: 'nba',
    eventId: 'ev',
    commenceTime: '2025-11-06T00:00:00Z',
    homeTeam: 'Cleveland Cavaliers',
    awayTeam: 'Philadelphia 76ers',
    player: 'Kelly Oubre Jr',
    playerKey: 'kelly oubre jr',
    gradeUncapped: 'A+',
    capReason: null,
    team: 'PHI',
    opponent: 'CLE',
    statType: 'threes',
    line: 1.5,
    side: 'over',
    grade: 'A+',
    projection: 2.2,
    book: 'draftkings',
    bookOdds: -143,
    fairOdds: -126,
    consensusBooks: 7,
    thinConsensus: false,
    outlierPrice: false,
    fairSource: 'consensus',
    isMainLine: true,
    archetype: null,
    previousLine: null,
    lineDelta: null,
    lineDirection: null,
    sampleSize: 7,
    evPct: 7.26,
    takenAt: '2025-11-05T17:05:00.000Z',
    gradedAt: '2025-11-05T15:05:00.000Z',
    lockedBook: 'betrivers',
    lockedOdds: -117,
    lockedFairProb: 0.578303877440982,
    lockedFairOdds: -137.1,
    lockedConsensusBooks: 6,
    lockedFairSource: 'consensus',
    lockId: 61,
    evNowPct: -5.2,
    edgeNow: 'gone',
    projectionAgrees: true,
    ...extra,
  };
}

describe('a claim sentence', () => {
  it('marks a capped letter and says what its EV would earn and why', () => {
    const text = readSentence(new Brief(), 'r', row({ grade: 'B', gradeUncapped: 'A+', capReason: 'thin_consensus' }));
    expect(text.startsWith('B* Kelly Oubre Jr (PHI) over 1.5')).toBe(true);
    expect(text).toContain('(B* = capped: the EV would earn A+; thin consensus (fewer than 3 other books at the line))');
    expect(readSentence(new Brief(), 'r', row()).startsWith('A+ Kelly')).toBe(true);
  });

  it('quotes the lock, then the market now as now with what it does to the edge', () => {
    const brief = new Brief();
    expect(readSentence(brief, 'r', row())).toBe(
      'A+ Kelly Oubre Jr (PHI) over 1.5 3-pointers made at -117 (betrivers), graded 10:05 AM ET against a fair price of -137 from 6 other books; projection 2.2 3-pointers made. ' +
        'At 12:05 PM ET the best price is -143 (draftkings) against a fair price of -126: the claimed edge is gone at that price',
    );
    const price = brief.figures.find((f) => f.key === 'r.price');
    expect(price).toMatchObject({ value: -117, display: '-117', source: { table: 'grade_locks', ids: [61] } });
    expect(brief.figures.find((f) => f.key === 'r.price_now')).toMatchObject({ value: -143, source: { table: 'graded_rows', ids: [7] } });
  });

  it('says a smaller edge, and says "still" when the price has not moved since an earlier board', () => {
    expect(nowSentence(new Brief(), 'r', row({ evNowPct: 1.1, edgeNow: 'reduced' }))).toMatch(/: at that price the edge is smaller than the grade claimed$/);
    expect(nowSentence(new Brief(), 'r', row({ book: 'betrivers', bookOdds: -117, edgeNow: 'holds' }))).toBe('At 12:05 PM ET the best price is still -117 (betrivers) against a fair price of -126: the claimed edge still holds at that price');
    // The board that made the claim at the price it still shows: nothing to add.
    expect(nowSentence(new Brief(), 'r', row({ book: 'betrivers', bookOdds: -117, gradedAt: '2025-11-05T17:05:00Z' }))).toBeNull();
  });

  it('a claim made on an earlier ET day says its day; a row without a stored lock names its graded row as the source', () => {
    const brief = new Brief();
    expect(readSentence(brief, 'r', row({ gradedAt: '2025-11-05T03:05:00Z', lockId: null }))).toContain('graded 10:05 PM ET Nov 4 against');
    expect(brief.figures.find((f) => f.key === 'r.price')?.source).toMatchObject({ table: 'graded_rows', ids: [7] });
  });

  it('a projection on the other side is said to point the other way; one on the line is plain', () => {
    expect(projectionText(new Brief(), 'r', row({ projection: 1.2, projectionAgrees: false }))).toBe('; the projection of 1.2 3-pointers made lies on the under side, so the grade rests on the price alone');
    // The stat's own unit: a rebounds projection is never "3.0 points".
    expect(projectionText(new Brief(), 'r', row({ statType: 'rebounds', side: 'under', projection: 3.0, projectionAgrees: false }))).toBe('; the projection of 3.0 rebounds lies on the over side, so the grade rests on the price alone');
    expect(projectionText(new Brief(), 'r', row({ projection: 1.5, projectionAgrees: null }))).toBe('; projection 1.5 3-pointers made');
  });
});
