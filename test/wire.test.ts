import { describe, expect, it } from 'vitest';
import { toWire, wireKey } from '../src/wire.js';

describe('the wire style: one serializer for CLI --json and HTTP', () => {
  it('turns camelCase identifiers into snake_case, keeps gradedAt and leaves names and tiers alone', () => {
    expect(wireKey('lockedPrice')).toBe('locked_price');
    expect(wireKey('pWin')).toBe('p_win');
    expect(wireKey('gradedAt')).toBe('gradedAt');
    expect(wireKey('A+')).toBe('A+');
    expect(wireKey('nba:points')).toBe('nba:points');
    expect(wireKey('Jalen Brunson')).toBe('Jalen Brunson');
    expect(wireKey('already_snake')).toBe('already_snake');
  });

  it('rounds at the edge by what a number is, and never leaves float noise', () => {
    const out = toWire({
      pWin: 0.548712345,
      fairOdds: -121.4999,
      bookOdds: -110,
      evPct: 3.04999,
      roiPct: { value: -4.4172, ci95: [-4.711, -4.1349] },
      projection: 27.456,
      line: 0.1 + 0.2,
      total: 148.39999999999998,
      overround: 0.0476190476190476,
      nested: [{ hitRate: 0.55371 }],
      price: { value: -120.4, raw: '-120', confidence: 0.7234 },
    });
    expect(out).toEqual({
      p_win: 0.5487,
      fair_odds: -121,
      book_odds: -110,
      ev_pct: 3,
      roi_pct: { value: -4.4, ci95: [-4.7, -4.1] },
      projection: 27.46,
      line: 0.3,
      total: 148.4,
      overround: 0.047619,
      nested: [{ hit_rate: 0.5537 }],
      // Only carrier keys (value, ci95) inherit the parent's rounding; confidence is a probability.
      price: { value: -120, raw: '-120', confidence: 0.7234 },
    });
  });

  it('keeps nulls, drops undefined, and turns dates into ISO strings', () => {
    expect(toWire({ a: null, b: undefined, at: new Date('2025-11-05T17:05:00Z') })).toEqual({ a: null, at: '2025-11-05T17:05:00.000Z' });
  });
});
