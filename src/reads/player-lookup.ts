import { MAX_SUGGESTIONS, rankSuggestions, SuggestionIndex, type PlayerSuggestion } from '../domain/name-suggest.js';
import { normalizeName } from '../domain/names.js';
import { PlayerIndex, searchPlayers } from '../domain/player-index.js';
import type { PlayerCandidate } from '../domain/prop-evaluation.js';
import type { GradedSport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { storedLinesVersion, storedNames } from '../store/repo/game-stats.js';
import { boardNames, boardNamesOf } from '../store/repo/graded-rows.js';
import { latestSnapshot } from '../store/repo/snapshots.js';

/**
 * Resolves a typed player name against the players the store knows: every name in the stored
 * game history plus every name on the sport's latest snapshot (a rookie with no history yet is
 * still a real player on the board). Never guesses: an exact key or a unique surname resolves,
 * anything else is ambiguous (naming the candidates) or unknown. An unknown name carries ranked
 * near-miss `suggestions` ("did you mean"), which never resolve it.
 */

export type { PlayerCandidate, PlayerSuggestion };

export type PlayerResolution =
  | { status: 'resolved'; sport: GradedSport; key: string; name: string }
  | { status: 'ambiguous'; candidates: PlayerCandidate[] }
  /** Nothing matched. `suggestions` are "did you mean" names for the message, best first; never a resolution. */
  | { status: 'unknown'; candidates: []; suggestions: PlayerSuggestion[] };

/** How many candidates an ambiguous answer names. */
export const MAX_CANDIDATES = 8;

export async function knownPlayers(store: Store, sport: GradedSport): Promise<PlayerIndex> {
  const index = new PlayerIndex();
  for (const name of await storedNames(store, sport)) index.add(name);
  const snapshot = await latestSnapshot(store, sport);
  if (snapshot) for (const name of await boardNames(store, snapshot.id)) index.add(name);
  return index;
}

// The ranking lives in the domain (pure); its names stay importable from here.
export { editDistance, MAX_SUGGESTIONS, MIN_SUGGESTION_SIMILARITY, nameSimilarity, rankSuggestions, suggestionScore } from '../domain/name-suggest.js';

/**
 * Fast path for an exact key: the stored rows already carry normalized keys (both indexed), so a
 * full name resolves without building the index. The longest stored spelling is the display.
 */
async function exactKey(store: Store, sport: GradedSport, key: string): Promise<PlayerCandidate | null> {
  const [names, snapshot] = await Promise.all([storedNames(store, sport, key), latestSnapshot(store, sport)]);
  if (snapshot) names.push(...(await boardNamesOf(store, snapshot.id, sport, key)));
  if (names.length === 0) return null;
  const index = new PlayerIndex();
  for (const n of names) index.add(n);
  const entry = index.lookup(names[0]!);
  return { name: entry?.display ?? normalizeName(names[0]!).display, key, sport };
}

/**
 * The players a sport's store knows, indexed for lookup and for near misses, kept per store and
 * sport while its latest snapshot and its stored lines stay the same: building them goes over
 * every stored line (~24k for a season), which a request that misses an exact key must not pay.
 */
interface Known {
  version: string;
  index: PlayerIndex;
  suggestions: SuggestionIndex;
}

const known = new WeakMap<Store, Map<GradedSport, Known>>();

async function knownOf(store: Store, sport: GradedSport): Promise<Known> {
  const [latest, lines] = await Promise.all([latestSnapshot(store, sport), storedLinesVersion(store, sport)]);
  const version = `${latest?.id ?? 0}/${lines}`;
  let bySport = known.get(store);
  if (!bySport) known.set(store, (bySport = new Map()));
  const kept = bySport.get(sport);
  if (kept?.version === version) return kept;
  const index = await knownPlayers(store, sport);
  const fresh = { version, index, suggestions: new SuggestionIndex([...index.entries()].map((e) => ({ name: e.display, key: e.key, sport }))) };
  bySport.set(sport, fresh);
  return fresh;
}

/** Near misses among several sports' players: each sport's kept index, merged and re-ranked. */
function suggestAmong(known: ReadonlyArray<Known>, query: string, limit: number): PlayerSuggestion[] {
  const [only] = known;
  if (known.length === 1 && only) return only.suggestions.rank(query, limit);
  return rankSuggestions(known.flatMap((k) => k.suggestions.rank(query, limit)), query, limit);
}

/** Near misses for a name among the players the store knows in `sports` (see `rankSuggestions`). */
export async function suggestPlayers(store: Store, query: string, sports: readonly GradedSport[], limit = MAX_SUGGESTIONS): Promise<PlayerSuggestion[]> {
  return suggestAmong(await Promise.all(sports.map((sport) => knownOf(store, sport))), query, limit);
}

export async function resolvePlayer(store: Store, query: string, sports: readonly GradedSport[]): Promise<PlayerResolution> {
  const key = normalizeName(query).key;
  if (key.length === 0) return { status: 'unknown', candidates: [], suggestions: [] };
  const exact = (await Promise.all(sports.map((sport) => exactKey(store, sport, key)))).filter((c): c is PlayerCandidate => c !== null);
  const [first] = exact;
  if (exact.length === 1 && first) return { status: 'resolved', ...first };
  // The same name in two sports (points exists in nba and wnba) is not ours to pick.
  if (exact.length > 1) return { status: 'ambiguous', candidates: exact };

  const kept = await Promise.all(sports.map((sport) => knownOf(store, sport)));
  const indexes = kept.map(({ index }, i) => ({ sport: sports[i]!, index }));
  const hits: PlayerCandidate[] = [];
  for (const { sport, index } of indexes) {
    const m = index.lookup(query);
    if (m) hits.push({ name: m.display, key: m.key, sport });
  }
  const [only] = hits;
  if (hits.length === 1 && only) return { status: 'resolved', ...only };
  if (hits.length > 1) return { status: 'ambiguous', candidates: hits };
  const candidates = indexes.flatMap(({ sport, index }) => searchPlayers(index, query, MAX_CANDIDATES).map((c) => ({ name: c.display, key: c.key, sport })));
  if (candidates.length === 0) return { status: 'unknown', candidates: [], suggestions: suggestAmong(kept, query, MAX_SUGGESTIONS) };
  return { status: 'ambiguous', candidates: candidates.slice(0, MAX_CANDIDATES) };
}
