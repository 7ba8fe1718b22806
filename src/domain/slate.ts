import { devigTwoWay, DEFAULT_TWO_WAY_METHOD } from './devig.js';
import type { GameEvent, PropQuote } from './entities.js';
import { normalizeName } from './names.js';
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
  /** The allowed book with the best real price for this side (among books pricing both sides). */
  book: string | null;
  overOdds: number | null;
  underOdds: number | null;
  bookOdds: number | null;
  fairOdds: number | null;
  fairProb: number | null;
  overround: number | null;
  devigMethod: string | null;
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

/** True when a is a better price than b for the bettor (higher payout). */
function betterPrice(a: number, b: number): boolean {
  const payout = (x: number) => (x > 0 ? x / 100 : 100 / -x);
  return payout(a) > payout(b);
}

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
  for (const q of quotes) {
    if (q.line === null) continue; // a prop without a line cannot be graded or joined
    if (allowed && !allowed.has(q.book)) continue;
    const name = normalizeName(q.player);
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

/** Fair price of one side at one book, from that book's own pair; null when it cannot be de-vigged. */
export function bookSidePrice(prop: PropBooks | undefined, book: string | null, side: Side): { price: number; fairProb: number } | null {
  if (!prop || book === null) return null;
  const pair = prop.books.get(book);
  if (!pair) return null;
  const price = side === 'over' ? pair.over : pair.under;
  if (price === null) return null;
  const dv = devigTwoWay(pair.over, pair.under, DEFAULT_TWO_WAY_METHOD);
  const fairProb = dv.ok ? dv.probs[side === 'over' ? 0 : 1] : undefined;
  return fairProb === undefined ? null : { price, fairProb };
}

export function assembleSlate(grouped: ReadonlyMap<string, PropBooks>): PricedRow[] {
  const props = grouped;
  const mainLines = pickMainLines([...props.values()]);
  const rows: PricedRow[] = [];
  for (const prop of props.values()) {
    const isMainLine = mainLines.get(key(prop.eventId, prop.playerKey, prop.stat)) === prop.line;
    for (const side of ['over', 'under'] as const) {
      rows.push({
        eventId: prop.eventId,
        player: prop.display,
        playerKey: prop.playerKey,
        stat: prop.stat,
        line: prop.line,
        side,
        ...priceSide([...prop.books.values()], side),
        isMainLine,
        bookCount: prop.books.size,
      });
    }
  }
  return rows;
}

type SidePricing = Pick<PricedRow, 'book' | 'overOdds' | 'underOdds' | 'bookOdds' | 'fairOdds' | 'fairProb' | 'overround' | 'devigMethod'>;

const HIDDEN: SidePricing = {
  book: null,
  overOdds: null,
  underOdds: null,
  bookOdds: null,
  fairOdds: null,
  fairProb: null,
  overround: null,
  devigMethod: null,
};

/**
 * Best real price for the side among books that price both sides and de-vig cleanly, so the
 * fair figures come from exactly the pair the row shows. One-legged markets hide the triplet.
 */
function priceSide(pairs: BookPair[], side: Side): SidePricing {
  let best: { pair: BookPair; price: number; fair: { prob: number; odds: number | null; overround: number; method: string } } | null = null;
  for (const pair of pairs) {
    const price = side === 'over' ? pair.over : pair.under;
    if (price === null || pair.over === null || pair.under === null) continue;
    const dv = devigTwoWay(pair.over, pair.under, DEFAULT_TWO_WAY_METHOD);
    if (!dv.ok) continue;
    const i = side === 'over' ? 0 : 1;
    const prob = dv.probs[i];
    if (prob === undefined) continue;
    if (best === null || betterPrice(price, best.price) || (price === best.price && pair.book < best.pair.book)) {
      best = { pair, price, fair: { prob, odds: dv.fairAmerican[i] ?? null, overround: dv.overround, method: dv.method } };
    }
  }
  if (!best) return HIDDEN;
  return {
    book: best.pair.book,
    overOdds: best.pair.over,
    underOdds: best.pair.under,
    bookOdds: best.price,
    fairOdds: best.fair.odds,
    fairProb: best.fair.prob,
    overround: best.fair.overround,
    devigMethod: best.fair.method,
  };
}

/** Main line = offered by the most books; ties go to the line whose de-vigged P(over) is nearest 0.5. */
function pickMainLines(props: PropBooks[]): Map<string, number> {
  const best = new Map<string, { line: number; count: number; distance: number }>();
  for (const p of props) {
    const k = key(p.eventId, p.playerKey, p.stat);
    const count = p.books.size;
    const distance = meanOverDistance([...p.books.values()]);
    const cur = best.get(k);
    if (!cur || count > cur.count || (count === cur.count && (distance < cur.distance || (distance === cur.distance && p.line < cur.line)))) {
      best.set(k, { line: p.line, count, distance });
    }
  }
  return new Map([...best].map(([k, v]) => [k, v.line]));
}

function meanOverDistance(pairs: BookPair[]): number {
  const ps: number[] = [];
  for (const pair of pairs) {
    const dv = devigTwoWay(pair.over, pair.under, DEFAULT_TWO_WAY_METHOD);
    if (dv.ok && dv.probs[0] !== undefined) ps.push(dv.probs[0]);
  }
  if (ps.length === 0) return Number.POSITIVE_INFINITY;
  return Math.abs(ps.reduce((a, b) => a + b, 0) / ps.length - 0.5);
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

export function opponentOf(team: string | null, event: Pick<GameEvent, 'homeAbbr' | 'awayAbbr'>): string | null {
  if (team === null || event.homeAbbr === null || event.awayAbbr === null) return null;
  if (team === event.homeAbbr) return event.awayAbbr;
  if (team === event.awayAbbr) return event.homeAbbr;
  return null;
}
