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

export function knownPlayers(store: Store, sport: GradedSport): PlayerIndex {
  const index = new PlayerIndex();
  for (const name of storedNames(store.db, sport)) index.add(name);
  const snapshot = latestSnapshot(store.db, sport);
  if (snapshot) for (const name of boardNames(store.db, snapshot.id)) index.add(name);
  return index;
}

// The ranking lives in the domain (pure); its names stay importable from here.
export { editDistance, MAX_SUGGESTIONS, MIN_SUGGESTION_SIMILARITY, nameSimilarity, rankSuggestions, suggestionScore } from '../domain/name-suggest.js';

/**
 * Fast path for an exact key: the stored rows already carry normalized keys (both indexed), so a
 * full name resolves without building the index. The longest stored spelling is the display.
 */
function exactKey(store: Store, sport: GradedSport, key: string): PlayerCandidate | null {
  const names = storedNames(store.db, sport, key);
  const snapshot = latestSnapshot(store.db, sport);
  if (snapshot) names.push(...boardNamesOf(store.db, snapshot.id, sport, key));
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

function knownOf(store: Store, sport: GradedSport): Known {
  const version = `${latestSnapshot(store.db, sport)?.id ?? 0}/${storedLinesVersion(store.db, sport)}`;
  let bySport = known.get(store);
  if (!bySport) known.set(store, (bySport = new Map()));
  const kept = bySport.get(sport);
  if (kept?.version === version) return kept;
  const index = knownPlayers(store, sport);
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
export function suggestPlayers(store: Store, query: string, sports: readonly GradedSport[], limit = MAX_SUGGESTIONS): PlayerSuggestion[] {
  return suggestAmong(sports.map((sport) => knownOf(store, sport)), query, limit);
}

export function resolvePlayer(store: Store, query: string, sports: readonly GradedSport[]): PlayerResolution {
  const key = normalizeName(query).key;
  if (key.length === 0) return { status: 'unknown', candidates: [], suggestions: [] };
  const exact = sports.map((sport) => exactKey(store, sport, key)).filter((c): c is PlayerCandidate => c !== null);
  const [first] = exact;
  if (exact.length === 1 && first) return { status: 'resolved', ...first };
  // The same name in two sports (points exists in nba and wnba) is not ours to pick.
  if (exact.length > 1) return { status: 'ambiguous', candidates: exact };

  const kept = sports.map((sport) => knownOf(store, sport));
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
