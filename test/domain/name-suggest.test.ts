import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_SUGGESTION_SIMILARITY, SuggestionIndex, suggestionScore, nameSimilarity, type SuggestionPlayer } from '../../src/domain/name-suggest.js';
import { normalizeName } from '../../src/domain/names.js';
import { knownPlayers } from '../../src/reads/player-lookup.js';
import { seededStore } from '../helpers/replay-store.js';

/**
 * The bigram index only narrows: over the bundled replay's 435 real NBA players and thousands of
 * typed variants of their names (each edit a caller makes: a letter dropped, doubled, swapped or
 * changed, a surname alone, another first name), `SuggestionIndex#rank` names exactly what scoring
 * every player, as the ranking did before the index, names; and it compares few of them.
 */

let players: SuggestionPlayer[];
let cleanup: () => void;
beforeAll(async () => {
  const seeded = await seededStore();
  cleanup = seeded.cleanup;
  players = [...(await knownPlayers(seeded.store, 'nba')).entries()].map((e) => ({ name: e.display, key: e.key, sport: 'nba' as const }));
});
afterAll(() => cleanup());

/** Every player scored, no index: the ranking as it was. */
function bruteForce(query: string): string[] {
  const key = normalizeName(query).key;
  return players
    .map((p) => ({ p, score: suggestionScore(key, p.key), whole: nameSimilarity(key, p.key) }))
    .filter((r) => r.score >= MIN_SUGGESTION_SIMILARITY)
    .sort((a, b) => b.score - a.score || b.whole - a.whole || a.p.name.localeCompare(b.p.name, 'en'))
    .map((r) => `${r.p.name} ${Math.round(r.score * 1000) / 1000}`);
}

/** A small deterministic generator (mulberry32), so the variants are the same on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function variants(name: string, next: () => number): string[] {
  const letters = [...name];
  const at = () => Math.floor(next() * letters.length);
  const letter = () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(next() * 26)]!;
  const edit = (s: string[]): string[] => {
    const i = Math.floor(next() * s.length);
    const out = [...s];
    switch (Math.floor(next() * 4)) {
      case 0:
        out.splice(i, 1);
        break;
      case 1:
        out.splice(i, 0, letter());
        break;
      case 2:
        out[i] = letter();
        break;
      default:
        if (i + 1 < out.length) [out[i], out[i + 1]] = [out[i + 1]!, out[i]!];
    }
    return out;
  };
  const words = name.split(' ');
  const i = at();
  return [
    edit(letters).join(''),
    edit(edit(letters)).join(''),
    edit(edit(edit(letters))).join(''),
    [...letters.slice(0, i), letters[i]!, ...letters.slice(i)].join(''),
    words.slice(1).join(' '),
    edit([...words.slice(1).join(' ')]).join(''),
    ['Jalen', ...words.slice(1)].join(' '),
    [words[0]![0] + 'x', ...edit([...words.slice(1).join(' ')]).join('')].join(' '),
  ].filter((v) => v.trim().length > 0);
}

describe('the bigram index narrows the near-miss ranking without changing it', () => {
  it('names what scoring every player names, for typed variants of real names', { timeout: 180_000 }, () => {
    const index = new SuggestionIndex(players);
    const next = rng(32);
    let queries = 0;
    let compared = 0;
    let named = 0;
    // Every fourth player's variants (the brute force is what costs), against the index of all.
    for (const p of players.filter((_, i) => i % 4 === 0)) {
      for (const query of variants(p.name, next)) {
        const expected = bruteForce(query);
        const got = index.rank(query, players.length).map((s) => `${s.name} ${s.similarity}`);
        expect(got, query).toEqual(expected);
        queries++;
        named += expected.length;
        compared += index.candidates(normalizeName(query).key).size;
      }
    }
    expect(queries).toBeGreaterThan(800);
    // The variants are near misses, so most name someone...
    expect(named).toBeGreaterThan(queries);
    // ...while each compares a small share of the players (the ranking compared all 435).
    expect(compared / queries).toBeLessThan(players.length / 10);
    console.log(`${queries} queries over ${players.length} players: ${(compared / queries).toFixed(1)} compared per query, ${(named / queries).toFixed(2)} named`);
  });

  it('compares nobody for a name longer than any player by more than a quarter', () => {
    const index = new SuggestionIndex(players);
    const long = 'Brunsonjalen'.repeat(8);
    expect(index.candidates(normalizeName(long).key).size).toBe(0);
    expect(index.rank(long)).toEqual([]);
  });

  it('keeps the documented near misses', () => {
    const index = new SuggestionIndex(players);
    expect(index.rank('Jalen Brunsonn')[0]?.name).toBe('Jalen Brunson');
    expect(index.rank('Brusnon')[0]?.name).toBe('Jalen Brunson');
  });
});
