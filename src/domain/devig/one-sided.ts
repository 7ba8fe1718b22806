/**
 * One-sided de-vig (issue 42 part B; docs/model.md "Soccer: a fair price for one-sided markets").
 * A goalscorer or over-only price has no other side to take the vig from, so each book's margin
 * on that side is a fitted parameter m (src/domain/model/fitted-one-sided-soccer.ts, fitted on
 * 2024-25 by scripts/research/epl-one-sided.mjs). Each family maps the implied probability
 * r = 1/decimal to a fair p in (0, 1), falls as the price rises, and at m's no-margin value
 * (NO_MARGIN) gives p = r: what the ordinary de-vig gives for a book with no margin. Pure.
 */
import { americanToDecimal } from '../odds.js';

export type OneSidedFamily = 'power' | 'odds_ratio' | 'multiplicative';

/** m at which a family leaves the implied probability as it is (a book with no margin). */
export const NO_MARGIN: Readonly<Record<OneSidedFamily, number>> = { power: 1, odds_ratio: 0, multiplicative: 1 };

/** Parameter ranges the fit searches (and outside which a family is not a de-vig: m below them raises p). */
export const MARGIN_RANGE: Readonly<Record<OneSidedFamily, readonly [number, number]>> = {
  power: [0.2, 6],
  odds_ratio: [-2, 4],
  multiplicative: [1, 5],
};

/**
 * Fair probability of the priced side from its implied probability r in (0, 1):
 * power p = r^m; odds_ratio logit p = logit r - m; multiplicative p = r / m (m >= 1 keeps p < 1).
 * Null for an r outside (0, 1) or an m outside the family's range: no number is made up.
 */
export function oneSidedFair(r: number, family: OneSidedFamily, m: number): number | null {
  if (!(Number.isFinite(r) && r > 0 && r < 1)) return null;
  const [lo, hi] = MARGIN_RANGE[family];
  if (!(Number.isFinite(m) && m >= lo && m <= hi)) return null;
  let p: number;
  if (family === 'power') p = r ** m;
  else if (family === 'odds_ratio') p = 1 / (1 + Math.exp(m) * ((1 - r) / r));
  else p = r / m;
  return Number.isFinite(p) && p > 0 && p < 1 ? p : null;
}

/** The same from an American price; null when the price is not a real American price. */
export function oneSidedFairAmerican(american: number, family: OneSidedFamily, m: number): number | null {
  const d = americanToDecimal(american);
  return d === null ? null : oneSidedFair(1 / d, family, m);
}
