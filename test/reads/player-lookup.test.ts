import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradedSport } from '../../src/domain/sports.js';
import {
  editDistance,
  knownPlayers,
  MAX_SUGGESTIONS,
  MIN_SUGGESTION_SIMILARITY,
  nameSimilarity,
  rankSuggestions,
  resolvePlayer,
  suggestPlayers,
  type PlayerResolution,
} from '../../src/reads/player-lookup.js';
import type { Store } from '../../src/store/db.js';
import { seededStore } from '../helpers/replay-store.js';

/**
 * Real names: the bundled replay's seed history (data/replay/history, real NBA game logs before
 * 2025-11-04; Jalen Brunson, Stephen and Seth Curry, ten Williamses among 435 players). The
 * scan/parlay store keeps only four teams, without New York, so Brunson needs the full seed.
 */
let store: Store;
let cleanup: () => void;
beforeAll(async () => {
  ({ store, cleanup } = await seededStore());
});
afterAll(() => cleanup());

const NBA: GradedSport[] = ['nba'];

function unknown(r: PlayerResolution): Extract<PlayerResolution, { status: 'unknown' }> {
  expect(r.status).toBe('unknown');
  if (r.status !== 'unknown') throw new Error('resolved or ambiguous');
  return r;
}

describe('edit distance and similarity', () => {
  it('counts an adjacent transposition as one edit (Damerau), the classic cases as Levenshtein', () => {
    expect(editDistance('brunson', 'brusnon')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('jokic', 'jokic')).toBe(0);
    // Code points: an accented letter is one letter.
    expect(editDistance('jokić', 'jokic')).toBe(1);
  });

  it('scales the distance by the longer key', () => {
    expect(nameSimilarity('jalen brunsonn', 'jalen brunson')).toBeCloseTo(1 - 1 / 14, 10);
    expect(nameSimilarity('abc', 'abc')).toBe(1);
    expect(nameSimilarity('abc', 'xyz')).toBe(0);
  });
});

describe('resolvePlayer: did-you-mean suggestions for an unknown name (real store)', () => {
  it("'Jalen Brunsonn' stays unknown and suggests Jalen Brunson first", async () => {
    const r = unknown(await resolvePlayer(store, 'Jalen Brunsonn', NBA));
    expect(r.candidates).toEqual([]);
    expect(r.suggestions[0]).toEqual({ name: 'Jalen Brunson', key: 'jalen brunson', sport: 'nba', similarity: 0.929 });
  });

  it('finds him from a misspelt surname alone, a transposition, or an initial', async () => {
    for (const q of ['Brunsonn', 'Brusnon', 'J. Brunson']) {
      const r = unknown(await resolvePlayer(store, q, NBA));
      expect(r.suggestions[0]?.name, q).toBe('Jalen Brunson');
    }
  });

  it('orders by score, breaking a tie by the closer whole name', async () => {
    const r = unknown(await resolvePlayer(store, 'Steph Curry', NBA));
    expect(r.suggestions.map((s) => [s.name, s.similarity])).toEqual([
      ['Stephen Curry', 0.9],
      ['Seth Curry', 0.9],
    ]);
  });

  it('names at most five, all at or above the documented bound, best first', async () => {
    // Ten real players have the surname Williams; each scores 0.875 against "Wiliams".
    const all = rankSuggestions([...(await knownPlayers(store, 'nba')).entries()].map((e) => ({ name: e.display, key: e.key, sport: 'nba' as const })), 'Wiliams', 50);
    expect(all).toHaveLength(10);
    expect(new Set(all.map((s) => s.similarity))).toEqual(new Set([0.875]));
    const r = unknown(await resolvePlayer(store, 'Wiliams', NBA));
    expect(r.suggestions).toHaveLength(MAX_SUGGESTIONS);
    expect(r.suggestions).toEqual(all.slice(0, MAX_SUGGESTIONS));
    for (const s of r.suggestions) expect(s.similarity).toBeGreaterThanOrEqual(MIN_SUGGESTION_SIMILARITY);
    const scores = r.suggestions.map((s) => s.similarity);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('suggests nothing below the bound: a shared surname under another first initial, or noise', async () => {
    expect(unknown(await resolvePlayer(store, 'Zed Curry', NBA)).suggestions).toEqual([]);
    expect(unknown(await resolvePlayer(store, 'Xyzzy Qwerty', NBA)).suggestions).toEqual([]);
    expect(unknown(await resolvePlayer(store, '...', NBA)).suggestions).toEqual([]);
  });

  it('never auto-resolves: a close miss is still unknown, and a real name still resolves', async () => {
    expect(await resolvePlayer(store, 'Jalen Brunson', NBA)).toEqual({ status: 'resolved', sport: 'nba', key: 'jalen brunson', name: 'Jalen Brunson' });
    expect((await resolvePlayer(store, 'Jalen Brunsn', NBA)).status).toBe('unknown');
  });

  it('looks only in the sports asked (no WNBA history in this store)', async () => {
    expect(unknown(await resolvePlayer(store, 'Jalen Brunsonn', ['wnba'])).suggestions).toEqual([]);
    expect((await suggestPlayers(store, 'Jalen Brunsonn', ['wnba', 'nba'])).map((s) => s.sport)).toEqual(['nba']);
  });
});
