import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inningsNotation, outsFromInnings } from '../../src/domain/innings.js';

/**
 * Innings notation (src/domain/innings.ts), the one reading the box-score adapter and the game-log
 * importer share: the digit after the point counts outs, so "6.2" is 20 outs and "6.3" is nothing.
 */
describe('outsFromInnings', () => {
  it('reads the notation as outs recorded, as box scores and game logs write it', () => {
    expect(outsFromInnings('6.2')).toBe(20);
    expect(outsFromInnings('5.2')).toBe(17);
    expect(outsFromInnings('0.1')).toBe(1);
    expect(outsFromInnings('0.0')).toBe(0);
    expect(outsFromInnings('7')).toBe(21);
    expect(outsFromInnings(' 4.1 ')).toBe(13);
    // statsapi's number form is read by its one-decimal text.
    expect(outsFromInnings(5.2)).toBe(17);
    expect(outsFromInnings(7)).toBe(21);
  });

  it('refuses what is not the notation: a third digit, garbage, blanks, other types', () => {
    for (const v of ['6.3', '5.9', '6.33', '-.--', '', ' ', '.2', '6.', '-1.0', '6,2', 'six', '1e2', '6.2x', 6.3, -1, Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, ['6.2'], true]) {
      expect(outsFromInnings(v), String(v)).toBeNull();
    }
  });

  it('outs -> notation -> outs round-trips for every whole number of outs', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), (outs) => {
        const text = inningsNotation(outs);
        expect(text).toMatch(/^\d+\.[0-2]$/);
        expect(outsFromInnings(text)).toBe(outs);
      }),
    );
  });

  it('notation -> outs -> notation round-trips for every valid notation', () => {
    fc.assert(
      fc.property(fc.nat({ max: 100_000 }), fc.constantFrom('0', '1', '2'), (whole, part) => {
        const outs = outsFromInnings(`${whole}.${part}`);
        expect(outs).toBe(whole * 3 + Number(part));
        expect(inningsNotation(outs as number)).toBe(`${whole}.${part}`);
      }),
    );
  });

  it('any text whose digit after the point is 3 to 9 is no notation', () => {
    fc.assert(fc.property(fc.nat({ max: 100_000 }), fc.integer({ min: 3, max: 9 }), (whole, part) => outsFromInnings(`${whole}.${part}`) === null));
  });

  it('inningsNotation refuses a negative or fractional count', () => {
    expect(inningsNotation(-1)).toBeNull();
    expect(inningsNotation(1.5)).toBeNull();
    expect(inningsNotation(Number.NaN)).toBeNull();
  });
});
