import { normalizeName } from '../domain/names.js';
import { PlayerIndex, searchPlayers } from '../domain/player-index.js';
import type { GradedSport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { storedNames } from '../store/repo/game-stats.js';
import { boardNames, boardNamesOf } from '../store/repo/graded-rows.js';
import { latestSnapshot } from '../store/repo/snapshots.js';

/**
 * Resolves a typed player name against the players the store knows: every name in the stored
 * game history plus every name on the sport's latest snapshot (a rookie with no history yet is
 * still a real player on the board). Never guesses: an exact key or a unique surname resolves,
 * anything else is ambiguous (naming the candidates) or unknown. An unknown name carries ranked
 * near-miss `suggestions` ("did you mean"), which never resolve it.
 */

export interface PlayerCandidate {
  name: string;
  key: string;
  sport: GradedSport;
}

/** A near miss for an unknown name: a real player the store knows, and how close the typed name came. */
export interface PlayerSuggestion extends PlayerCandidate {
  /** `nameSimilarity` of the typed name to this player, in [MIN_SUGGESTION_SIMILARITY, 1]. */
  similarity: number;
}

export type PlayerResolution =
  | { status: 'resolved'; sport: GradedSport; key: string; name: string }
  | { status: 'ambiguous'; candidates: PlayerCandidate[] }
  /** Nothing matched. `suggestions` are "did you mean" names for the message, best first; never a resolution. */
  | { status: 'unknown'; candidates: []; suggestions: PlayerSuggestion[] };

/** How many candidates an ambiguous answer names. */
export const MAX_CANDIDATES = 8;

/** How many suggestions an unknown answer names. */
export const MAX_SUGGESTIONS = 5;

/**
 * The similarity bound for a suggestion. Similarity is 1 - d / (length of the longer key), d the
 * Damerau-Levenshtein distance (optimal string alignment) of the normalized keys. 0.75 allows one
 * edit in four letters: "Jalen Brunsonn" (0.93), "Brunsn" (0.86 against the surname "brunson"),
 * "Jaelen Brunson" (0.93); a different player who only shares a first name ("Jalen Williams"
 * for "Jalen Brunsonn", 0.50) or a surname with a different first initial stays out.
 */
export const MIN_SUGGESTION_SIMILARITY = 0.75;

/** A surname match under a typed given name ranks below a whole-name match of the same closeness: */
const SURNAME_SAME_INITIAL_PENALTY = 0.1;
/** and a different first initial puts it under the bound, alone ("Dennis Smith" is not "Jalen Smith"). */
const SURNAME_OTHER_INITIAL_PENALTY = 0.3;

export function knownPlayers(store: Store, sport: GradedSport): PlayerIndex {
  const index = new PlayerIndex();
  for (const name of storedNames(store.db, sport)) index.add(name);
  const snapshot = latestSnapshot(store.db, sport);
  if (snapshot) for (const name of boardNames(store.db, snapshot.id)) index.add(name);
  return index;
}

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
 * Optimal-string-alignment distance (Damerau-Levenshtein without repeated edits of one
 * substring): insertions, deletions, substitutions and adjacent transpositions ("Brusnon") each
 * cost 1. Over code points, so an accented letter is one letter.
 */
export function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, prevPrev[j - 2]! + 1);
      row.push(d);
    }
    prevPrev = prev;
    prev = row;
  }
  return prev[t.length]!;
}

/** 1 - distance / longer length: 1 for equal strings, 0 for nothing in common. */
export function nameSimilarity(a: string, b: string): number {
  const longer = Math.max([...a].length, [...b].length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}

/** Surname forms of a key: everything after the first name, and the last token ("karl anthony towns": "anthony towns", "towns"). */
function surnameForms(tokens: readonly string[]): string[] {
  if (tokens.length < 2) return [];
  const rest = tokens.slice(1).join(' ');
  const last = tokens.at(-1)!;
  return rest === last ? [rest] : [rest, last];
}

/**
 * How close a typed key comes to a player's key: the best of the whole name; for a one-word query,
 * each surname form; for a query with a given name, its last word against the player's surname
 * forms, less a penalty (more with a different first initial) so whole-name matches rank first.
 */
export function suggestionScore(queryKey: string, playerKey: string): number {
  const q = queryKey.split(' ');
  const p = playerKey.split(' ');
  let best = nameSimilarity(queryKey, playerKey);
  const forms = surnameForms(p);
  if (q.length === 1) {
    for (const f of forms) best = Math.max(best, nameSimilarity(queryKey, f));
  } else {
    const penalty = q[0]![0] === p[0]![0] ? SURNAME_SAME_INITIAL_PENALTY : SURNAME_OTHER_INITIAL_PENALTY;
    const lastWord = q.at(-1)!;
    for (const f of forms) best = Math.max(best, nameSimilarity(lastWord, f) - penalty);
  }
  return best;
}

/**
 * "Did you mean": the players whose `suggestionScore` reaches MIN_SUGGESTION_SIMILARITY, best
 * first; a tie goes to the closer whole name ("Steph Curry": Stephen Curry before Seth Curry,
 * both 0.9 on the surname), then to the name. At most `limit`; the same name in two sports is two
 * suggestions.
 */
export function rankSuggestions(
  players: Iterable<{ name: string; key: string; sport: GradedSport }>,
  query: string,
  limit = MAX_SUGGESTIONS,
): PlayerSuggestion[] {
  const key = normalizeName(query).key;
  if (key.length === 0 || limit <= 0) return [];
  const ranked: Array<{ suggestion: PlayerSuggestion; score: number; whole: number }> = [];
  for (const p of players) {
    const score = suggestionScore(key, p.key);
    if (score < MIN_SUGGESTION_SIMILARITY) continue;
    ranked.push({ suggestion: { name: p.name, key: p.key, sport: p.sport, similarity: Math.round(score * 1000) / 1000 }, score, whole: nameSimilarity(key, p.key) });
  }
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      b.whole - a.whole ||
      a.suggestion.name.localeCompare(b.suggestion.name, 'en') ||
      a.suggestion.sport.localeCompare(b.suggestion.sport),
  );
  return ranked.slice(0, limit).map((r) => r.suggestion);
}

function* indexedPlayers(indexes: ReadonlyArray<{ sport: GradedSport; index: PlayerIndex }>): Generator<PlayerCandidate> {
  for (const { sport, index } of indexes) for (const e of index.entries()) yield { name: e.display, key: e.key, sport };
}

/** Near misses for a name among the players the store knows in `sports` (see `rankSuggestions`). */
export function suggestPlayers(store: Store, query: string, sports: readonly GradedSport[], limit = MAX_SUGGESTIONS): PlayerSuggestion[] {
  return rankSuggestions(indexedPlayers(sports.map((sport) => ({ sport, index: knownPlayers(store, sport) }))), query, limit);
}

export function resolvePlayer(store: Store, query: string, sports: readonly GradedSport[]): PlayerResolution {
  const key = normalizeName(query).key;
  if (key.length === 0) return { status: 'unknown', candidates: [], suggestions: [] };
  const exact = sports.map((sport) => exactKey(store, sport, key)).filter((c): c is PlayerCandidate => c !== null);
  const [first] = exact;
  if (exact.length === 1 && first) return { status: 'resolved', ...first };
  // The same name in two sports (points exists in nba and wnba) is not ours to pick.
  if (exact.length > 1) return { status: 'ambiguous', candidates: exact };

  const indexes = sports.map((sport) => ({ sport, index: knownPlayers(store, sport) }));
  const hits: PlayerCandidate[] = [];
  for (const { sport, index } of indexes) {
    const m = index.lookup(query);
    if (m) hits.push({ name: m.display, key: m.key, sport });
  }
  const [only] = hits;
  if (hits.length === 1 && only) return { status: 'resolved', ...only };
  if (hits.length > 1) return { status: 'ambiguous', candidates: hits };
  const candidates = indexes.flatMap(({ sport, index }) => searchPlayers(index, query, MAX_CANDIDATES).map((c) => ({ name: c.display, key: c.key, sport })));
  if (candidates.length === 0) return { status: 'unknown', candidates: [], suggestions: rankSuggestions(indexedPlayers(indexes), query) };
  return { status: 'ambiguous', candidates: candidates.slice(0, MAX_CANDIDATES) };
}
