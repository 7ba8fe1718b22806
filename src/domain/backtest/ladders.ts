import { gradeProp } from '../model/grade-prop.js';
import { priceLadder, type BookQuote, type LadderLine, type RowPricing } from '../model/market.js';
import { marketDispersionFor, type ModelParams } from '../model/params.js';
import { normalizeName } from '../names.js';
import { profitPerUnit } from '../odds.js';
import type { GradedSport, Side } from '../sports.js';
import type { StatType } from '../stats.js';
import type { HistoryIndex } from './history.js';

/** One book's two-sided quote for a player's stat in one game, as the history files give it. */
export interface PropQuote {
  date: string;
  eventId: string | null;
  game: string;
  player: string;
  stat: StatType;
  line: number;
  book: string;
  overOdds: number | null;
  underOdds: number | null;
}

/** A player's stat in one game at one snapshot: every line with every book's pair (both sides only). */
export interface HistoricalLadder {
  date: string;
  game: string;
  player: string;
  playerKey: string;
  stat: StatType;
  lines: LadderLine[];
}

/** Groups prop rows into ladders per (date, player, game, stat); one-sided quotes are left out. */
export function ladders(props: readonly PropQuote[]): HistoricalLadder[] {
  const groups = new Map<string, HistoricalLadder & { byLine: Map<number, BookQuote[]> }>();
  for (const p of props) {
    if (p.overOdds === null || p.underOdds === null) continue;
    const name = normalizeName(p.player);
    const game = p.eventId ?? p.game;
    const k = `${p.date}|${name.key}|${game}|${p.stat}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { date: p.date, game, player: p.player, playerKey: name.key, stat: p.stat, lines: [], byLine: new Map() }));
    let quotes = g.byLine.get(p.line);
    if (!quotes) g.byLine.set(p.line, (quotes = []));
    quotes.push({ book: p.book, over: p.overOdds, under: p.underOdds });
  }
  const out: HistoricalLadder[] = [];
  for (const g of groups.values()) {
    const { byLine, ...ladder } = g;
    ladder.lines = [...byLine].sort((a, b) => a[0] - b[0]).map(([line, quotes]) => ({ line, quotes: quotes.sort((a, b) => (a.book < b.book ? -1 : 1)) }));
    out.push(ladder);
  }
  const order = (l: HistoricalLadder) => `${l.date}|${l.player}|${l.game}|${l.stat}`;
  return out.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** The fitted market dispersion for the sport's stat (null when none was fitted). */
export const dispersionOf = (params: ModelParams, stat: StatType, sport: GradedSport = 'nba') => marketDispersionFor(params, sport, stat);

/** The market half of gradeProp's input, taken from a priced rung. */
export function marketOf(r: RowPricing) {
  return { bookOdds: r.bookOdds, fairProb: r.fairProb, fairSource: r.fairSource, consensusBooks: r.consensusBooks, thinConsensus: r.thinConsensus, gradedAtOutlier: r.gradedAtOutlier };
}

/** A side's result against the real outcome; landing on the line is a push. */
export function settleSide(side: Side, line: number, actual: number): 'win' | 'loss' | 'push' {
  if (actual === line) return 'push';
  return (side === 'over' ? actual > line : actual < line) ? 'win' : 'loss';
}

/** Profit per unit staked at the American price (a push returns the stake). */
export function profitOf(result: 'win' | 'loss' | 'push', price: number): number {
  return result === 'win' ? profitPerUnit(price) : result === 'loss' ? -1 : 0;
}

/** Grades one ladder with the live rule; rows carry the market pricing and the grade (or the refusal). */
export function gradeLadder(ladder: HistoricalLadder, history: HistoryIndex, params: ModelParams, sport: GradedSport = 'nba') {
  const past = history.before(ladder.playerKey, ladder.date);
  return priceLadder(ladder.lines, dispersionOf(params, ladder.stat, sport)).map((pricing) => ({
    pricing,
    out: gradeProp({ sport, stat: ladder.stat, line: pricing.line, side: pricing.side, market: marketOf(pricing), history: past, gameDate: ladder.date }, params),
  }));
}
