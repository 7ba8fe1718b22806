import { devigTwoWay } from '../devig.js';
import { americanToDecimal } from '../odds.js';
import type { Side } from '../sports.js';
import { countDistribution, lineProbabilities } from './distributions.js';
import type { Dispersion } from './params.js';

/**
 * The market's fair probability for every line of one player's stat in one game, and the price
 * each row is graded at. Pure; the snapshot run and the back-test both call `priceLadder`, so the
 * live rule is the tested rule (docs/model.md §3).
 *
 * - consensus: the mean multiplicative no-vig P(over) of the OTHER books quoting both sides of the
 *   exact line (the graded book never judges its own price).
 * - market_implied: a line no other book quotes (alt rungs): the stat's count law, with its fitted
 *   dispersion, solved so it reproduces the main line's consensus, then read at the rung.
 * - book: nothing else prices the line; the graded book's own pair, so EV is minus its margin.
 */

export const MARKET_RULES = {
  /** De-vig used for every book pair in a consensus: the best of the catalogue on the training props. */
  consensusMethod: 'multiplicative',
  /** Other books at the exact line for a full consensus; fewer is a thin consensus. */
  minConsensusBooks: 3,
  /**
   * A price whose implied probability sits more than this far below the fair probability of its
   * side is an outlier (about 30 cents near even money). Set from the training props: 99.5% of
   * main-line quotes from 2024-25 lie inside it (docs/model.md §3).
   */
  outlierProbGap: 0.07,
} as const;

export type FairSource = 'consensus' | 'market_implied' | 'book';

export interface BookQuote {
  book: string;
  over: number | null;
  under: number | null;
}

/** Multiplicative no-vig P(over) of one book's pair; null unless both sides are real prices. */
export function pairOverProbability(q: Pick<BookQuote, 'over' | 'under'>): number | null {
  if (q.over === null || q.under === null) return null;
  const dv = devigTwoWay(q.over, q.under, MARKET_RULES.consensusMethod);
  return dv.ok ? (dv.probs[0] ?? null) : null;
}

export interface Consensus {
  pOver: number;
  /** Books whose pairs formed it. */
  books: number;
}

/** Mean no-vig P(over) over the books quoting both sides, leaving out `exclude`; null when none. */
export function consensusOver(quotes: Iterable<BookQuote>, exclude: string | null = null): Consensus | null {
  let sum = 0;
  let books = 0;
  for (const q of quotes) {
    if (q.book === exclude) continue;
    const p = pairOverProbability(q);
    if (p === null) continue;
    sum += p;
    books += 1;
  }
  return books === 0 ? null : { pOver: sum / books, books };
}

/** Decided-bet P(over) at a line for a count law with this mean (pushes on whole lines excluded). */
export function overProbability(mean: number, dispersion: Dispersion, line: number): number {
  const variance = dispersion.a * mean + dispersion.b * mean * mean;
  const probs = lineProbabilities(countDistribution(mean, variance), line);
  const decided = probs.over + probs.under;
  return decided > 0 ? probs.over / decided : Number.NaN;
}

/**
 * The mean whose count law gives P(over) = pOver at `line` (bisection on log mean; P(over) rises
 * with the mean). Null when no mean in a sane range reproduces it.
 */
export function impliedMean(line: number, pOver: number, dispersion: Dispersion): number | null {
  if (!(pOver > 0 && pOver < 1) || !(line >= 0)) return null;
  let lo = Math.log(1e-3);
  let hi = Math.log(Math.max(10, 8 * (line + 1)));
  const at = (x: number) => overProbability(Math.exp(x), dispersion, line);
  if (!(at(lo) < pOver && at(hi) > pOver)) return null;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) < pOver) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}

/** One line of a player's stat in one game, every book's pair at it. */
export interface LadderLine {
  line: number;
  quotes: readonly BookQuote[];
}

export interface RowPricing {
  line: number;
  side: Side;
  isMainLine: boolean;
  /** Books quoting this exact line (either side). */
  bookCount: number;
  /** The graded book: best real price for the side among books whose price is not an outlier. */
  book: string;
  overOdds: number;
  underOdds: number;
  bookOdds: number;
  /** The graded book's own margin (booksum - 1). */
  overround: number;
  /** Fair probability of this side from the market (see FairSource); never a model term. */
  fairProb: number;
  fairSource: FairSource;
  /** Books behind the fair: other books at the line (consensus), at the main line (market_implied), 1 (book). */
  consensusBooks: number;
  /** A consensus of fewer than MARKET_RULES.minConsensusBooks other books. */
  thinConsensus: boolean;
  /** A better quote for this side was set aside as an outlier, or the graded price itself is one. */
  outlierPrice: boolean;
  /** No credible price exists for the side: the graded price itself is the outlier (grade capped). */
  gradedAtOutlier: boolean;
  /** The set-aside (or graded) outlier quote, for display. */
  outlier: { book: string; price: number } | null;
}

interface Candidate {
  quote: BookQuote & { over: number; under: number };
  price: number;
  decimal: number;
  fair: { prob: number; source: FairSource; books: number; thin: boolean };
  overround: number;
  outlier: boolean;
}

/**
 * Prices every (line, side) of one player's stat in one game. `dispersion` is the stat's fitted
 * variance function; without it no rung is market-implied. Lines with no book quoting both sides
 * yield no rows (the triplet is hidden).
 */
export function priceLadder(lines: readonly LadderLine[], dispersion: Dispersion | null): RowPricing[] {
  const main = mainLineOf(lines);
  const anchor = main ? consensusOver(main.quotes) : null;
  const impliedMu =
    main && anchor && dispersion && anchor.books >= MARKET_RULES.minConsensusBooks ? impliedMean(main.line, anchor.pOver, dispersion) : null;

  const out: RowPricing[] = [];
  for (const l of lines) {
    const pairs = l.quotes.filter((q): q is Candidate['quote'] => pairOverProbability(q) !== null);
    if (pairs.length === 0) continue;
    for (const side of ['over', 'under'] as const) {
      const candidates: Candidate[] = pairs.map((quote) => {
        const fair = fairFor(l, quote.book, side, impliedMu, dispersion, anchor?.books ?? 0);
        const price = side === 'over' ? quote.over : quote.under;
        const decimal = americanToDecimal(price) as number;
        const booksum = 1 / (americanToDecimal(quote.over) as number) + 1 / (americanToDecimal(quote.under) as number);
        return { quote, price, decimal, fair, overround: booksum - 1, outlier: fair.prob - 1 / decimal > MARKET_RULES.outlierProbGap };
      });
      const best = bestOf(candidates.filter((c) => !c.outlier)) ?? bestOf(candidates);
      if (!best) continue;
      const topOutlier = bestOf(candidates.filter((c) => c.outlier));
      const setAside = topOutlier !== null && (best.outlier || topOutlier.decimal > best.decimal);
      out.push({
        line: l.line,
        side,
        isMainLine: main !== null && l.line === main.line,
        bookCount: l.quotes.length,
        book: best.quote.book,
        overOdds: best.quote.over,
        underOdds: best.quote.under,
        bookOdds: best.price,
        overround: best.overround,
        fairProb: best.fair.prob,
        fairSource: best.fair.source,
        consensusBooks: best.fair.books,
        thinConsensus: best.fair.thin,
        outlierPrice: setAside,
        gradedAtOutlier: best.outlier,
        outlier: setAside && topOutlier ? { book: topOutlier.quote.book, price: topOutlier.price } : null,
      });
    }
  }
  return out;
}

/** Fair P(side) for judging `book`'s price at this line: consensus of the others, else implied, else thin, else own pair. */
function fairFor(
  l: LadderLine,
  book: string,
  side: Side,
  impliedMu: number | null,
  dispersion: Dispersion | null,
  anchorBooks: number,
): Candidate['fair'] {
  const toSide = (pOver: number) => (side === 'over' ? pOver : 1 - pOver);
  const others = consensusOver(l.quotes, book);
  if (others && others.books >= MARKET_RULES.minConsensusBooks) return { prob: toSide(others.pOver), source: 'consensus', books: others.books, thin: false };
  if (impliedMu !== null && dispersion) {
    const p = overProbability(impliedMu, dispersion, l.line);
    if (p > 0 && p < 1) return { prob: toSide(p), source: 'market_implied', books: anchorBooks, thin: false };
  }
  // A thin consensus keeps the graded book's own pair in: with one or two other books, its price is
  // part of what the market knows, and leaving it out lets one other book set the fair.
  const every = consensusOver(l.quotes) as Consensus;
  if (others) return { prob: toSide(every.pOver), source: 'consensus', books: every.books, thin: true };
  return { prob: toSide(every.pOver), source: 'book', books: 1, thin: true };
}

/** Highest payout; ties go to the book name first in order, so the choice is deterministic. */
function bestOf(cs: readonly Candidate[]): Candidate | null {
  let best: Candidate | null = null;
  for (const c of cs) {
    if (best === null || c.decimal > best.decimal || (c.decimal === best.decimal && c.quote.book < best.quote.book)) best = c;
  }
  return best;
}

/** Main line = quoted on both sides by the most books; ties go to the line whose consensus P(over) is nearest 0.5, then the lower line. */
export function mainLineOf<T extends LadderLine>(lines: readonly T[]): T | null {
  let best: { l: T; books: number; distance: number } | null = null;
  for (const l of lines) {
    const c = consensusOver(l.quotes);
    if (!c) continue;
    const distance = Math.abs(c.pOver - 0.5);
    if (
      best === null ||
      c.books > best.books ||
      (c.books === best.books && (distance < best.distance || (distance === best.distance && l.line < best.l.line)))
    ) {
      best = { l, books: c.books, distance };
    }
  }
  return best?.l ?? null;
}
