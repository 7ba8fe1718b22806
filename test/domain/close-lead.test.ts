import { describe, expect, it } from 'vitest';
import { beatCloseByLead, beatCloseCell, closeLeadBand, closeLeadMinutes, createLeadTally, leadText } from '../../src/domain/close-lead.js';

describe('closeLeadMinutes', () => {
  it('is the minutes from the capture to the start', () => {
    // The bundled NBA day: the 17:05 UTC snapshot and a 00:10 UTC tip the next day.
    expect(closeLeadMinutes('2025-11-05T17:05:00.000Z', '2025-11-06T00:10:00Z')).toBe(425);
    // A WNBA close stamped about ten minutes before tip, to the second.
    expect(closeLeadMinutes('2024-06-02T18:49:30Z', '2024-06-02T19:00:00Z')).toBe(10.5);
  });

  it('is null for a capture at or after the start, or a time that does not parse', () => {
    expect(closeLeadMinutes('2025-11-06T00:10:00Z', '2025-11-06T00:10:00Z')).toBeNull();
    expect(closeLeadMinutes('2025-11-06T00:11:00Z', '2025-11-06T00:10:00Z')).toBeNull();
    expect(closeLeadMinutes('not a time', '2025-11-06T00:10:00Z')).toBeNull();
    expect(closeLeadMinutes(null, '2025-11-06T00:10:00Z')).toBeNull();
  });
});

describe('closeLeadBand', () => {
  it('puts 30 minutes in the first band and 3 hours in the second', () => {
    expect(closeLeadBand(0.5)).toBe('within_30m');
    expect(closeLeadBand(30)).toBe('within_30m');
    expect(closeLeadBand(30.01)).toBe('30m_to_3h');
    expect(closeLeadBand(180)).toBe('30m_to_3h');
    expect(closeLeadBand(180.01)).toBe('over_3h');
    expect(closeLeadBand(425)).toBe('over_3h');
  });

  it('has no band without a lead', () => {
    expect(closeLeadBand(null)).toBeNull();
    expect(closeLeadBand(undefined)).toBeNull();
    expect(closeLeadBand(0)).toBeNull();
    expect(closeLeadBand(-5)).toBeNull();
    expect(closeLeadBand(Number.NaN)).toBeNull();
  });
});

describe('beat-close by lead band', () => {
  it('counts each verdict in its band and gates the percentage at n >= 20 per band', () => {
    const closes = [
      ...Array.from({ length: 20 }, (_, i) => ({ verdict: i < 5 ? 'beat' : i < 15 ? 'faded' : 'flat', leadMinutes: 10 })),
      ...Array.from({ length: 19 }, () => ({ verdict: 'beat', leadMinutes: 420 })),
      { verdict: null, leadMinutes: 60 }, // no verdict: not a close the rate counts
    ];
    const bands = beatCloseByLead(closes);
    expect(bands[0]).toMatchObject({ band: 'within_30m', n: 20, beat: 5, faded: 10, flat: 5, pct: 25 });
    expect(bands[0]?.ci95?.[0]).toBeLessThan(25);
    expect(bands[1]).toMatchObject({ band: '30m_to_3h', n: 0, pct: null, ci95: null });
    expect(bands[2]).toMatchObject({ band: 'over_3h', n: 19, beat: 19, pct: null, ci95: null });
    expect(bands.map(beatCloseCell)).toEqual([`25.0% (n=20) [${bands[0]!.ci95![0].toFixed(1)}–${bands[0]!.ci95![1].toFixed(1)}]`, '-', 'record building: 19 of 20 needed']);
  });

  it('counts a verdict whose close has no lead apart, never in a band', () => {
    const t = createLeadTally();
    t.add(null, 'beat');
    t.add('over_3h', 'faded');
    expect(t.unbanded()).toBe(1);
    expect(t.result().map((b) => b.n)).toEqual([0, 0, 1]);
  });
});

describe('leadText', () => {
  it('reads as minutes, then hours and minutes', () => {
    expect(leadText(10.5)).toBe('11 min');
    expect(leadText(425)).toBe('7 h 05 min');
    expect(leadText(null)).toBe('-');
  });
});
