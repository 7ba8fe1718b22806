/**
 * De-vig: turn a book's prices into fair probabilities (../shared/devig/DEVIG.md). A book that
 * cannot be priced honestly (a missing leg, fewer than 2 legs, an invalid price, a probability
 * outside (0, 1)) yields `{ ok: false, reason }`: never a one-sided de-vig, never a number. An
 * underround book (booksum < 1, e.g. the best prices across books) is de-vigged by every method
 * that defines it, its probabilities raised to sum to 1, and flagged `underround: true`; jsd does
 * not define it and refuses (docs/devig.md). The name "logarithmic" is deliberately absent: the
 * anchors disagree on what it means.
 */
import { z } from 'zod';
import { americanToDecimal, fairAmerican } from './odds.js';
import {
  additive,
  balancedBook,
  goto,
  jsd,
  multiplicative,
  oddsRatio,
  power,
  probit,
  shin,
  wpo,
  type Book,
  type MethodOutcome,
} from './devig/methods.js';

export const devigMethodSchema = z.enum([
  'multiplicative',
  'additive',
  'power',
  'shin',
  'odds_ratio',
  'probit',
  'worst_case',
  'wpo',
  'balanced_book',
  'goto',
  'jsd',
]);
export type DevigMethod = z.infer<typeof devigMethodSchema>;

export const DEVIG_METHODS: readonly DevigMethod[] = devigMethodSchema.options;

/** Shin: corrects the favourite–longshot bias, exact closed form for two legs (DEVIG.md §6). */
export const DEFAULT_TWO_WAY_METHOD: DevigMethod = 'shin';
/** Shin again for outrights: unlike additive/wpo/balanced_book/goto it never goes negative. */
export const DEFAULT_N_WAY_METHOD: DevigMethod = 'shin';

export type DevigResult =
  | {
      ok: true;
      method: DevigMethod;
      /** Full precision; round only for display. */
      probs: number[];
      fairAmerican: (number | null)[];
      /** booksum - 1 as a fraction: 0 for a fair book, negative for an underround one (DEVIG.md §1). */
      overround: number;
      booksum: number;
      /** Present (true) only when booksum < 1: the legs were raised, not lowered, to sum to 1. */
      underround?: true;
      /** The solved parameter where the method has one: shin/balanced_book z, power k, odds_ratio/probit c, jsd D. */
      params?: Record<string, number>;
    }
  | { ok: false; method: DevigMethod; reason: string };

type SingleMethod = Exclude<DevigMethod, 'worst_case'>;

const METHODS: Record<SingleMethod, (book: Book) => MethodOutcome> = {
  multiplicative,
  additive,
  power,
  shin,
  odds_ratio: oddsRatio,
  probit,
  wpo,
  balanced_book: balancedBook,
  goto,
  jsd,
};

/** The methods whose per-leg minimum is `worst_case` (Crazy Ninja Odds' "Worst Case"). */
const WORST_CASE_OF: readonly SingleMethod[] = ['multiplicative', 'additive', 'power', 'shin'];

/** Solvers converge far tighter than this; a larger miss means the answer is not trustworthy. */
const SUM_TOLERANCE = 1e-9;

type Prices = ReadonlyArray<number | null | undefined>;

/** De-vig American prices (one per leg, in order). */
export function devig(americanPrices: Prices, method: DevigMethod): DevigResult {
  const fail = checkLegs(americanPrices, method);
  if (fail) return fail;
  const decimals: number[] = [];
  for (const [i, a] of americanPrices.entries()) {
    const d = americanToDecimal(a);
    if (d === null) return { ok: false, method, reason: `leg ${i + 1} price ${String(a)} is not a valid American price (need <= -100 or >= +100)` };
    decimals.push(d);
  }
  return devigBook(decimals, method);
}

/** De-vig decimal prices (one per leg, in order). */
export function devigDecimal(decimalPrices: Prices, method: DevigMethod): DevigResult {
  const fail = checkLegs(decimalPrices, method);
  if (fail) return fail;
  const decimals: number[] = [];
  for (const [i, d] of decimalPrices.entries()) {
    if (typeof d !== 'number' || !Number.isFinite(d) || d <= 1) {
      return { ok: false, method, reason: `leg ${i + 1} price ${String(d)} is not a valid decimal price (need > 1)` };
    }
    decimals.push(d);
  }
  return devigBook(decimals, method);
}

/** A two-way prop (over/under, American prices); both sides must be priced. Default method: shin. */
export function devigTwoWay(
  over: number | null | undefined,
  under: number | null | undefined,
  method: DevigMethod = DEFAULT_TWO_WAY_METHOD,
): DevigResult {
  if (over === null || over === undefined) return { ok: false, method, reason: 'the over has no price' };
  if (under === null || under === undefined) return { ok: false, method, reason: 'the under has no price' };
  return devig([over, under], method);
}

function checkLegs(prices: Prices, method: DevigMethod): DevigResult | null {
  if (prices.length < 2) return { ok: false, method, reason: `need at least 2 legs, got ${prices.length}` };
  const missing = prices.findIndex((p) => p === null || p === undefined);
  if (missing >= 0) return { ok: false, method, reason: `leg ${missing + 1} has no price` };
  return null;
}

function devigBook(decimals: readonly number[], method: DevigMethod): DevigResult {
  const r = decimals.map((d) => 1 / d);
  const booksum = r.reduce((acc, x) => acc + x, 0);
  const book: Book = { odds: decimals, r, booksum };
  const outcome = method === 'worst_case' ? worstCase(book) : checked(method, METHODS[method](book), true);
  if ('reason' in outcome) return { ok: false, method, reason: outcome.reason };
  return {
    ok: true,
    method,
    probs: outcome.probs,
    fairAmerican: outcome.probs.map(fairAmerican),
    overround: booksum - 1,
    booksum,
    ...(booksum < 1 ? { underround: true as const } : {}),
    ...(outcome.params ? { params: outcome.params } : {}),
  };
}

/** Rejects any leg outside (0, 1) and, where the method promises it, a sum that is not 1. */
function checked(method: DevigMethod, outcome: MethodOutcome, sumsToOne: boolean): MethodOutcome {
  if ('reason' in outcome) return outcome;
  const bad = outcome.probs.findIndex((p) => !(Number.isFinite(p) && p > 0 && p < 1));
  if (bad >= 0) {
    return { reason: `${method} gives leg ${bad + 1} probability ${String(outcome.probs[bad])}, outside (0, 1)` };
  }
  const total = outcome.probs.reduce((acc, x) => acc + x, 0);
  if (sumsToOne && Math.abs(total - 1) > SUM_TOLERANCE) {
    return { reason: `${method} probabilities sum to ${total}, not 1` };
  }
  return outcome;
}

/**
 * Per leg, the smallest fair probability among multiplicative, additive, power and shin: the
 * conservative "is this bet +EV" view. The legs therefore need not sum to 1 (usually below 1).
 * If any component method has no answer, neither does the worst case: a minimum over a partial
 * set would not be the worst case.
 */
function worstCase(book: Book): MethodOutcome {
  const parts: number[][] = [];
  for (const name of WORST_CASE_OF) {
    const outcome = checked(name, METHODS[name](book), true);
    if ('reason' in outcome) return { reason: `worst_case needs ${name}: ${outcome.reason}` };
    parts.push(outcome.probs);
  }
  const probs = book.r.map((_, i) => Math.min(...parts.map((p) => p[i] ?? Number.NaN)));
  return checked('worst_case', { probs }, false);
}
