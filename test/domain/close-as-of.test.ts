import { describe, expect, it } from 'vitest';
import { closeAsOf, type LedgerEntry } from '../../src/domain/ledger.js';

/** docs/ledger.md "As of a time": a close captured after the clock was not known then. */
type Close = Pick<
  LedgerEntry,
  'closingLine' | 'closingPrice' | 'closingFairProb' | 'closingBook' | 'closingCapturedAt' | 'closeLeadMinutes' | 'closingFairSource' | 'closeMethod' | 'closeBooks' | 'pinnacleClosingFairProb' | 'pinnacleCloseLeadMinutes' | 'pinnacleClv' | 'pinnacleClvPct' | 'pinnacleClvVerdict'
> & { id: number };

const captured = (at: string | null, pinnacle: boolean): Close => ({
  id: 7,
  closingLine: at === null ? null : 5.5,
  closingPrice: at === null ? null : -115,
  closingFairProb: at === null ? null : 0.52,
  closingBook: at === null ? null : 'draftkings',
  closingCapturedAt: at,
  closeLeadMinutes: at === null ? null : 12,
  closingFairSource: at === null ? null : 'consensus',
  closeMethod: at === null ? null : 'one_yardstick',
  closeBooks: at === null ? null : 'betmgm,fanduel',
  pinnacleClosingFairProb: pinnacle ? 0.53 : null,
  pinnacleCloseLeadMinutes: pinnacle ? 12 : null,
  pinnacleClv: pinnacle ? 0.01 : null,
  pinnacleClvPct: pinnacle ? 1.9 : null,
  pinnacleClvVerdict: pinnacle ? 'beat' : null,
});
const NOON = new Date('2025-06-13T12:00:00Z');

describe('closeAsOf', () => {
  it('keeps a close captured at or before the clock, and every close without a clock', () => {
    const e = captured('2025-06-13T12:00:00.000Z', true);
    expect(closeAsOf(e, NOON)).toBe(e);
    const later = captured('2025-06-13T22:36:27.000Z', true);
    expect(closeAsOf(later, null)).toBe(later);
  });

  it('leaves out a close captured after the clock, Pinnacle with it, and keeps the rest of the entry', () => {
    const out = closeAsOf(captured('2025-06-13T22:36:27.000Z', true), NOON);
    expect(out).toEqual({ ...captured(null, false), id: 7 });
  });

  it('leaves out a Pinnacle close with no capture time of its own (not known when), and keeps an entry with no close as it is', () => {
    expect(closeAsOf(captured(null, true), NOON)).toEqual(captured(null, false));
    const none = captured(null, false);
    expect(closeAsOf(none, NOON)).toBe(none);
  });
});
