/**
 * The de-vig formulas, one function per method (../shared/devig/DEVIG.md §2, §7). Each receives a
 * validated book (at least 2 legs, every decimal price > 1) and returns the raw fair
 * probabilities, or a reason when the method has no answer. Range checks live in ../devig.ts.
 *
 * An underround book (booksum < 1: best prices across books, a stale quote) is de-vigged by the
 * same formula with the margin negative, so the probabilities are raised to sum to 1: the
 * closed forms take it as is; the solved methods look for their parameter on the other side of
 * its no-margin value (shin z < 0, power k < 1, odds_ratio c < 1, probit c < 0). jsd alone has
 * no answer: its legs sit a shared distance BELOW their implied probabilities.
 */
import { normalCdf, normalQuantile } from './normal.js';
import { bracketAbove, bracketBelow, brentRoot } from './solve.js';

/** The root of a decreasing f that is negative at `zero` (the no-margin value) on an underround book: below it. */
function rootBelow(f: (x: number) => number, zero: number): number | null {
  const lo = bracketBelow(f, zero, 1);
  return lo === null ? null : brentRoot(f, lo, zero);
}

export interface Book {
  /** Decimal odds O_i. */
  readonly odds: readonly number[];
  /** Implied probabilities r_i = 1/O_i. */
  readonly r: readonly number[];
  /** B = Σ r_i. */
  readonly booksum: number;
}

export type MethodOutcome = { probs: number[]; params?: Record<string, number> } | { reason: string };

const sum = (xs: readonly number[]): number => xs.reduce((acc, x) => acc + x, 0);
const noRoot = (method: string): MethodOutcome => ({ reason: `${method}: the solver found no root for this book` });

/** p_i = r_i / B: the baseline, no favourite–longshot correction. */
export function multiplicative(book: Book): MethodOutcome {
  return { probs: book.r.map((r) => r / book.booksum) };
}

/** p_i = r_i - M/n: the margin split equally; goes negative on n-way longshots. */
export function additive(book: Book): MethodOutcome {
  const n = book.r.length;
  const margin = book.booksum - 1;
  return { probs: book.r.map((r) => r - margin / n) };
}

/** Margin weights proportional to the odds: F_i = n·O_i/(n - M·O_i), p_i = 1/F_i (algebraically additive). */
export function wpo(book: Book): MethodOutcome {
  const n = book.r.length;
  const margin = book.booksum - 1;
  return { probs: book.odds.map((o) => (n - margin * o) / (n * o)) };
}

/** Balanced book (Fingleton & Waldron): z = M/(n-1), p_i = (r_i - z)/(1 - z). */
export function balancedBook(book: Book): MethodOutcome {
  const z = (book.booksum - 1) / (book.r.length - 1);
  return { probs: book.r.map((r) => (r - z) / (1 - z)), params: { z } };
}

/** goto_conversion: every r_i shrinks by the same number of standard errors SE_i = √(1 - r_i). */
export function goto(book: Book): MethodOutcome {
  const se = book.r.map((r) => Math.sqrt(1 - r));
  const step = (book.booksum - 1) / sum(se);
  return { probs: book.r.map((r, i) => r - (se[i] ?? 0) * step) };
}

/**
 * Shin's p_i(z) = (√(z² + 4(1-z)r_i²/B) - z) / (2(1-z)), written in its rationalised form
 * 2r_i²/B / (√(z² + 4(1-z)r_i²/B) + z), which is exact at z → 1 (limit r_i²/B) and cancels nothing.
 */
function shinLeg(z: number, r: number, booksum: number): number {
  const a = (r * r) / booksum;
  return (2 * a) / (Math.sqrt(z * z + 4 * (1 - z) * a) + z);
}

/**
 * Shin. Two-way: z in closed form and p = (1 + r_1 - r_2)/2, identical to additive. n-way: Σp(z) - 1
 * is √B - 1 >= 0 at z = 0 and Σr²/B - 1 < 0 at z = 1, so Brent on [0, 1] always finds z in [0, 1).
 * An underround book gives z < 0 (no insiders to model: DEVIG.md §4 "z < 0 if underround").
 */
export function shin(book: Book): MethodOutcome {
  const { r, booksum } = book;
  if (r.length === 2) {
    const [r1, r2] = r as [number, number];
    const d = r1 - r2;
    const z = ((booksum - 1) * (d * d - booksum)) / (booksum * (d * d - 1));
    // 1 + (r1 - r2), not (1 + r1) - r2: equal prices must give exactly 0.5.
    return { probs: [(1 + d) / 2, (1 - d) / 2], params: { z } };
  }
  const f = (z: number): number => sum(r.map((ri) => shinLeg(z, ri, booksum))) - 1;
  // Underround: Σp(0) - 1 = √B - 1 < 0 and every p(z) tends to 1 as z falls, so z < 0.
  const z = booksum < 1 ? rootBelow(f, 0) : brentRoot(f, 0, 1);
  if (z === null) return noRoot('shin');
  return { probs: r.map((ri) => shinLeg(z, ri, booksum)), params: { z } };
}

/** Power: p_i = r_i^k with k >= 1 solving Σ r_i^k = 1 (no closed form even for two legs); k < 1 on an underround book. */
export function power(book: Book): MethodOutcome {
  const { r } = book;
  const f = (k: number): number => sum(r.map((ri) => ri ** k)) - 1;
  // Underround: Σr^1 - 1 < 0 and Σr^0 - 1 = n - 1 > 0, so k lies in (0, 1).
  if (book.booksum < 1) {
    const k = brentRoot(f, 0, 1);
    return k === null ? noRoot('power') : { probs: r.map((ri) => ri ** k), params: { k } };
  }
  const hi = bracketAbove(f, 1, 1);
  const k = hi === null ? null : brentRoot(f, 1, hi);
  if (k === null) return noRoot('power');
  return { probs: r.map((ri) => ri ** k), params: { k } };
}

/** logit p = logit r - t with t = ln c: p = 1/(1 + e^t (1-r)/r), stable for any t. */
function oddsRatioLeg(t: number, r: number): number {
  return 1 / (1 + Math.exp(t) * ((1 - r) / r));
}

/**
 * Odds ratio (Cheung): p_i = r_i/(c + r_i - c·r_i). Two-way closed form
 * p_1 = √(O_2-1)/(√(O_1-1) + √(O_2-1)) with c = 1/√((O_1-1)(O_2-1)); n-way Brent on ln c.
 */
export function oddsRatio(book: Book): MethodOutcome {
  const { r, odds } = book;
  if (odds.length === 2) {
    const [o1, o2] = odds as [number, number];
    const s1 = Math.sqrt(o1 - 1);
    const s2 = Math.sqrt(o2 - 1);
    return { probs: [s2 / (s1 + s2), s1 / (s1 + s2)], params: { c: 1 / (s1 * s2) } };
  }
  const f = (t: number): number => sum(r.map((ri) => oddsRatioLeg(t, ri))) - 1;
  let t: number | null;
  if (book.booksum < 1) t = rootBelow(f, 0);
  else {
    const hi = bracketAbove(f, 0, 1);
    t = hi === null ? null : brentRoot(f, 0, hi);
  }
  if (t === null) return noRoot('odds_ratio');
  return { probs: r.map((ri) => oddsRatioLeg(t, ri)), params: { c: Math.exp(t) } };
}

/**
 * Probit: the vig removed as one shift in normal-quantile space, p_i = Φ(Φ⁻¹(r_i) - c).
 * Two-way: c = (Φ⁻¹(r_1) + Φ⁻¹(r_2))/2, so p_1 = Φ((Φ⁻¹(r_1) - Φ⁻¹(r_2))/2); n-way Brent on c.
 */
export function probit(book: Book): MethodOutcome {
  const x = book.r.map(normalQuantile);
  const shifted = (c: number): number[] => x.map((xi) => normalCdf(xi - c));
  if (x.length === 2) {
    const c = ((x[0] ?? Number.NaN) + (x[1] ?? Number.NaN)) / 2;
    return { probs: shifted(c), params: { c } };
  }
  const f = (c: number): number => sum(shifted(c)) - 1;
  let c: number | null;
  if (book.booksum < 1) c = rootBelow(f, 0);
  else {
    const hi = bracketAbove(f, 0, 1);
    c = hi === null ? null : brentRoot(f, 0, hi);
  }
  if (c === null) return noRoot('probit');
  return { probs: shifted(c), params: { c } };
}

/** x·ln(x/y) with the 0·ln 0 = 0 convention. */
function xlogxy(x: number, y: number): number {
  return x === 0 ? 0 : x * Math.log(x / y);
}

/** Jensen–Shannon distance between Bernoulli(p) and Bernoulli(r) (natural log; the base cancels out). */
function bernoulliJsDistance(p: number, r: number): number {
  const m = (p + r) / 2;
  const kl = (a: number): number => xlogxy(a, m) + xlogxy(1 - a, 1 - m);
  return Math.sqrt(Math.max(0, (kl(p) + kl(r)) / 2));
}

/** The p in [0, r] at JS distance `dist` below r, or null when even p = 0 is closer than `dist`. */
function jsdLeg(dist: number, r: number): number | null {
  if (dist === 0) return r;
  return brentRoot((p) => bernoulliJsDistance(p, r) - dist, 0, r);
}

/** Why jsd refuses an underround book (docs/model.md "Underround pairs"). */
export const JSD_UNDERROUND = 'jsd is not defined for an underround book (booksum < 1): its legs sit a shared distance below their implied probabilities, and these must be raised';

/**
 * JSD (C. D. Long, R implied): each leg is the binary event {i, not i}; every leg sits one shared
 * JS distance D below its r_i, and D solves Σp_i = 1. D cannot exceed the smallest leg's distance
 * to p = 0; when that still leaves Σp > 1 the method has no answer (R's "does not work").
 */
export function jsd(book: Book): MethodOutcome {
  const { r } = book;
  if (book.booksum < 1) return { reason: JSD_UNDERROUND };
  const dMax = Math.min(...r.map((ri) => bernoulliJsDistance(0, ri)));
  const legs = (dist: number): number[] | null => {
    const ps: number[] = [];
    for (const ri of r) {
      const p = jsdLeg(dist, ri);
      if (p === null) return null;
      ps.push(p);
    }
    return ps;
  };
  const f = (dist: number): number => {
    const ps = legs(dist);
    return ps === null ? Number.NaN : sum(ps) - 1;
  };
  const dist = brentRoot(f, 0, dMax);
  const probs = dist === null ? null : legs(dist);
  if (dist === null || probs === null) return { reason: 'jsd: no shared distance brings the legs to 1 before a leg reaches 0' };
  return { probs, params: { D: dist } };
}
