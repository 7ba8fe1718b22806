import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import type { Store } from '../../../src/store/db.js';
import { historyBefore, historyForPlayers, latestTeam, latestTeams, upsertGameStats } from '../../../src/store/repo/game-stats.js';
import { loopPair, rawColumn, same, SETUP_TIMEOUT, type LoopPair } from './_pair.js';

/**
 * The store contract for the batched history reads (issue 39): historyForPlayers and latestTeams
 * asked of SQLite and PostgreSQL holding the same README-loop rows must answer alike, order
 * included, give every player what the one-player reads (historyBefore, latestTeam) give, and agree
 * with the raw SQLite rows. A made-up player with two games on one date, stored out of game-key
 * order, checks that a date's games come newest id first and that a limit cutting a date keeps its
 * newest ids; keys with spaces sort differently by bytes than by locale (the ICU database).
 */

let P: LoopPair;
let keys: string[];
const NBA = 'nba' as const;
const TWICE = 'zz twice a day';
const ABSENT = 'nobody at all';

/** Two games on 2025-10-30 (the later-stored one has the smaller game key), one before and one after. */
function twiceLines(): PlayerGameStat[] {
  const line = (date: string, gameId: string, team: string, pts: number): PlayerGameStat => ({
    sport: NBA, playerKey: TWICE, playerName: 'Zz Twice', team, opponent: 'BOS', date, gameId, minutes: 30, stats: { points: pts }, extras: {}, source: 'test',
  });
  return [line('2025-10-28', 'g-0', 'NYK', 10), line('2025-10-30', 'g-9', 'NYK', 20), line('2025-10-30', 'g-1', 'LAL', 30), line('2025-11-02', 'g-5', 'LAL', 40)];
}

beforeAll(async () => {
  P = await loopPair();
  for (const s of [P.sqlite, P.pg]) await upsertGameStats(s, twiceLines());
  // Every NBA player stored, the made-up one included.
  keys = rawColumn(P.raw, `select distinct player_key from player_game_stats where sport = 'nba' order by player_key`);
}, SETUP_TIMEOUT);

afterAll(async () => P?.cleanup(), SETUP_TIMEOUT);

/** The raw rows historyBefore means: a player's lines before the date, newest date first, a date's newest id first. */
function rawHistory(key: string, before: string, limit: number): Array<[string, string, string | null, string]> {
  return P.raw
    .prepare(`select date, game_key, team, stats from player_game_stats where sport = 'nba' and player_key = ? and date < ? order by date desc, id desc limit ?`)
    .raw(true)
    .all(key, before, limit) as Array<[string, string, string | null, string]>;
}

const shape = (lines: PlayerGameStat[]) => lines.map((l) => [l.date, l.gameId ?? l.date, l.team, JSON.stringify(l.stats)]);
const entries = async <V>(m: Promise<Map<string, V>>) => [...(await m).entries()];

describe('game-stats-history.ts: the batched reads', () => {
  it('historyForPlayers: every player of the sport at once, as the raw rows and historyBefore give them', async () => {
    expect(keys.length).toBeGreaterThan(400);
    for (const before of ['2025-11-05', '2025-11-06', '2025-10-25']) {
      const got = new Map(await same(P, (s) => entries(historyForPlayers(s, NBA, keys, before))));
      expect([...got.keys()]).toEqual(keys);
      let lines = 0;
      for (const key of keys) {
        const mine = got.get(key) as PlayerGameStat[];
        expect(shape(mine)).toEqual(rawHistory(key, before, 120));
        lines += mine.length;
      }
      expect(lines).toBeGreaterThan(0);
      // The one-player read, on each engine, for a spread of players.
      for (const key of keys.filter((_, i) => i % 37 === 0)) {
        for (const s of [P.sqlite, P.pg]) expect(await historyBefore(s, NBA, key, before)).toStrictEqual(got.get(key));
      }
    }
  });

  it('historyForPlayers: a date’s games newest id first, and limits (none, zero, one, a cut inside a date)', async () => {
    const all = rawHistory(TWICE, '2025-11-05', 10);
    expect(all.map(([date, game]) => `${date} ${game}`)).toEqual(['2025-11-02 g-5', '2025-10-30 g-1', '2025-10-30 g-9', '2025-10-28 g-0']);
    for (const limit of [-1, 0, 1, 2, 3, 120]) {
      const got = await same(P, (s) => entries(historyForPlayers(s, NBA, [TWICE, keys[0] as string], '2025-11-05', limit)));
      expect(shape(got[0]?.[1] ?? [])).toEqual(limit < 0 ? all : all.slice(0, limit));
      expect(shape(got[1]?.[1] ?? [])).toEqual(rawHistory(keys[0] as string, '2025-11-05', limit < 0 ? 1000 : limit));
      for (const s of [P.sqlite, P.pg]) expect(await historyBefore(s, NBA, TWICE, '2025-11-05', limit)).toStrictEqual(got[0]?.[1]);
    }
  });

  it('historyForPlayers: an unknown player, a repeated key, no keys, and more keys than one statement takes', async () => {
    const asked = [ABSENT, TWICE, ABSENT, keys[1] as string];
    const got = await same(P, (s) => entries(historyForPlayers(s, NBA, asked, '2025-11-05')));
    expect(got.map(([k]) => k)).toEqual([ABSENT, TWICE, keys[1]]);
    expect(got[0]?.[1]).toEqual([]);
    expect(await same(P, (s) => entries(historyForPlayers(s, NBA, [], '2025-11-05')))).toEqual([]);
    expect(await same(P, (s) => entries(historyForPlayers(s, 'mlb', [TWICE], '2025-11-05')))).toEqual([[TWICE, []]]);
    // 6,000 unknown keys around the real ones: PostgreSQL splits them over two statements.
    const many = [...Array.from({ length: 3000 }, (_, i) => `nobody ${i}`), ...keys, ...Array.from({ length: 3000 }, (_, i) => `nobody else ${i}`)];
    const read = async (s: Store) => {
      const m = await historyForPlayers(s, NBA, many, '2025-11-05');
      return keys.map((k) => m.get(k));
    };
    const wide = await same(P, read);
    const narrow = await historyForPlayers(P.pg, NBA, keys, '2025-11-05');
    expect(wide).toStrictEqual(keys.map((k) => narrow.get(k)));
  });

  it('latestTeams: each player’s team of the newest game before the date, as latestTeam and the raw rows give it', async () => {
    for (const before of ['2025-11-05', '2025-11-06', '2025-10-31', '2000-01-01']) {
      const asked = [...keys, ABSENT];
      const got = new Map(await same(P, (s) => entries(latestTeams(s, NBA, asked, before))));
      expect([...got.keys()]).toEqual(asked);
      const team = P.raw.prepare(`select team from player_game_stats where sport = 'nba' and player_key = ? and date < ? order by date desc, id desc limit 1`).pluck();
      for (const key of asked) expect(got.get(key)).toBe((team.get(key, before) as string | null | undefined) ?? null);
      for (const key of [TWICE, ABSENT, ...keys.filter((_, i) => i % 53 === 0)]) {
        for (const s of [P.sqlite, P.pg]) expect(await latestTeam(s, NBA, key, before)).toBe(got.get(key));
      }
    }
    // The later-stored of the two 2025-10-30 games (the higher id) is the newest.
    expect((await same(P, (s) => entries(latestTeams(s, NBA, [TWICE], '2025-10-31'))))[0]?.[1]).toBe('LAL');
    expect(await same(P, (s) => entries(latestTeams(s, NBA, [], '2025-11-05')))).toEqual([]);
  });
});
