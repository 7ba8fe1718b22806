import { devigTwoWay, DEFAULT_TWO_WAY_METHOD } from './devig.js';
import type { GameEvent, PropQuote } from './entities.js';
import { oneSidedRuleFor } from './model/fitted-one-sided-soccer.js';
import type { MarketPricing } from './model/grade-prop.js';
import { MARKET_RULES, priceLadder, type FairSource, type RowPricing } from './model/market.js';
import type { Dispersion } from './model/params.js';
import { fairAmerican } from './odds.js';
import { normalizeName, type NormalizedName } from './names.js';
import type { Side } from './sports.js';
import type { StatType } from './stats.js';

/**
 * Slate assembly: turns raw prop quotes into one priced row per (game, player, stat, line, side).
 * Pure: the pipeline supplies events, quotes and the player-team lookup; grading happens after.
 */

export interface PricedRow {
  eventId: string;
  player: string;
  playerKey: string;
  stat: StatType;
  line: number;
  side: Side;
  /** The allowed book with the best credible price for this side (priceLadder); null when no book prices both sides. */
  book: string | null;
  overOdds: number | null;
  underOdds: number | null;
  bookOdds: number | null;
  fairOdds: number | null;
  fairProb: number | null;
  overround: number | null;
  /** multiplicative (two-sided consensus), or one_sided_<family>[_gate_failed] on a one-sided soccer line (oneSidedDevigMethod). */
  devigMethod: string | null;
  /** Where fairProb came from: consensus of the other books, the market-implied ladder, or the book's own pair. */
  fairSource: FairSource | null;
  consensusBooks: number | null;
  thinConsensus: boolean | null;
  outlierPrice: boolean | null;
  gradedAtOutlier: boolean | null;
  outlier: { book: string; price: number } | null;
  /** Offered by the most books for this player and stat in this game. */
  isMainLine: boolean;
  /** Books quoting this exact line (either side). */
  bookCount: number;
}

export interface BookPair {
  book: string;
  over: number | null;
  under: number | null;
}

const key = (...parts: Array<string | number>) => parts.join('\u0001');

export interface AssembleOptions {
  /** Books whose prices may be used; null = all books in the feed. */
  allowedBooks: readonly string[] | null;
}

/** One prop (game, player, stat, line) with every allowed book's two-way pair. */
export interface PropBooks {
  eventId: string;
  playerKey: string;
  display: string;
  stat: StatType;
  line: number;
  books: Map<string, BookPair>;
}

export const propBooksKey = (eventId: string, playerKey: string, stat: string, line: number) => key(eventId, playerKey, stat, line);

/** Groups quotes by prop and book; names merge by normalized key, keeping the longest display. */
export function groupQuotes(quotes: readonly PropQuote[], options: AssembleOptions): Map<string, PropBooks> {
  const allowed = options.allowedBooks ? new Set(options.allowedBooks) : null;
  const props = new Map<string, PropBooks>();
  // Every book repeats the same few hundred names: normalize each spelling once.
  const names = new Map<string, NormalizedName>();
  for (const q of quotes) {
    if (q.line === null) continue; // a prop without a line cannot be graded or joined
    if (allowed && !allowed.has(q.book)) continue;
    let name = names.get(q.player);
    if (name === undefined) names.set(q.player, (name = normalizeName(q.player)));
    if (!name.key) continue;
    const k = propBooksKey(q.eventId, name.key, q.stat, q.line);
    let prop = props.get(k);
    if (!prop) {
      prop = { eventId: q.eventId, playerKey: name.key, display: name.display, stat: q.stat, line: q.line, books: new Map() };
      props.set(k, prop);
    } else if (name.display.length > prop.display.length) {
      prop.display = name.display;
    }
    const pair = prop.books.get(q.book) ?? { book: q.book, over: null, under: null };
    if (q.side === 'over') pair.over = q.price;
    else pair.under = q.price;
    prop.books.set(q.book, pair);
  }
  return props;
}

/** Fair price of one side at one book, from that book's own pair; null when it cannot be de-vigged or is an underround. */
export function bookSidePrice(prop: PropBooks | undefined, book: string | null, side: Side): { price: number; fairProb: number } | null {
  if (!prop || book === null) return null;
  const pair = prop.books.get(book);
  if (!pair) return null;
  const price = side === 'over' ? pair.over : pair.under;
  if (price === null) return null;
  const dv = devigTwoWay(pair.over, pair.under, DEFAULT_TWO_WAY_METHOD);
  // An underround pair is no fair price of its book, as in the consensus (market.ts multiplicativeOver).
  const fairProb = dv.ok && !dv.underround ? dv.probs[side === 'over' ? 0 : 1] : undefined;
  return fairProb === undefined ? null : { price, fairProb };
}

/**
 * One priced row per (game, player, stat, line, side): every line of a player's stat in a game is
 * priced together, because an alt rung's fair probability comes from the main line (priceLadder).
 * A line no book prices on both sides keeps its rows with the price triplet hidden, except a
 * one-sided soccer line, whose over is priced on the fitted one-sided fair (oneSidedRuleFor: null
 * for every other sport, so their ladders keep the ordinary de-vig).
 */
export function assembleSlate(grouped: ReadonlyMap<string, PropBooks>, dispersionFor: (stat: StatType) => Dispersion | null, sport: string): PricedRow[] {
  const ladders = new Map<string, PropBooks[]>();
  for (const prop of grouped.values()) {
    const k = key(prop.eventId, prop.playerKey, prop.stat);
    const list = ladders.get(k);
    if (list) list.push(prop);
    else ladders.set(k, [prop]);
  }
  const rows: PricedRow[] = [];
  for (const props of ladders.values()) {
    const first = props[0] as PropBooks;
    const display = props.reduce((d, p) => (p.display.length > d.length ? p.display : d), first.display);
    const priced = priceLadder(
      props.map((p) => ({ line: p.line, quotes: [...p.books.values()] })),
      dispersionFor(first.stat),
      (line) => oneSidedRuleFor(sport, first.stat, line),
    );
    const byLineSide = new Map(priced.map((r) => [`${r.line}|${r.side}`, r]));
    const mainLine = priced.find((r) => r.isMainLine)?.line ?? null;
    for (const prop of props) {
      for (const side of ['over', 'under'] as const) {
        const r = byLineSide.get(`${prop.line}|${side}`);
        rows.push({
          eventId: prop.eventId,
          player: display,
          playerKey: prop.playerKey,
          stat: prop.stat,
          line: prop.line,
          side,
          ...(r ? pricedFields(r) : HIDDEN),
          isMainLine: prop.line === mainLine,
          bookCount: prop.books.size,
        });
      }
    }
  }
  return rows;
}

type SidePricing = Omit<PricedRow, 'eventId' | 'player' | 'playerKey' | 'stat' | 'line' | 'side' | 'isMainLine' | 'bookCount'>;

const HIDDEN: SidePricing = {
  book: null,
  overOdds: null,
  underOdds: null,
  bookOdds: null,
  fairOdds: null,
  fairProb: null,
  overround: null,
  devigMethod: null,
  fairSource: null,
  consensusBooks: null,
  thinConsensus: null,
  outlierPrice: null,
  gradedAtOutlier: null,
  outlier: null,
};

/**
 * The devig_method a one-sided row is stored with: its family, and "_gate_failed" when its market
 * failed the held-out test, so a stored row re-read or re-graded keeps its cap (oneSidedPassedOf)
 * without a column of its own and whatever a later refit says.
 */
export function oneSidedDevigMethod(family: string, passed: boolean): string {
  return `${ONE_SIDED_PREFIX}${family}${passed ? '' : GATE_FAILED_SUFFIX}`;
}

const ONE_SIDED_PREFIX = 'one_sided_';
const GATE_FAILED_SUFFIX = '_gate_failed';

/** Whether a stored devig_method's one-sided market passed its gate; null for a two-sided (or unknown) method. */
export function oneSidedPassedOf(devigMethod: string | null): boolean | null {
  if (devigMethod === null || !devigMethod.startsWith(ONE_SIDED_PREFIX)) return null;
  return !devigMethod.endsWith(GATE_FAILED_SUFFIX);
}

function pricedFields(r: RowPricing): SidePricing {
  return {
    book: r.book,
    overOdds: r.overOdds,
    underOdds: r.underOdds,
    bookOdds: r.bookOdds,
    fairOdds: fairAmerican(r.fairProb),
    fairProb: r.fairProb,
    overround: r.overround,
    devigMethod: r.oneSided ? oneSidedDevigMethod(r.oneSided.family, r.oneSided.passed) : MARKET_RULES.consensusMethod,
    fairSource: r.fairSource,
    consensusBooks: r.consensusBooks,
    thinConsensus: r.thinConsensus,
    outlierPrice: r.outlierPrice,
    gradedAtOutlier: r.gradedAtOutlier,
    outlier: r.outlier,
  };
}

/** The row's market side as gradeProp takes it (a one-sided row's gate read off its devig_method); null when the triplet is hidden. */
export function marketPricingOf(r: Pick<PricedRow, 'bookOdds' | 'fairProb' | 'fairSource' | 'consensusBooks' | 'thinConsensus' | 'gradedAtOutlier' | 'devigMethod'>): MarketPricing | null {
  const { bookOdds, fairProb, fairSource, consensusBooks, thinConsensus, gradedAtOutlier } = r;
  if (bookOdds === null || fairProb === null || fairSource === null || consensusBooks === null || thinConsensus === null || gradedAtOutlier === null) return null;
  return { bookOdds, fairProb, fairSource, consensusBooks, thinConsensus, gradedAtOutlier, oneSidedPassed: oneSidedPassedOf(r.devigMethod) };
}

/** The same for a stored row: its graded price is the outlier when the flagged quote is the graded one. */
export function storedMarketPricing(
  r: Pick<PricedRow, 'bookOdds' | 'fairProb' | 'fairSource' | 'consensusBooks' | 'thinConsensus' | 'outlierPrice' | 'book' | 'devigMethod'> & { outlierBook: string | null },
): MarketPricing | null {
  const gradedAtOutlier = r.outlierPrice === null ? null : r.outlierPrice && r.outlierBook === r.book;
  return marketPricingOf({ ...r, gradedAtOutlier });
}

/** The game's participants as abbreviations, for the join invariant. */
export function participants(event: Pick<GameEvent, 'homeAbbr' | 'awayAbbr'>): string[] {
  return [event.homeAbbr, event.awayAbbr].filter((t): t is string => t !== null);
}

/**
 * Join invariant: a player whose real team is known and is not one of the game's teams is
 * dropped. An unknown team is not a reason to drop (the row will be a refusal), nor to guess.
 */
export function joinInvariant(team: string | null, event: Pick<GameEvent, 'homeAbbr' | 'awayAbbr'>): 'ok' | 'unknown' | 'mismatch' {
  if (team === null) return 'unknown';
  const teams = participants(event);
  if (teams.length < 2) return 'unknown';
  return teams.includes(team) ? 'ok' : 'mismatch';
}

/**
 * The player's team for this game: the team the game's own data names him for (probable pitcher,
 * posted lineup, box score) when it is one of the game's two teams, else his latest history row's.
 * A pitcher's first start after a trade is graded for his new team, not dropped as "team not in game".
 */
export function currentTeam(gameTeam: string | null, historyTeam: string | null, event: Pick<GameEvent, 'homeAbbr' | 'awayAbbr'>): string | null {
  return gameTeam !== null && joinInvariant(gameTeam, event) === 'ok' ? gameTeam : historyTeam;
}

export function opponentOf(team: string | null, event: Pick<GameEvent, 'homeAbbr' | 'awayAbbr'>): string | null {
  if (team === null || event.homeAbbr === null || event.awayAbbr === null) return null;
  if (team === event.homeAbbr) return event.awayAbbr;
  if (team === event.awayAbbr) return event.homeAbbr;
  return null;
}
