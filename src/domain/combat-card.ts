import { classify } from './archetypes/classify.js';
import type { CombatProfile } from './archetypes/combat.js';
import type { Classification } from './archetypes/schema.js';
import { normalizeName } from './names.js';
import { impliedProbability } from './odds.js';
import type { GameStatus } from './entities.js';

/**
 * Fight cards (spec: Combat). Pure: joins an ESPN bout to The Odds API's MMA prices by both
 * fighters' normalized names, keeps the best price across the allowed books, reads each fighter's
 * combat style from what the card knows, and states a style-edge verdict that is a model read,
 * never a grade. Method, round and KO markets are data-limited: reported as such, never priced.
 */

/** Card-side inputs (the ESPN adapter's Fighter and Bout, narrowed to what this module reads). */
export interface CardFighter {
  name: string;
  key: string;
  athleteId: string | null;
  record: string | null;
  country: string | null;
  winner: boolean | null;
}

export interface OddsBout {
  eventId: string;
  commenceTime: string;
  fighters: readonly [string, string];
  books: ReadonlyArray<{
    book: string;
    moneyline: ReadonlyArray<{ fighter: string; price: number | null }>;
    totals: ReadonlyArray<{ side: 'over' | 'under'; rounds: number | null; price: number | null }>;
  }>;
}

/** An Odds API bout is the same fight only if it starts within this window of ESPN's bout time. */
export const JOIN_WINDOW_HOURS = 48;

export const pairKey = (a: string, b: string): string => [normalizeName(a).key, normalizeName(b).key].sort().join('|');

export interface BestPrice {
  price: number;
  book: string;
}

export interface BoutOdds {
  /** The Odds API event id the bout joined to. */
  eventId: string;
  /** Books (allowed) that price this bout at all. */
  books: number;
  /** One entry per fighter, in the card's fighter order; null price when no allowed book quotes him. */
  moneyline: Array<{ fighter: string; best: BestPrice | null }>;
  /** Over/under on the number of rounds, one entry per line; empty when no book priced totals. */
  roundTotals: Array<{ rounds: number; over: BestPrice | null; under: BestPrice | null }>;
}

export type OddsJoin = { joined: true; odds: BoutOdds } | { joined: false; reason: string };

function better(a: number, b: number): boolean {
  const pa = impliedProbability(a);
  const pb = impliedProbability(b);
  return pa !== null && pb !== null && pa < pb;
}

function keep(cur: BestPrice | null, price: number | null, book: string): BestPrice | null {
  if (price === null || !Number.isFinite(price) || impliedProbability(price) === null) return cur;
  return cur === null || better(price, cur.price) ? { price, book } : cur;
}

/**
 * The Odds API bout for a card bout: same two fighters by normalized name (either order) and a
 * start within JOIN_WINDOW_HOURS. No such bout, or two of them: no odds, and the reason says so.
 */
export function joinBoutOdds(fighters: readonly [CardFighter, CardFighter], boutDate: string | null, odds: readonly OddsBout[], allowedBooks: readonly string[] | null): OddsJoin {
  const key = [fighters[0].key, fighters[1].key].sort().join('|');
  const when = boutDate === null ? null : Date.parse(boutDate);
  const candidates = odds.filter((o) => {
    if (pairKey(o.fighters[0], o.fighters[1]) !== key) return false;
    if (when === null || Number.isNaN(when)) return true;
    const t = Date.parse(o.commenceTime);
    return Number.isNaN(t) || Math.abs(t - when) <= JOIN_WINDOW_HOURS * 3_600_000;
  });
  if (candidates.length === 0) return { joined: false, reason: "no Odds API bout joins both fighters by name" };
  if (candidates.length > 1) return { joined: false, reason: `${candidates.length} Odds API bouts match these fighters; not guessing which` };
  const o = candidates[0]!;
  const allowed = allowedBooks ? new Set(allowedBooks) : null;
  const books = [...o.books].filter((b) => !allowed || allowed.has(b.book)).sort((a, b) => a.book.localeCompare(b.book));
  const ml = fighters.map((f) => ({ fighter: f.name, key: f.key, best: null as BestPrice | null }));
  const totals = new Map<number, { over: BestPrice | null; under: BestPrice | null }>();
  for (const b of books) {
    for (const m of b.moneyline) {
      const entry = ml.find((x) => x.key === normalizeName(m.fighter).key);
      if (entry) entry.best = keep(entry.best, m.price, b.book);
    }
    for (const t of b.totals) {
      if (t.rounds === null) continue;
      const line = totals.get(t.rounds) ?? { over: null, under: null };
      line[t.side] = keep(line[t.side], t.price, b.book);
      totals.set(t.rounds, line);
    }
  }
  return {
    joined: true,
    odds: {
      eventId: o.eventId,
      books: books.filter((b) => b.moneyline.length > 0 || b.totals.length > 0).length,
      moneyline: ml.map(({ fighter, best }) => ({ fighter, best })),
      roundTotals: [...totals.entries()].sort(([a], [b]) => a - b).map(([rounds, sides]) => ({ rounds, ...sides })),
    },
  };
}

/** "10-3-0" (W-L-D) into numbers; anything else is unknown. */
export function parseRecord(record: string | null): { wins: number; losses: number; draws: number } | null {
  const m = record ? /^\s*(\d+)-(\d+)(?:-(\d+))?/.exec(record) : null;
  return m ? { wins: Number(m[1]), losses: Number(m[2]), draws: Number(m[3] ?? '0') } : null;
}

/**
 * The combat profile a fight card supports: fights and wins from the record, every style input
 * (method split, strike and takedown rates, where strikes land) unknown. classify() needs two of
 * the three families, so a card alone is thin data and the style is empty, never guessed.
 */
export function cardProfile(f: CardFighter): CombatProfile | null {
  const r = parseRecord(f.record);
  if (!r) return null;
  return {
    fights: r.wins + r.losses + r.draws,
    wins: r.wins,
    ko_wins: null,
    sub_wins: null,
    dec_wins: null,
    slpm: null,
    sapm: null,
    td15: null,
    sub_att15: null,
    distance_share: null,
    clinch_share: null,
    ground_share: null,
    avg_fight_minutes: null,
  };
}

export function fighterStyle(profile: CombatProfile | null): Classification | null {
  return profile === null ? null : classify('mma', profile);
}

/**
 * Style matchups the model reads (docs/context.md): +1 when the row style tends to beat the column
 * style. Wrestlers take strikers down; submission grapplers catch wrestlers in scrambles; range
 * strikers keep grapplers standing; counter strikers punish pressure; pressure smothers kickboxers.
 */
// A pair of styles not listed here is neutral: neither tends to beat the other (0 in the score).
const EDGE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  WRESTLER: { STRIKER: 1, KICKBOXER: 1, GRAPPLER: -1 },
  GRAPPLER: { WRESTLER: 1, STRIKER: -1, KICKBOXER: -1 },
  STRIKER: { GRAPPLER: 1, WRESTLER: -1 },
  KICKBOXER: { GRAPPLER: 1, WRESTLER: -1, PRESSURE: -1 },
  PRESSURE: { KICKBOXER: 1, COUNTER: -1 },
  COUNTER: { PRESSURE: 1 },
};

/** |score| below this is no edge. */
export const EDGE_THRESHOLD = 0.25;

export interface StyleEdge {
  /** Always 'model read, not a grade': a matchup opinion, never settled or recorded. */
  kind: 'model read, not a grade';
  /** The fighter the styles favour; null when even or unreadable. */
  edge: string | null;
  /** Blend-weighted matchup score for the first fighter, in [-1, 1]; null when a style is missing. */
  score: number | null;
  reason: string;
}

export function styleEdge(a: { name: string; style: Classification | null }, b: { name: string; style: Classification | null }): StyleEdge {
  const kind = 'model read, not a grade' as const;
  const thin = [a, b].filter((f) => f.style === null).map((f) => f.name);
  if (thin.length > 0) return { kind, edge: null, score: null, reason: `no read: thin data for ${thin.join(' and ')} (a fight card carries only the record, not the method split or strike and takedown rates)` };
  let score = 0;
  for (const x of a.style!.blend) for (const y of b.style!.blend) score += x.weight * y.weight * (EDGE[x.id]?.[y.id] ?? 0);
  score = Math.round(score * 1000) / 1000;
  if (Math.abs(score) < EDGE_THRESHOLD) return { kind, edge: null, score, reason: `even: ${a.style!.primary} vs ${b.style!.primary}` };
  const winner = score > 0 ? a : b;
  const loser = score > 0 ? b : a;
  return { kind, edge: winner.name, score, reason: `${winner.style!.primary} tends to beat ${loser.style!.primary}` };
}

/**
 * A bout's status as of the data clock. A card recorded before fight night still says
 * 'scheduled'; once the clock is past the bout's start that is no longer true, and the result is
 * not in the recording, so the status is 'unknown' (never a guessed 'final').
 */
export function boutStatusAt(recorded: GameStatus, start: string | null, now: Date): GameStatus {
  if (recorded !== 'scheduled' || start === null) return recorded;
  const at = Date.parse(start);
  return Number.isFinite(at) && at <= now.getTime() ? 'unknown' : recorded;
}
