import { oneSidedFairAmerican } from '../devig/one-sided.js';
import { americanToDecimal } from '../odds.js';
import type { OneSidedRule } from './fitted-one-sided-soccer.js';
import type { BookQuote, FairOver, LadderLine, RowPricing } from './market.js';

/** market.ts MARKET_RULES' consensus and outlier bounds, passed in (market.ts imports this file). */
export interface ConsensusRules {
  minConsensusBooks: number;
  outlierProbGap: number;
}

/**
 * The fair of a one-sided soccer line (issue 42 part B; docs/model.md "Soccer: a fair price for
 * one-sided markets"): no book quotes both sides, so each book's lone over/yes price is de-vigged
 * one-sided with its fitted margin (src/domain/devig/one-sided.ts) and the fair is the consensus
 * of those, by the two-sided rule: the other books' mean with 3 or more of them, a thin consensus
 * with the graded book in with 1-2, the book's own de-vigged side alone with none. Only the over
 * side has a price, so only the over is priced. Pure.
 */

/** No book at the line prices both sides (the two-sided de-vig has nothing to work on). */
export function isOneSidedLine(l: LadderLine): boolean {
  return l.quotes.length > 0 && l.quotes.every((q) => q.over === null || q.under === null);
}

interface BookFair {
  quote: BookQuote & { over: number };
  p: number;
}

/** Each book's de-vigged over, in quote order; a book with no real over price forms none. */
export function oneSidedBookFairs(l: LadderLine, rule: OneSidedRule): BookFair[] {
  const out: BookFair[] = [];
  for (const q of l.quotes) {
    if (q.over === null) continue;
    const p = oneSidedFairAmerican(q.over, rule.family, rule.paramFor(q.book));
    if (p !== null) out.push({ quote: q as BookQuote & { over: number }, p });
  }
  return out;
}

const mean = (xs: readonly BookFair[]): number => xs.reduce((s, f) => s + f.p, 0) / xs.length;

/** The consensus of the de-vigged overs for judging `book`'s price (source and thinness as two-sided). */
export function oneSidedFairOver(fairs: readonly BookFair[], book: string, rules: ConsensusRules): FairOver | null {
  if (fairs.length === 0) return null;
  const others = fairs.filter((f) => f.quote.book !== book);
  if (others.length >= rules.minConsensusBooks) return { pOver: mean(others), source: 'consensus', books: others.length, thin: false };
  if (others.length > 0) return { pOver: mean(fairs), source: 'consensus', books: fairs.length, thin: true };
  return { pOver: mean(fairs), source: 'book', books: 1, thin: true };
}

/** The one-sided line whose over most books quote (ties: consensus nearest 0.5, then the lower line); null when none. */
export function oneSidedMainLine<T extends LadderLine>(lines: readonly T[], ruleFor: (line: number) => OneSidedRule | null): T | null {
  let best: { l: T; books: number; distance: number } | null = null;
  for (const l of lines) {
    const rule = ruleFor(l.line);
    if (!rule || !isOneSidedLine(l)) continue;
    const fairs = oneSidedBookFairs(l, rule);
    if (fairs.length === 0) continue;
    const distance = Math.abs(mean(fairs) - 0.5);
    if (best === null || fairs.length > best.books || (fairs.length === best.books && (distance < best.distance || (distance === best.distance && l.line < best.l.line)))) {
      best = { l, books: fairs.length, distance };
    }
  }
  return best?.l ?? null;
}

/** The over row of a one-sided line: the best credible over price against the consensus of the de-vigged overs. */
export function priceOneSidedLine(l: LadderLine, rule: OneSidedRule, isMainLine: boolean, rules: ConsensusRules): RowPricing | null {
  const fairs = oneSidedBookFairs(l, rule);
  const candidates = fairs.map((f) => {
    const fair = oneSidedFairOver(fairs, f.quote.book, rules) as FairOver;
    const decimal = americanToDecimal(f.quote.over) as number;
    return { f, fair, decimal, outlier: fair.pOver - 1 / decimal > rules.outlierProbGap };
  });
  type C = (typeof candidates)[number];
  const bestOf = (cs: readonly C[]): C | null => {
    let best: C | null = null;
    for (const c of cs) if (best === null || c.decimal > best.decimal || (c.decimal === best.decimal && c.f.quote.book < best.f.quote.book)) best = c;
    return best;
  };
  const best = bestOf(candidates.filter((c) => !c.outlier)) ?? bestOf(candidates);
  if (!best) return null;
  const topOutlier = bestOf(candidates.filter((c) => c.outlier));
  const setAside = topOutlier !== null && (best.outlier || topOutlier.decimal > best.decimal);
  return {
    line: l.line,
    side: 'over',
    isMainLine,
    bookCount: l.quotes.length,
    book: best.f.quote.book,
    overOdds: best.f.quote.over,
    underOdds: null,
    bookOdds: best.f.quote.over,
    // One side has no booksum: the book's margin is the fitted one, not a measured pair's.
    overround: null,
    fairProb: best.fair.pOver,
    fairSource: best.fair.source,
    consensusBooks: best.fair.books,
    thinConsensus: best.fair.thin,
    outlierPrice: setAside,
    gradedAtOutlier: best.outlier,
    outlier: setAside && topOutlier ? { book: topOutlier.f.quote.book, price: topOutlier.f.quote.over } : null,
    oneSided: { market: rule.market, family: rule.family, passed: rule.passed },
  };
}
