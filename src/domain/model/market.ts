import { devigTwoWay } from '../devig.js';
import { americanToDecimal } from '../odds.js';
import type { Side } from '../sports.js';
import { countDistribution, lineProbabilities } from './distributions.js';
import type { OneSidedFamily } from '../devig/one-sided.js';
import type { OneSidedMarket, OneSidedRule } from './fitted-one-sided-soccer.js';
import { isOneSidedLine, oneSidedBookFairs, oneSidedFairOver, oneSidedMainLine, priceOneSidedLine } from './market-one-sided.js';
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
 * - one-sided (soccer, no book quotes both sides): each book's lone over de-vigged with its fitted
 *   margin, then the same consensus rule (market-one-sided.ts). Two-sided lines keep the above.
 */

/** Per line, the one-sided rule of its market (soccer: fitted-one-sided-soccer.ts oneSidedRuleFor); null = none. */
export type OneSidedRuleFor = (line: number) => OneSidedRule | null;

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

/** Multiplicative no-vig P(over) of one book's pair; null unless both sides are real prices with a margin (no underround). */
export function pairOverProbability(q: Pick<BookQuote, 'over' | 'under'>): number | null {
  if (q.over === null || q.under === null) return null;
  if ((MARKET_RULES.consensusMethod as string) !== 'multiplicative') {
    const dv = devigTwoWay(q.over, q.under, MARKET_RULES.consensusMethod);
    return dv.ok && !dv.underround ? (dv.probs[0] ?? null) : null;
  }
  return multiplicativeOver(q.over, q.under);
}

/** devig's own sum check for a method that must sum to one (devig.ts SUM_TOLERANCE). */
const SUM_TOLERANCE = 1e-9;

/**
 * devigTwoWay(over, under, 'multiplicative').probs[0], or null where it fails or the pair is an
 * underround, computed without the general de-vig's arrays and result object (priceLadder
 * de-vigs every quote of a slate). Each step is devig's own, in its order: the American prices to
 * decimals (invalid -> null), r = 1/d, booksum = 0 + r0 + r1, p = r / booksum, each p in (0, 1),
 * sum within the tolerance. test/domain/model/market.test.ts holds it equal to devigTwoWay on every
 * kind of pair.
 *
 * The consensus rule leaves an underround pair out (booksum < 1: one book's prices with no
 * margin, a stale or broken quote such as the +209/+145 of the history threes file, booksum
 * 0.73). devig itself now de-vigs such a book, flagged `underround` (issue 27); the grading keeps
 * its rule, so no grade moves (docs/model.md "Underround pairs").
 */
export function multiplicativeOver(over: number | undefined, under: number | undefined): number | null {
  if (over === undefined || under === undefined) return null;
  const dOver = americanToDecimal(over);
  const dUnder = americanToDecimal(under);
  if (dOver === null || dUnder === null) return null;
  const r0 = 1 / dOver;
  const r1 = 1 / dUnder;
  const booksum = 0 + r0 + r1;
  if (booksum < 1) return null;
  const p0 = r0 / booksum;
  const p1 = r1 / booksum;
  if (!(Number.isFinite(p0) && p0 > 0 && p0 < 1) || !(Number.isFinite(p1) && p1 > 0 && p1 < 1)) return null;
  if (Math.abs(0 + p0 + p1 - 1) > SUM_TOLERANCE) return null;
  return p0;
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
  /** Null on a one-sided line (no book prices the under). */
  underOdds: number | null;
  bookOdds: number;
  /** The graded book's own margin (booksum - 1); null on a one-sided line (one side has no booksum). */
  overround: number | null;
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
  /** Present on a one-sided soccer line: its market, de-vig family and whether that market passed the held-out gate. */
  oneSided?: { market: OneSidedMarket; family: OneSidedFamily; passed: boolean };
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
 * One line's market, computed once: each quote's no-vig P(over) (null when the pair is not both
 * real prices) and the all-books consensus. Every consensus below is summed from these in quote
 * order, exactly as consensusOver sums them, so the figures are the same to the bit.
 */
interface LineMarket {
  probs: Array<number | null>;
  every: Consensus | null;
  /** P(over) of the market-implied ladder at this line, computed on first use. */
  implied?: number;
}

function lineMarket(l: LadderLine): LineMarket {
  const probs = l.quotes.map((q) => pairOverProbability(q));
  let sum = 0;
  let books = 0;
  for (const p of probs) {
    if (p === null) continue;
    sum += p;
    books += 1;
  }
  return { probs, every: books === 0 ? null : { pOver: sum / books, books } };
}

/** consensusOver(l.quotes, exclude) from the line's cached probabilities. */
function othersConsensus(l: LadderLine, m: LineMarket, exclude: string): Consensus | null {
  let sum = 0;
  let books = 0;
  for (let i = 0; i < l.quotes.length; i++) {
    if ((l.quotes[i] as BookQuote).book === exclude) continue;
    const p = m.probs[i] as number | null;
    if (p === null) continue;
    sum += p;
    books += 1;
  }
  return books === 0 ? null : { pOver: sum / books, books };
}

/** The fair P(over) for judging one book's pair at a line (side-free: P(under) is 1 minus it). */
export interface FairOver {
  pOver: number;
  source: FairSource;
  books: number;
  thin: boolean;
}

/** The market-implied ladder's mean, with the books behind the main line it was solved from. */
type Implied = { mu: number | null; books: number } | null;

/** Each line's market, computed once, and the market-implied ladder anchored on the main line (both priceLadder and fairOverForBook read them). */
function ladderMarket(lines: readonly LadderLine[], dispersion: Dispersion | null): { markets: Map<LadderLine, LineMarket>; main: LadderLine | null; implied: Implied } {
  const markets = new Map<LadderLine, LineMarket>();
  for (const l of lines) markets.set(l, lineMarket(l));
  const main = mainLineOfMarkets(lines, markets);
  const anchor = main ? (markets.get(main) as LineMarket).every : null;
  const implied = main && anchor && dispersion && anchor.books >= MARKET_RULES.minConsensusBooks ? { mu: impliedMean(main.line, anchor.pOver, dispersion), books: anchor.books } : null;
  return { markets, main, implied };
}

/**
 * Prices every (line, side) of one player's stat in one game. `dispersion` is the stat's fitted
 * variance function; without it no rung is market-implied. Lines with no book quoting both sides
 * yield no rows (the triplet is hidden). Each quote is de-vigged once and each book's fair once per
 * line (both sides read it), instead of once per side and per other book.
 */
export function priceLadder(lines: readonly LadderLine[], dispersion: Dispersion | null, oneSided: OneSidedRuleFor | null = null): RowPricing[] {
  const { markets, main, implied } = ladderMarket(lines, dispersion);
  // A ladder no book prices on both sides takes its main line from the one-sided overs.
  const oneSidedMain = main === null && oneSided ? oneSidedMainLine(lines, oneSided) : null;

  const out: RowPricing[] = [];
  for (const l of lines) {
    const m = markets.get(l) as LineMarket;
    const rule = oneSided && isOneSidedLine(l) ? oneSided(l.line) : null;
    if (rule) {
      const row = priceOneSidedLine(l, rule, l === oneSidedMain, MARKET_RULES);
      if (row) out.push(row);
      continue;
    }
    const pairs: Array<{ quote: Candidate['quote']; fair: FairOver; booksum: number }> = [];
    for (let i = 0; i < l.quotes.length; i++) {
      if (m.probs[i] === null) continue;
      const quote = l.quotes[i] as Candidate['quote'];
      const booksum = 1 / (americanToDecimal(quote.over) as number) + 1 / (americanToDecimal(quote.under) as number);
      pairs.push({ quote, fair: fairOverFor(l, m, quote.book, implied, dispersion, l === main), booksum });
    }
    if (pairs.length === 0) continue;
    for (const side of ['over', 'under'] as const) {
      const candidates: Candidate[] = pairs.map(({ quote, fair: f, booksum }) => {
        const fair = { prob: side === 'over' ? f.pOver : 1 - f.pOver, source: f.source, books: f.books, thin: f.thin };
        const price = side === 'over' ? quote.over : quote.under;
        const decimal = americanToDecimal(price) as number;
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

/**
 * The fair P(over) at `line` for judging `book`'s price there, by exactly the rule priceLadder
 * graded with (fairOverFor over the same ladder and anchor): the one yardstick a claim's close is
 * read with (docs/ledger.md). The line need not be quoted any more: a rung no book prices is read
 * off the market-implied ladder when the main line supports one. Null when nothing prices it.
 */
export function fairOverForBook(lines: readonly LadderLine[], line: number, book: string, dispersion: Dispersion | null, oneSided: OneSidedRuleFor | null = null): FairOver | null {
  const { markets, main, implied } = ladderMarket(lines, dispersion);
  const at = lines.find((l) => l.line === line) ?? { line, quotes: [] };
  const rule = oneSided && isOneSidedLine(at) ? oneSided(line) : null;
  if (rule) return oneSidedFairOver(oneSidedBookFairs(at, rule), book, MARKET_RULES);
  const m = markets.get(at) ?? lineMarket(at);
  if (m.every === null) {
    // No book quotes the line now: only the market-implied ladder can price it.
    if (implied === null || implied.mu === null || !dispersion) return null;
    const p = overProbability(implied.mu, dispersion, line);
    return p > 0 && p < 1 ? { pOver: p, source: 'market_implied', books: implied.books, thin: false } : null;
  }
  return fairOverFor(at, m, book, implied, dispersion, main !== null && at.line === main.line);
}

/**
 * Fair P(over) for judging `book`'s pair at this line: consensus of the others, else implied (alt
 * rungs only: the main line is what the ladder is solved from, so read there it is the main line's
 * own all-books consensus, i.e. a thin consensus, and is named so), else thin, else own pair.
 */
function fairOverFor(l: LadderLine, m: LineMarket, book: string, implied: { mu: number | null; books: number } | null, dispersion: Dispersion | null, isMain: boolean): FairOver {
  const others = othersConsensus(l, m, book);
  if (others && others.books >= MARKET_RULES.minConsensusBooks) return { pOver: others.pOver, source: 'consensus', books: others.books, thin: false };
  if (!isMain && implied !== null && implied.mu !== null && dispersion) {
    m.implied ??= overProbability(implied.mu, dispersion, l.line);
    const p = m.implied;
    if (p > 0 && p < 1) return { pOver: p, source: 'market_implied', books: implied.books, thin: false };
  }
  // A thin consensus keeps the graded book's own pair in: with one or two other books, its price is
  // part of what the market knows, and leaving it out lets one other book set the fair.
  const every = m.every as Consensus;
  if (others) return { pOver: every.pOver, source: 'consensus', books: every.books, thin: true };
  return { pOver: every.pOver, source: 'book', books: 1, thin: true };
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
  return pickMainLine(lines, (l) => consensusOver(l.quotes));
}

function mainLineOfMarkets<T extends LadderLine>(lines: readonly T[], markets: ReadonlyMap<LadderLine, LineMarket>): T | null {
  return pickMainLine(lines, (l) => (markets.get(l) as LineMarket).every);
}

function pickMainLine<T extends LadderLine>(lines: readonly T[], consensusOf: (l: T) => Consensus | null): T | null {
  let best: { l: T; books: number; distance: number } | null = null;
  for (const l of lines) {
    const c = consensusOf(l);
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
