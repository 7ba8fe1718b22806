import { decimalToAmerican } from '../../domain/odds.js';

/**
 * The Odds API answers in the format each request asked for, and recordings hold both (NOTES §4.6):
 * American prices are integers with |A| >= 100, decimal prices are numbers > 1. The format is read
 * per payload, not per price, so a decimal 150.0 long shot is not mistaken for +150.
 */
export type OddsFormat = 'american' | 'decimal';

/** Every numeric `price` anywhere in a payload. */
export function collectPrices(raw: unknown, out: number[] = []): number[] {
  if (Array.isArray(raw)) {
    for (const item of raw) collectPrices(item, out);
  } else if (raw !== null && typeof raw === 'object') {
    for (const [key, value] of Object.entries(raw)) {
      if (key === 'price' && typeof value === 'number' && Number.isFinite(value)) out.push(value);
      else if (typeof value === 'object') collectPrices(value, out);
    }
  }
  return out;
}

/**
 * American odds never lie strictly between -100 and +100, and decimal odds are never negative.
 * A price in (-100, 100) therefore means decimal; a negative price means American; a payload with
 * both is inconsistent (null). With neither signal (no prices, or all >= 100) the request's format wins.
 */
export function detectOddsFormat(prices: readonly number[], requested: OddsFormat = 'american'): OddsFormat | null {
  const hasNegative = prices.some((p) => p < 0);
  const hasSmall = prices.some((p) => Math.abs(p) < 100);
  if (hasNegative && hasSmall) return null;
  if (hasSmall) return 'decimal';
  if (hasNegative) return 'american';
  return requested;
}

/** A payload price as American odds; null when it is not a valid price in its format. */
export function toAmerican(price: number | null | undefined, format: OddsFormat | null): number | null {
  if (price === null || price === undefined || format === null || !Number.isFinite(price)) return null;
  if (format === 'american') return Math.abs(price) >= 100 ? price : null;
  const american = decimalToAmerican(price);
  // Two decimals strip float noise (1.8 -> -124.99999999999999) without losing the book's precision.
  return american === null ? null : Math.round(american * 100) / 100;
}
