import { foldName, looseKey, normalizeName } from './names.js';

export interface PlayerMatch<T> {
  display: string;
  key: string;
  meta: T[];
}

export interface PlayerCandidate {
  display: string;
  key: string;
}

interface Entry<T> {
  display: string;
  key: string;
  meta: T[];
  /** Distinct real identities (e.g. MLBAM ids) seen under this key, when the index knows them. */
  identities: Set<string>;
}

export interface PlayerIndexOptions<T> {
  /**
   * The real identity behind a meta (a provider person id). When given, a key shared by two
   * identities is ambiguous and `lookup` returns null: Savant 2025 has two pitchers named
   * Luis Garcia (472610 and 677651).
   */
  identityOf?: (meta: T) => string | number | null | undefined;
}

/** Code points, so a precomposed accent counts as one letter. */
function letterCount(text: string): number {
  return [...text].length;
}

function nonAscii(text: string): number {
  return [...text].filter((c) => c.charCodeAt(0) > 127).length;
}

/** Spec: variants sharing a key keep the longest display; on a tie the accented spelling wins. */
function betterDisplay(current: string, candidate: string): boolean {
  const diff = letterCount(candidate) - letterCount(current);
  if (diff !== 0) return diff > 0;
  return nonAscii(candidate) > nonAscii(current);
}

/** Surname forms a bare-surname query may match: everything after the first name, and the last token. */
function surnames(key: string): string[] {
  const tokens = key.split(' ');
  if (tokens.length < 2) return [];
  const rest = tokens.slice(1).join(' ');
  const lastToken = tokens.at(-1) ?? rest;
  return rest === lastToken ? [rest] : [rest, lastToken];
}

function addTo(index: Map<string, Set<string>>, form: string, key: string): void {
  const keys = index.get(form) ?? new Set<string>();
  keys.add(key);
  index.set(form, keys);
}

/**
 * Name -> player resolution by normalized key. Never guesses: a query that does not hit a key
 * exactly resolves only through a form shared by exactly one indexed player — the key without a
 * middle initial ("Luis Ortiz" -> "Luis L. Ortiz"), then a bare surname ("Jokic").
 */
export class PlayerIndex<T = unknown> {
  private readonly byKey = new Map<string, Entry<T>>();
  private readonly bySurname = new Map<string, Set<string>>();
  private readonly byLooseKey = new Map<string, Set<string>>();
  private readonly identityOf: PlayerIndexOptions<T>['identityOf'];

  constructor(options: PlayerIndexOptions<T> = {}) {
    this.identityOf = options.identityOf;
  }

  get size(): number {
    return this.byKey.size;
  }

  add(name: string, meta?: T): void {
    const { display, key } = normalizeName(name);
    if (key.length === 0) return;
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { display, key, meta: [], identities: new Set() };
      this.byKey.set(key, entry);
      addTo(this.byLooseKey, looseKey(key), key);
      for (const s of surnames(key)) addTo(this.bySurname, s, key);
    } else if (betterDisplay(entry.display, display)) {
      entry.display = display;
    }
    if (meta === undefined) return;
    entry.meta.push(meta);
    const identity = this.identityOf?.(meta);
    if (identity !== null && identity !== undefined) entry.identities.add(String(identity));
  }

  lookup(name: string): PlayerMatch<T> | null {
    const { key } = normalizeName(name);
    if (key.length === 0) return null;
    const exact = this.byKey.get(key);
    if (exact) return resolved(exact);
    const loose = this.byLooseKey.get(looseKey(key));
    if (loose) return this.only(loose);
    const bySurname = this.bySurname.get(key);
    return bySurname ? this.only(bySurname) : null;
  }

  private only(keys: ReadonlySet<string>): PlayerMatch<T> | null {
    if (keys.size !== 1) return null;
    const [k] = keys;
    const entry = k === undefined ? undefined : this.byKey.get(k);
    return entry ? resolved(entry) : null;
  }

  /** Candidates for an ambiguous or fuzzy query, for error messages and search. */
  candidates(query: string, limit = 5): PlayerCandidate[] {
    return searchPlayers(this, query, limit);
  }

  *entries(): Generator<PlayerCandidate> {
    for (const { display, key } of this.byKey.values()) yield { display, key };
  }
}

function resolved<T>(entry: Entry<T>): PlayerMatch<T> | null {
  if (entry.identities.size > 1) return null;
  return { display: entry.display, key: entry.key, meta: [...entry.meta] };
}

/**
 * Ranked search (MLB-style player lookup): exact key first, then players whose surname starts
 * with the query, then players whose folded name contains it. Ties sort by display name.
 */
export function searchPlayers<T>(index: PlayerIndex<T>, query: string, limit = 10): PlayerCandidate[] {
  const key = normalizeName(query).key;
  const folded = foldName(query);
  if (key.length === 0 || limit <= 0) return [];
  const ranked: Array<{ rank: number; candidate: PlayerCandidate }> = [];
  for (const entry of index.entries()) {
    const rank = rankOf(entry.key, key, folded);
    if (rank !== null) ranked.push({ rank, candidate: { display: entry.display, key: entry.key } });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.candidate.display.localeCompare(b.candidate.display, 'en'));
  return ranked.slice(0, limit).map((r) => r.candidate);
}

function rankOf(entryKey: string, key: string, folded: string): number | null {
  if (entryKey === key) return 0;
  if (surnames(entryKey).some((s) => s.startsWith(key) || s.startsWith(folded))) return 1;
  if (entryKey.includes(key) || entryKey.includes(folded)) return 2;
  return null;
}
