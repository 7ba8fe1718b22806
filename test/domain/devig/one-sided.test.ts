import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { devigDecimal } from '../../../src/domain/devig.js';
import { MARGIN_RANGE, NO_MARGIN, oneSidedFair, oneSidedFairAmerican, type OneSidedFamily } from '../../../src/domain/devig/one-sided.js';

const FAMILIES: readonly OneSidedFamily[] = ['power', 'odds_ratio', 'multiplicative'];
const decimalArb = fc.double({ min: 1.01, max: 501, noNaN: true });
const familyArb = fc.constantFrom(...FAMILIES);
/** A margin parameter inside the family's range at or above its no-margin value (a book with a margin). */
const marginArb = (f: OneSidedFamily) => fc.double({ min: NO_MARGIN[f], max: MARGIN_RANGE[f][1], noNaN: true });

describe('one-sided de-vig', () => {
  it('gives a probability in (0, 1) for every real price and fitted-range margin', () => {
    fc.assert(
      fc.property(familyArb.chain((f) => fc.tuple(fc.constant(f), decimalArb, fc.double({ min: MARGIN_RANGE[f][0], max: MARGIN_RANGE[f][1], noNaN: true }))), ([f, d, m]) => {
        const p = oneSidedFair(1 / d, f, m);
        expect(p).not.toBeNull();
        expect(p as number).toBeGreaterThan(0);
        expect(p as number).toBeLessThan(1);
      }),
    );
  });

  it('falls as the price rises (a longer price is a less likely side)', () => {
    fc.assert(
      fc.property(familyArb.chain((f) => fc.tuple(fc.constant(f), decimalArb, decimalArb, marginArb(f))), ([f, d1, d2, m]) => {
        fc.pre(d1 !== d2);
        const [lo, hi] = d1 < d2 ? [d1, d2] : [d2, d1];
        expect(oneSidedFair(1 / hi, f, m) as number).toBeLessThanOrEqual(oneSidedFair(1 / lo, f, m) as number);
      }),
    );
  });

  it('removes vig: with a margin the fair sits at or below the implied probability', () => {
    fc.assert(
      fc.property(familyArb.chain((f) => fc.tuple(fc.constant(f), decimalArb, marginArb(f))), ([f, d, m]) => {
        expect(oneSidedFair(1 / d, f, m) as number).toBeLessThanOrEqual(1 / d + 1e-15);
      }),
    );
  });

  it('reduces to the ordinary de-vig when the margin is 0: a fair two-way book', () => {
    // A book whose two sides sum to exactly 1 has no margin; every de-vig leaves it as priced.
    fc.assert(
      fc.property(familyArb, fc.double({ min: 0.01, max: 0.99, noNaN: true }), (f, r) => {
        const book = devigDecimal([1 / r, 1 / (1 - r)], 'power');
        expect(book.ok).toBe(true);
        const two = book.ok ? (book.probs[0] as number) : Number.NaN;
        expect(oneSidedFair(r, f, NO_MARGIN[f]) as number).toBeCloseTo(two, 9);
        expect(oneSidedFair(r, f, NO_MARGIN[f]) as number).toBeCloseTo(r, 12);
      }),
    );
  });

  it('refuses what is not a price or not a margin of the family, instead of inventing a number', () => {
    expect(oneSidedFair(0, 'power', 1.4)).toBeNull();
    expect(oneSidedFair(1, 'power', 1.4)).toBeNull();
    expect(oneSidedFair(0.4, 'multiplicative', 0.9)).toBeNull();
    expect(oneSidedFair(0.4, 'power', Number.NaN)).toBeNull();
    expect(oneSidedFairAmerican(50, 'power', 1.4)).toBeNull();
    // Saka anytime at Neds, 2025-11-01 (shared EPL file): 2.50 = +150, fitted power 1.411 -> 0.4^1.411.
    expect(oneSidedFairAmerican(150, 'power', 1.411) as number).toBeCloseTo(0.4 ** 1.411, 12);
  });
});
