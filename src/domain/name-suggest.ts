import { normalizeName } from './names.js';
import type { GradedSport } from './sports.js';

/**
 * "Did you mean" for a player name that resolved to nobody: near misses ranked by edit distance.
 * The distance is quadratic in the lengths, so it runs only on the players a bigram index lets
 * through: a player whose key (or surname) shares too few letter pairs with the typed name cannot
 * reach the similarity bound (the q-gram lemma below), and is never compared. The index is built
 * once per player set (src/reads/player-lookup.ts keeps it per snapshot and stored history), so a
 * request costs the query's letter pairs plus a few exact comparisons, not one per known player.
 */

export interface SuggestionPlayer {
  name: string;
  key: string;
  sport: GradedSport;
}

/** A near miss for an unknown name: a real player, and how close the typed name came. */
export interface PlayerSuggestion extends SuggestionPlayer {
  /** `nameSimilarity` of the typed name to this player, in [MIN_SUGGESTION_SIMILARITY, 1]. */
  similarity: number;
}

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

/** Letter pairs of a string padded with a start and an end mark, with their counts (code points). */
function bigrams(text: string): { length: number; grams: Map<string, number> } {
  const letters = ['\u0002', ...text, '\u0003'];
  const grams = new Map<string, number>();
  for (let i = 1; i < letters.length; i++) {
    const g = letters[i - 1]! + letters[i]!;
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return { length: letters.length - 2, grams };
}

interface Form {
  length: number;
  /** Players whose whole key is this form, and players with this as a surname form. */
  whole: number[];
  surname: number[];
}

/**
 * Players indexed by the letter pairs of their keys and surname forms, for `rank`. Immutable once
 * built: one instance may serve every request over the same player set.
 */
export class SuggestionIndex {
  private readonly players: SuggestionPlayer[];
  private readonly forms: Form[] = [];
  /** Letter pair -> [form, count of the pair in the form]. */
  private readonly postings = new Map<string, Array<[number, number]>>();

  constructor(players: Iterable<SuggestionPlayer>) {
    this.players = [...players];
    const formIds = new Map<string, number>();
    const formOf = (text: string): Form => {
      let id = formIds.get(text);
      if (id === undefined) {
        id = this.forms.length;
        formIds.set(text, id);
        const { length, grams } = bigrams(text);
        this.forms.push({ length, whole: [], surname: [] });
        for (const [g, n] of grams) {
          const list = this.postings.get(g);
          if (list) list.push([id, n]);
          else this.postings.set(g, [[id, n]]);
        }
      }
      return this.forms[id]!;
    };
    this.players.forEach((p, i) => {
      formOf(p.key).whole.push(i);
      for (const f of surnameForms(p.key.split(' '))) formOf(f).surname.push(i);
    });
  }

  get size(): number {
    return this.players.length;
  }

  /**
   * The forms `text` may be within `minSimilarity` of. With d the distance and L the longer
   * length, similarity >= m means d <= (1 - m) L, and d >= the difference of the lengths. Each
   * edit changes at most 3 of a string's padded letter pairs (a transposition 3, any other 2), so
   * the two share at least L + 1 - 3d pairs (counted with repeats), which is positive for m >= 2/3:
   * a form sharing no pair is never a candidate, and the postings of the query's pairs hold all.
   */
  private near(text: string, minSimilarity: number): Form[] {
    const { length, grams } = bigrams(text);
    if (length === 0) return [];
    const shared = new Map<number, number>();
    for (const [g, n] of grams) {
      for (const [id, m] of this.postings.get(g) ?? []) shared.set(id, (shared.get(id) ?? 0) + Math.min(n, m));
    }
    const out: Form[] = [];
    const candidates: Iterable<number> = minSimilarity >= 2 / 3 ? shared.keys() : this.forms.keys();
    for (const id of candidates) {
      const form = this.forms[id]!;
      const longer = Math.max(length, form.length);
      const maxEdits = Math.floor((1 - minSimilarity) * longer + 1e-9);
      if (Math.abs(length - form.length) > maxEdits) continue;
      if ((shared.get(id) ?? 0) < longer + 1 - 3 * maxEdits) continue;
      out.push(form);
    }
    return out;
  }

  /**
   * Positions (in the order given) of the players whose `suggestionScore` against `queryKey` may
   * reach MIN_SUGGESTION_SIMILARITY: a superset of the suggestions, never a miss; `rank` compares
   * only these.
   */
  candidates(queryKey: string): Set<number> {
    const ids = new Set<number>();
    for (const f of this.near(queryKey, MIN_SUGGESTION_SIMILARITY)) for (const i of f.whole) ids.add(i);
    const words = queryKey.split(' ');
    // A surname match counts in full for a one-word query, less at least the smaller penalty otherwise.
    const [word, bound] = words.length === 1 ? [queryKey, MIN_SUGGESTION_SIMILARITY] : [words.at(-1)!, MIN_SUGGESTION_SIMILARITY + SURNAME_SAME_INITIAL_PENALTY];
    for (const f of this.near(word, bound)) for (const i of f.surname) ids.add(i);
    return ids;
  }

  /**
   * "Did you mean": the players whose `suggestionScore` reaches MIN_SUGGESTION_SIMILARITY, best
   * first; a tie goes to the closer whole name ("Steph Curry": Stephen Curry before Seth Curry,
   * both 0.9 on the surname), then to the name. At most `limit`; the same name in two sports is two
   * suggestions.
   */
  rank(query: string, limit = MAX_SUGGESTIONS): PlayerSuggestion[] {
    const key = normalizeName(query).key;
    if (key.length === 0 || limit <= 0) return [];
    const ranked: Array<{ suggestion: PlayerSuggestion; score: number; whole: number }> = [];
    for (const i of [...this.candidates(key)].sort((a, b) => a - b)) {
      const p = this.players[i]!;
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
}

/** `SuggestionIndex#rank` over a player list used once (built here, dropped after). */
export function rankSuggestions(players: Iterable<SuggestionPlayer>, query: string, limit = MAX_SUGGESTIONS): PlayerSuggestion[] {
  return new SuggestionIndex(players).rank(query, limit);
}
