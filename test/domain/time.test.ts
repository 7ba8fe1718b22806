import { describe, expect, it } from 'vitest';
import { addDays, easternDate, easternDayRangeUtc, isIsoDate, isSameEasternDay, localDateTime } from '../../src/domain/time.js';
import { readCsv } from '../fixtures/ledger/real-ledger.js';

const at = (iso: string) => new Date(iso);

describe('easternDate', () => {
  it('puts late tips (04:xx UTC in EDT, up to 04:59 UTC in EST) on the previous Eastern day', () => {
    expect(easternDate(at('2025-06-04T03:59:59Z'))).toBe('2025-06-03'); // EDT, 23:59:59
    expect(easternDate(at('2025-06-04T04:00:00Z'))).toBe('2025-06-04'); // EDT midnight
    expect(easternDate(at('2025-11-22T04:59:59Z'))).toBe('2025-11-21'); // EST, 23:59:59
    expect(easternDate(at('2025-11-22T05:00:00Z'))).toBe('2025-11-22'); // EST midnight
  });

  it('dates every game on the real 2025-11-21 NBA odds file (tips 00:00Z to 03:10Z on the 22nd) as 2025-11-21', () => {
    const tips = new Set(readCsv('DERIVED-nba-props-flattened-2025-11-21.csv').map((r) => r.game_time ?? ''));
    expect([...tips].sort()).toEqual([
      '2025-11-22T00:00:00Z',
      '2025-11-22T00:40:00Z',
      '2025-11-22T01:10:00Z',
      '2025-11-22T01:40:00Z',
      '2025-11-22T02:10:00Z',
      '2025-11-22T02:40:00Z',
      '2025-11-22T03:10:00Z',
    ]);
    expect(new Set([...tips].map((t) => easternDate(at(t))))).toEqual(new Set(['2025-11-21']));
  });

  it('handles the fall-back hour of 2025-11-02 (01:00-02:00 happens twice)', () => {
    expect(easternDate(at('2025-11-02T03:59:59Z'))).toBe('2025-11-01');
    expect(easternDate(at('2025-11-02T04:00:00Z'))).toBe('2025-11-02'); // 00:00 EDT
    expect(easternDate(at('2025-11-02T05:30:00Z'))).toBe('2025-11-02'); // 01:30 EDT
    expect(easternDate(at('2025-11-02T06:30:00Z'))).toBe('2025-11-02'); // 01:30 EST, second time
    expect(easternDate(at('2025-11-03T04:59:59Z'))).toBe('2025-11-02'); // 23:59:59 EST
    expect(easternDate(at('2025-11-03T05:00:00Z'))).toBe('2025-11-03');
  });

  it('rejects an invalid Date instead of returning a made-up day', () => {
    expect(() => easternDate(new Date('not a date'))).toThrow(RangeError);
  });
});

describe('easternDayRangeUtc', () => {
  it('is 24 hours on an ordinary EST and EDT day', () => {
    expect(easternDayRangeUtc('2025-11-21')).toEqual(['2025-11-21T05:00:00.000Z', '2025-11-22T05:00:00.000Z']);
    expect(easternDayRangeUtc('2025-06-04')).toEqual(['2025-06-04T04:00:00.000Z', '2025-06-05T04:00:00.000Z']);
  });

  it('is 25 hours on the fall-back day 2025-11-02 and 23 on the spring-forward day 2025-03-09', () => {
    expect(easternDayRangeUtc('2025-11-02')).toEqual(['2025-11-02T04:00:00.000Z', '2025-11-03T05:00:00.000Z']);
    expect(easternDayRangeUtc('2025-11-01')).toEqual(['2025-11-01T04:00:00.000Z', '2025-11-02T04:00:00.000Z']);
    expect(easternDayRangeUtc('2025-03-09')).toEqual(['2025-03-09T05:00:00.000Z', '2025-03-10T04:00:00.000Z']);
  });

  it('agrees with easternDate at both edges of the half-open range', () => {
    for (const date of ['2025-03-08', '2025-03-09', '2025-03-10', '2025-11-01', '2025-11-02', '2025-11-03', '2024-02-29']) {
      const [start, end] = easternDayRangeUtc(date);
      expect(easternDate(at(start))).toBe(date);
      expect(easternDate(new Date(Date.parse(end) - 1))).toBe(date);
      expect(easternDate(at(end))).toBe(addDays(date, 1));
    }
  });
});

describe('addDays, isIsoDate, isSameEasternDay', () => {
  it('does calendar arithmetic across months, leap days and the DST switch', () => {
    expect(addDays('2025-11-02', -1)).toBe('2025-11-01');
    expect(addDays('2025-11-21', -29)).toBe('2025-10-23');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2025-03-09', 0)).toBe('2025-03-09');
  });

  it('rejects malformed dates and fractional days', () => {
    expect(() => addDays('2025-02-30', 1)).toThrow(RangeError);
    expect(() => addDays('2025-11-2', 1)).toThrow(RangeError);
    expect(() => addDays('2025-11-02', 0.5)).toThrow(RangeError);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2024-02-29')).toBe(true);
  });

  it('compares Eastern days, not UTC days', () => {
    expect(isSameEasternDay(at('2025-11-21T17:00:00Z'), at('2025-11-22T03:10:00Z'))).toBe(true);
    expect(isSameEasternDay(at('2025-11-22T03:10:00Z'), at('2025-11-22T05:00:00Z'))).toBe(false);
  });
});

describe('localDateTime', () => {
  it("names the year only when it is not the data clock's year (in the display zone)", () => {
    const dataNow = new Date('2025-11-05T17:05:00Z');
    expect(localDateTime('2021-11-13T17:37:00Z', 'America/New_York', dataNow)).toBe('Sat, Nov 13, 2021, 12:37 PM EST');
    expect(localDateTime('2025-11-05T17:05:00Z', 'America/New_York', dataNow)).toBe('Wed, Nov 5, 12:05 PM EST');
    // New Year's Eve in New York is still the old year, though UTC has turned.
    expect(localDateTime('2026-01-01T03:00:00Z', 'America/New_York', new Date('2025-12-31T12:00:00Z'))).toBe('Wed, Dec 31, 10:00 PM EST');
    expect(localDateTime('2021-11-13T17:37:00Z', 'America/New_York')).toBe('Sat, Nov 13, 12:37 PM EST');
  });
});
