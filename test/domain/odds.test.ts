import { describe, expect, it } from 'vitest';
import { americanToDecimal, decimalToAmerican, fairAmerican, impliedProbability, profitPerUnit } from '../../src/domain/odds.js';

// Conventions: ../shared/devig/DEVIG.md §1 (-110 -> decimal 1.90909, implied 0.523810, p = 0.5 -> fair -100).
const NOT_A_PRICE = [-99, 99, -50, 50, 0, -0.5, 99.999, -99.999, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null, undefined];

describe('americanToDecimal', () => {
  it('converts plus and minus prices', () => {
    expect(americanToDecimal(150)).toBe(2.5);
    expect(americanToDecimal(-200)).toBe(1.5);
    expect(americanToDecimal(-110)).toBeCloseTo(1.9090909090909092, 15);
    expect(americanToDecimal(600)).toBe(7);
    expect(americanToDecimal(-1000)).toBeCloseTo(1.1, 15);
  });

  it('treats +100 and -100 as even money', () => {
    expect(americanToDecimal(100)).toBe(2);
    expect(americanToDecimal(-100)).toBe(2);
  });

  it.each(NOT_A_PRICE)('returns null for %s', (a) => {
    expect(americanToDecimal(a)).toBeNull();
  });
});

describe('decimalToAmerican', () => {
  it('converts both sides of even money', () => {
    expect(decimalToAmerican(2.5)).toBe(150);
    expect(decimalToAmerican(1.5)).toBe(-200);
    expect(decimalToAmerican(2)).toBe(100);
    expect(decimalToAmerican(1.9090909090909092)).toBeCloseTo(-110, 10);
  });

  it.each([1, 0.99, 0, -2, Number.NaN, Number.POSITIVE_INFINITY, null, undefined])('returns null for %s', (d) => {
    expect(decimalToAmerican(d)).toBeNull();
  });

  it('round-trips every valid American price (-100 comes back as its twin +100)', () => {
    for (const a of [-50000, -3000, -1000, -250, -150, -110, -101, 100, 101, 120, 190, 600, 900, 4000]) {
      expect(decimalToAmerican(americanToDecimal(a))).toBeCloseTo(a, 9);
    }
    expect(decimalToAmerican(americanToDecimal(-100))).toBe(100);
  });
});

describe('impliedProbability', () => {
  it('is 1/decimal, margin included', () => {
    expect(impliedProbability(-110)).toBeCloseTo(0.5238095238095238, 15);
    expect(impliedProbability(100)).toBe(0.5);
    expect(impliedProbability(300)).toBe(0.25);
    expect(impliedProbability(-300)).toBe(0.75);
  });

  it.each(NOT_A_PRICE)('returns null for %s', (a) => {
    expect(impliedProbability(a)).toBeNull();
  });
});

describe('fairAmerican', () => {
  it('uses -100p/(1-p) from 0.5 up and 100(1-p)/p below', () => {
    expect(fairAmerican(0.5)).toBe(-100);
    expect(fairAmerican(0.75)).toBe(-300);
    expect(fairAmerican(0.6)).toBeCloseTo(-150, 12);
    expect(fairAmerican(0.25)).toBe(300);
    expect(fairAmerican(0.1)).toBeCloseTo(900, 12);
  });

  it('inverts impliedProbability away from even money', () => {
    for (const a of [-50000, -1000, -250, -110, 120, 600, 4000]) {
      expect(fairAmerican(impliedProbability(a))).toBeCloseTo(a, 8);
    }
  });

  it.each([0, 1, -0.1, 1.1, Number.NaN, Number.POSITIVE_INFINITY, null, undefined])('has no price for p = %s', (p) => {
    expect(fairAmerican(p)).toBeNull();
  });
});

describe('profitPerUnit', () => {
  it('is the profit on a one-unit winning stake', () => {
    expect(profitPerUnit(150)).toBe(1.5);
    expect(profitPerUnit(-200)).toBe(0.5);
    expect(profitPerUnit(100)).toBe(1);
    expect(profitPerUnit(-100)).toBe(1);
    expect(profitPerUnit(-110)).toBeCloseTo(0.9090909090909091, 15);
  });

  it('equals decimal - 1 for every valid price', () => {
    for (const a of [-3000, -110, 100, 190, 4000]) {
      expect(profitPerUnit(a)).toBeCloseTo((americanToDecimal(a) as number) - 1, 14);
    }
  });

  it.each([-50, 0, 99, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s instead of inventing a number', (a) => {
    expect(() => profitPerUnit(a)).toThrow(RangeError);
  });
});
