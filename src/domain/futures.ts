import { normalizeName } from './names.js';
import { impliedProbability } from './odds.js';

/**
 * Futures boards (spec: Futures). Pure: per market, each selection at its best price across the
 * allowed books, and the move against the previous stored price computed on implied probability
 * (odds, never a line). A selection with no previous price has no prevPrice and no move.
 */

export type FuturesMove = 'shortening' | 'drifting' | 'flat';

/** One book's board for one outrights market, as the Odds API adapter reads it (American odds). */
export interface FuturesBoard {
  eventId: string;
  sportKey: string;
  title: string | null;
  book: string;
  lastUpdate: string | null;
  selections: ReadonlyArray<{ name: string; price: number | null }>;
}

export interface FuturesSelection {
  name: string;
  /** Best (longest) American price across the allowed books. */
  price: number;
  /** The book quoting it (the first in book order on a tie). */
  book: string;
  /** Books quoting this selection. */
  books: number;
  prevPrice?: number;
  move?: FuturesMove;
}

export interface FuturesMarket {
  key: string;
  title: string;
  selections: FuturesSelection[];
}

/** Implied probabilities closer than this are the same price (decimal to American rounding noise). */
export const FLAT_EPSILON = 1e-9;

/** The move from `prev` to `price` on implied probability: up is shortening, down drifting. */
export function moveOf(prev: number, price: number): FuturesMove | null {
  const p0 = impliedProbability(prev);
  const p1 = impliedProbability(price);
  if (p0 === null || p1 === null) return null;
  if (Math.abs(p1 - p0) <= FLAT_EPSILON) return 'flat';
  return p1 > p0 ? 'shortening' : 'drifting';
}

/** A longer price pays more: the best price for the bettor is the one with the lower implied probability. */
function better(a: number, b: number): boolean {
  const pa = impliedProbability(a);
  const pb = impliedProbability(b);
  return pa !== null && pb !== null && pa < pb;
}

const selectionKey = (name: string) => normalizeName(name).key || name.trim().toLowerCase();

/**
 * Markets from the books' boards: one market per futures key, each selection at its best price
 * among `allowedBooks` (null = every book). A selection no allowed book prices is left out, never
 * given a price. Favourites first.
 */
export function bestFutures(boards: readonly FuturesBoard[], allowedBooks: readonly string[] | null): FuturesMarket[] {
  const allowed = allowedBooks ? new Set(allowedBooks) : null;
  const markets = new Map<string, { title: string; picks: Map<string, FuturesSelection> }>();
  const ordered = [...boards].sort((a, b) => a.book.localeCompare(b.book));
  for (const board of ordered) {
    if (allowed && !allowed.has(board.book)) continue;
    const market = markets.get(board.sportKey) ?? { title: board.title ?? board.sportKey, picks: new Map() };
    markets.set(board.sportKey, market);
    for (const s of board.selections) {
      if (s.price === null || !Number.isFinite(s.price) || impliedProbability(s.price) === null) continue;
      const key = selectionKey(s.name);
      const cur = market.picks.get(key);
      if (!cur) market.picks.set(key, { name: s.name, price: s.price, book: board.book, books: 1 });
      else {
        cur.books += 1;
        if (better(s.price, cur.price)) Object.assign(cur, { price: s.price, book: board.book });
      }
    }
  }
  return [...markets.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, m]) => ({
      key,
      title: m.title,
      selections: [...m.picks.values()].sort(byFavourite),
    }));
}

/** Shortest price first, then by name. Every pick holds a price with an implied probability (bestFutures keeps no other). */
function byFavourite(a: { name: string; price: number }, b: { name: string; price: number }): number {
  return (impliedProbability(b.price) as number) - (impliedProbability(a.price) as number) || a.name.localeCompare(b.name);
}

/** Carries the previous stored price of each selection in and states the move; new selections get neither. */
export function withPreviousPrices(markets: readonly FuturesMarket[], previous: readonly FuturesMarket[] | null): FuturesMarket[] {
  const prev = new Map<string, number>();
  for (const m of previous ?? []) for (const s of m.selections) prev.set(`${m.key}|${selectionKey(s.name)}`, s.price);
  return markets.map((m) => ({
    ...m,
    selections: m.selections.map((s) => {
      const { prevPrice: _p, move: _m, ...rest } = s;
      const before = prev.get(`${m.key}|${selectionKey(s.name)}`);
      if (before === undefined) return rest;
      const move = moveOf(before, s.price);
      return move === null ? rest : { ...rest, prevPrice: before, move };
    }),
  }));
}
