/**
 * Odds arithmetic. American odds A are valid when |A| >= 100 (+100 and -100 are both even money);
 * anything else (|A| < 100, 0, NaN, ±Infinity, null) is not a price and yields null, never a number.
 */

function isValidAmerican(a: number | null | undefined): a is number {
  return typeof a === 'number' && Number.isFinite(a) && Math.abs(a) >= 100;
}

function isValidDecimal(d: number | null | undefined): d is number {
  return typeof d === 'number' && Number.isFinite(d) && d > 1;
}

/** +150 -> 2.5, -200 -> 1.5; invalid -> null. */
export function americanToDecimal(a: number | null | undefined): number | null {
  if (!isValidAmerican(a)) return null;
  return a > 0 ? 1 + a / 100 : 1 + 100 / -a;
}

/** 2.5 -> +150, 1.5 -> -200; d <= 1 or non-finite -> null. Even money (2.0) is +100. */
export function decimalToAmerican(d: number | null | undefined): number | null {
  if (!isValidDecimal(d)) return null;
  return d >= 2 ? 100 * (d - 1) : -100 / (d - 1);
}

/** The book's implied probability 1/decimal, margin included; invalid -> null. */
export function impliedProbability(american: number | null | undefined): number | null {
  const d = americanToDecimal(american);
  return d === null ? null : 1 / d;
}

/**
 * Fair American odds for a probability, unrounded: p >= 0.5 gives -100p/(1-p) (so 0.5 gives -100),
 * p < 0.5 gives 100(1-p)/p. No price exists for p <= 0, p >= 1 or a non-finite p.
 */
export function fairAmerican(p: number | null | undefined): number | null {
  if (typeof p !== 'number' || !Number.isFinite(p) || p <= 0 || p >= 1) return null;
  return p >= 0.5 ? (-100 * p) / (1 - p) : (100 * (1 - p)) / p;
}

/**
 * Profit on a one-unit winning stake: +150 -> 1.5, -200 -> 0.5. Callers hold a validated price;
 * an invalid one is a programming error, so this throws rather than return a made-up number.
 */
export function profitPerUnit(american: number): number {
  if (!isValidAmerican(american)) throw new RangeError(`not a valid American price: ${american}`);
  return american > 0 ? american / 100 : 100 / -american;
}
