import type { PlayerGameStat } from '../domain/entities.js';
import { GRADED_SPORTS, type GradedSport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { newestLineId, playerLinesBefore, sportLinesBetween, teamLinesBetween } from '../store/repo/game-stats.js';
import { latestSnapshot } from '../store/repo/snapshots.js';
import type { CacheSpec } from '../store/cache.js';
import type { LiveFreshness } from '../domain/freshness.js';
import { storeMemo } from './memo.js';
import { resolvePlayer, type PlayerCandidate, type PlayerSuggestion } from './player-lookup.js';

/**
 * What the stats views (issue 17; docs/stats.md) share: their cache TTLs, the version of the
 * stored data a cached value was computed from, the stored lines of a player or team as of the
 * clock, and the name resolution every player view goes through.
 */

/**
 * TTLs of the stats views in the one context cache (src/store/cache.ts). The spec gives
 * arsenal 24 h and lineups 10 min; the rest are propgrade's choices (docs/stats.md):
 * - depth: a roster changes with transactions, a few times a week: one hour;
 * - game: a provider box score changes while the game is played: five minutes;
 * - store: player, leaders and cascade are computed from the store and keyed by the version of
 *   the data they read (new lines or a new snapshot make a new key), so the TTL only bounds how
 *   long an unchanged answer is reused: 15 minutes, as the team hub;
 * - showcase: keyed by the snapshot it reads; six hours, the spec's grades cache.
 */
export const STATS_CACHE = {
  arsenal: { ttlSeconds: 24 * 3600, maxStaleSeconds: 7 * 86_400 },
  lineup: { ttlSeconds: 10 * 60, maxStaleSeconds: 12 * 3600 },
  depth: { ttlSeconds: 3600, maxStaleSeconds: 3 * 86_400 },
  game: { ttlSeconds: 5 * 60, maxStaleSeconds: 2 * 86_400 },
  store: { ttlSeconds: 15 * 60, maxStaleSeconds: 15 * 60 },
  showcase: { ttlSeconds: 6 * 3600, maxStaleSeconds: 6 * 3600 },
} as const satisfies Record<string, CacheSpec>;

/**
 * Player, leaders and cascade values kept in process (reads/memo.ts), at most this many of each
 * read. They were kv_cache rows, one per distinct read and never deleted (1,000 reads: +4.6 MB;
 * issue 40); they are computed from the store alone, so a restart only computes them again.
 */
export const STATS_MEMO_ENTRIES = { player: 2000, leaders: 200, cascade: 1000 } as const;

/** A store-derived value with the data-clock time it was computed at. */
export interface Computed<T> {
  at: string;
  value: T;
}

export const statsMemos = {
  player: storeMemo<Computed<unknown>>(STATS_MEMO_ENTRIES.player),
  leaders: storeMemo<Computed<unknown>>(STATS_MEMO_ENTRIES.leaders),
  cascade: storeMemo<Computed<unknown>>(STATS_MEMO_ENTRIES.cascade),
};

/**
 * A store-derived stats value: kept under `key` (which names the data version it read) for the
 * store TTL on the data clock, as the kv cache kept it, and never served to a clock before the one
 * it was computed at; `refresh` computes it again. The answer's freshness fields say when.
 */
export async function storeDerived<T>(
  memo: keyof typeof statsMemos,
  deps: { store: Store; now: Date },
  key: string,
  refresh: boolean | undefined,
  compute: () => Promise<T>,
): Promise<{ value: T } & LiveFreshness> {
  const m = statsMemos[memo];
  const now = deps.now.toISOString();
  const kept = m.peek(deps.store, key);
  if (kept && (refresh || kept.at > now || ageSeconds(kept.at, deps.now) >= STATS_CACHE.store.ttlSeconds)) m.delete(deps.store, key);
  const entry = (await m.get(deps.store, key, async () => ({ at: now, value: await compute() }))) as Computed<T>;
  return { value: entry.value, fetchedAt: entry.at, ageSeconds: ageSeconds(entry.at, deps.now), stale: false };
}

const ageSeconds = (at: string, now: Date) => Math.max(0, Math.floor((now.getTime() - Date.parse(at)) / 1000));

/** The stored data a store-derived value depends on: the newest game line and the newest snapshot of the sport. */
export async function dataVersion(store: Store, sport: GradedSport): Promise<string> {
  const [lines, latest] = await Promise.all([newestLineId(store, sport), latestSnapshot(store, sport)]);
  const snapshot = latest?.id ?? 0;
  return `v${lines}.${snapshot}`;
}


/**
 * Stored lines are read as of the clock: only games dated before the clock's ET date. A line dated
 * today can only be in the store once its game was settled, which a replayed or pinned clock has
 * not reached yet (the model reads history the same way: historyBefore).
 */
export function playerLines(store: Store, sport: GradedSport, playerKey: string, today: string): Promise<PlayerGameStat[]> {
  return playerLinesBefore(store, sport, playerKey, today);
}

/** Every stored line of a sport in [from, until), before `today`. */
export function sportLines(store: Store, sport: GradedSport, from: string, until: string, today: string): Promise<PlayerGameStat[]> {
  const end = until < today ? until : today;
  return sportLinesBetween(store, sport, from, end);
}

// ---- name resolution ----

/** A name that did not resolve to one player: the candidates (never a guess) or did-you-mean suggestions. */
export type Unresolved =
  | { status: 'ambiguous'; query: string; candidates: PlayerCandidate[] }
  | { status: 'unknown'; query: string; suggestions: PlayerSuggestion[] };

export type Resolved = { status: 'resolved'; sport: GradedSport; key: string; name: string };

/** The player lookup of scan and parlay (src/reads/player-lookup.ts) over one sport or all. */
export async function resolveStatsPlayer(store: Store, query: string, sport?: GradedSport): Promise<Resolved | Unresolved> {
  const r = await resolvePlayer(store, query, sport ? [sport] : GRADED_SPORTS);
  if (r.status === 'resolved') return r;
  if (r.status === 'ambiguous') return { status: 'ambiguous', query, candidates: r.candidates };
  return { status: 'unknown', query, suggestions: r.suggestions };
}

/** A name that did not resolve, in any view (players, pitchers). */
export type UnresolvedName =
  | { status: 'ambiguous'; query: string; candidates: ReadonlyArray<{ name: string; sport?: string; team?: string | null; mlbamId?: number }> }
  | { status: 'unknown'; query: string; suggestions: ReadonlyArray<{ name: string }> };

/** One line for a name that did not resolve (CLI message, HTTP error message). */
export function unresolvedMessage(u: UnresolvedName, what = 'player'): string {
  if (u.status === 'ambiguous') {
    const names = u.candidates.map((c) => `${c.name} (${[c.sport, c.team, c.mlbamId === undefined ? undefined : `MLBAM ${c.mlbamId}`].filter(Boolean).join(', ')})`).join(', ');
    const again = u.candidates.some((c) => c.mlbamId !== undefined) ? 'ask again with the full name or the MLBAM id' : 'ask again with the full name';
    return `'${u.query}' is ambiguous: ${u.candidates.length} ${what}s match (${names}); nothing is shown for a guess, ${again}`;
  }
  const dym = u.suggestions.length > 0 ? `; did you mean ${u.suggestions.map((s) => s.name).join(', ')}?` : '';
  return `no ${what} '${u.query}' in the store${dym}`;
}

/** Every stored line of one team from `from` (inclusive) to before `today`. */
export function teamLines(store: Store, sport: GradedSport, team: string, from: string, today: string): Promise<PlayerGameStat[]> {
  return teamLinesBetween(store, sport, team, from, today);
}
