import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gameKeyLinesBefore,
  gameStatsOn,
  hasTeamLines,
  historyBefore,
  latestTeam,
  nameTeamDates,
  newestLineId,
  playerLinesBefore,
  playersExtras,
  sportLinesBetween,
  sportLinesSince,
  storedLinesVersion,
  storedNames,
  teamLinesBetween,
  teamsLinesOn,
} from '../../../src/store/repo/game-stats.js';
import { loopPair, rawColumn, rawValue, same, SETUP_TIMEOUT, type LoopPair } from './_pair.js';

/**
 * The store contract for the player-game reads (game-stats.ts): each asked of SQLite and
 * PostgreSQL holding the same README-loop rows (the seed history plus the settle's 2025-11-05
 * games) must answer alike, order included, and agree with figures from the raw SQLite rows.
 * Player keys hold spaces ('al horford' < 'alex caruso' by bytes, not in a locale's order), so
 * every by-player-key order here is also an order-by-bytes check.
 */

let P: LoopPair;
/** The player with the most stored lines, and one whose key sorts differently by bytes than by locale. */
let busy: string;
let spaced: string[];
let gameKey: string;
const NBA = 'nba' as const;

beforeAll(async () => {
  P = await loopPair();
  busy = rawValue<string>(P.raw, `select player_key from player_game_stats where sport = 'nba' group by player_key order by count(*) desc, player_key limit 1`);
  spaced = rawColumn(P.raw, `select distinct player_key from player_game_stats where sport = 'nba' and (player_key like 'al %' or player_key like 'ale%') order by player_key limit 4`);
  gameKey = rawValue<string>(P.raw, `select game_key from player_game_stats where game_key != date order by game_key limit 1`);
}, SETUP_TIMEOUT);

afterAll(async () => P?.cleanup(), SETUP_TIMEOUT);

const dates = (xs: Array<{ date: string }>) => xs.map((x) => x.date);

describe('game-stats.ts', () => {
  it('historyBefore: newest first, at several limits (none, zero, a cut)', async () => {
    const total = rawValue(P.raw, `select count(*) from player_game_stats where sport = 'nba' and player_key = ? and date < '2025-11-05'`, busy);
    for (const limit of [-1, 0, 5, 120]) {
      const got = await same(P, (s) => historyBefore(s, NBA, busy, '2025-11-05', limit));
      const want = limit < 0 ? total : Math.min(limit, total);
      expect(got.length).toBe(want);
      expect(dates(got)).toEqual(rawColumn(P.raw, `select date from player_game_stats where sport = 'nba' and player_key = ? and date < '2025-11-05' order by date desc limit ?`, busy, limit));
    }
    expect(await same(P, (s) => historyBefore(s, NBA, 'nobody at all', '2025-11-05'))).toEqual([]);
  });

  it('latestTeam: the team of the newest game before the date', async () => {
    for (const before of ['2025-11-05', '2025-11-06']) {
      const got = await same(P, (s) => latestTeam(s, NBA, busy, before));
      expect(got).toBe(rawValue(P.raw, `select team from player_game_stats where sport = 'nba' and player_key = ? and date < ? order by date desc, id desc limit 1`, busy, before));
    }
    expect(await same(P, (s) => latestTeam(s, NBA, busy, '2000-01-01'))).toBeNull();
  });

  it('gameStatsOn: every line of a date, by player key (bytes)', async () => {
    for (const date of ['2025-11-05', '2025-11-03']) {
      const got = await same(P, (s) => gameStatsOn(s, NBA, date));
      expect(got.map((g) => g.playerKey)).toEqual(rawColumn(P.raw, `select player_key from player_game_stats where sport = 'nba' and date = ? order by player_key, id`, date));
    }
    const settledDay = await same(P, (s) => gameStatsOn(s, NBA, '2025-11-05'));
    expect(settledDay.every((g) => g.gameId !== null)).toBe(true);
  });

  it('newestLineId and storedLinesVersion', async () => {
    const [n, max] = P.raw.prepare(`select count(*), max(id) from player_game_stats where sport = 'nba'`).raw(true).get() as [number, number];
    expect(await same(P, (s) => newestLineId(s, NBA))).toBe(max);
    expect(await same(P, (s) => newestLineId(s, 'mlb'))).toBe(0);
    expect(await same(P, (s) => storedLinesVersion(s, NBA))).toBe(`${n}:${max}`);
    expect(await same(P, (s) => storedLinesVersion(s, 'wnba'))).toBe('0:0');
  });

  it('playerLinesBefore: one player’s lines before a day, newest first', async () => {
    const got = await same(P, (s) => playerLinesBefore(s, NBA, busy, '2025-11-06'));
    expect(dates(got)).toEqual(rawColumn(P.raw, `select date from player_game_stats where sport = 'nba' and player_key = ? and date < '2025-11-06' order by date desc, id desc`, busy));
  });

  it('sportLinesBetween and teamLinesBetween: a week’s lines by player key and date', async () => {
    const week = await same(P, (s) => sportLinesBetween(s, NBA, '2025-10-29', '2025-11-05'));
    expect(week.map((g) => `${g.playerKey}|${g.date}`)).toEqual(
      rawColumn(P.raw, `select player_key || '|' || date from player_game_stats where sport = 'nba' and date >= '2025-10-29' and date < '2025-11-05' order by player_key, date, id`),
    );
    const team = await same(P, (s) => teamLinesBetween(s, NBA, 'BOS', '2025-10-01', '2025-11-06'));
    expect(team.length).toBe(rawValue(P.raw, `select count(*) from player_game_stats where sport = 'nba' and team = 'BOS' and date >= '2025-10-01' and date < '2025-11-06'`));
    expect(team.map((g) => g.playerKey)).toEqual(rawColumn(P.raw, `select player_key from player_game_stats where sport = 'nba' and team = 'BOS' and date >= '2025-10-01' and date < '2025-11-06' order by player_key, date, id`));
  });

  it('teamsLinesOn: the teams’ lines of a date (one team, several, none)', async () => {
    const one = await same(P, (s) => teamsLinesOn(s, NBA, '2025-11-05', ['BKN']));
    expect(one.length).toBe(rawValue(P.raw, `select count(*) from player_game_stats where sport = 'nba' and date = '2025-11-05' and team = 'BKN'`));
    const two = await same(P, (s) => teamsLinesOn(s, NBA, '2025-11-05', ['BKN', 'IND', 'CLE']));
    expect(two.map((g) => g.playerKey)).toEqual(rawColumn(P.raw, `select player_key from player_game_stats where sport = 'nba' and date = '2025-11-05' and team in ('BKN', 'IND', 'CLE') order by player_key, id`));
    expect(await same(P, (s) => teamsLinesOn(s, NBA, '2025-11-05', []))).toEqual([]);
  });

  it('gameKeyLinesBefore: a provider game’s lines, and a date-keyed game’s', async () => {
    const game = await same(P, (s) => gameKeyLinesBefore(s, NBA, gameKey, '2025-11-06'));
    expect(game.length).toBe(rawValue(P.raw, `select count(*) from player_game_stats where sport = 'nba' and game_key = ? and date < '2025-11-06'`, gameKey));
    expect(game.every((g) => g.gameId === gameKey)).toBe(true);
    expect(await same(P, (s) => gameKeyLinesBefore(s, NBA, gameKey, '2025-11-05'))).toEqual([]);
    const dateKeyed = await same(P, (s) => gameKeyLinesBefore(s, NBA, '2025-11-03', '2025-11-06'));
    expect(dateKeyed.map((g) => g.playerKey)).toEqual(rawColumn(P.raw, `select player_key from player_game_stats where sport = 'nba' and game_key = '2025-11-03' order by player_key, id`));
    expect(dateKeyed.every((g) => g.gameId === null)).toBe(true);
  });

  it('hasTeamLines', async () => {
    expect(await same(P, (s) => hasTeamLines(s, NBA, ['BKN']))).toBe(true);
    expect(await same(P, (s) => hasTeamLines(s, NBA, ['ZZZ', 'BOS']))).toBe(true);
    expect(await same(P, (s) => hasTeamLines(s, NBA, ['ZZZ']))).toBe(false);
    expect(await same(P, (s) => hasTeamLines(s, 'mlb', ['BOS']))).toBe(false);
    expect(await same(P, (s) => hasTeamLines(s, NBA, []))).toBe(false);
  });

  it('storedNames: every name of the sport in first-line order, and one key’s', async () => {
    const all = await same(P, (s) => storedNames(s, NBA));
    expect(all.length).toBe(rawValue(P.raw, `select count(distinct player_name) from player_game_stats where sport = 'nba'`));
    // First-line order: by the first (player key, date, id) of each name.
    const firstOrder = rawColumn(P.raw, `select player_name from player_game_stats where sport = 'nba' group by player_name order by min(player_key || char(1) || date || char(1) || printf('%015d', id))`);
    expect(all).toEqual(firstOrder);
    expect(spaced.length).toBeGreaterThan(1);
    for (const key of [busy, ...spaced]) {
      const one = await same(P, (s) => storedNames(s, NBA, key));
      expect(one).toEqual(rawColumn(P.raw, `select player_name from player_game_stats where sport = 'nba' and player_key = ? group by player_name order by min(date), min(id)`, key));
    }
    expect(await same(P, (s) => storedNames(s, NBA, 'nobody at all'))).toEqual([]);
  });

  it('nameTeamDates: distinct (name, team, date), newest date first', async () => {
    const got = await same(P, (s) => nameTeamDates(s, NBA));
    expect(got.length).toBe(rawValue(P.raw, `select count(*) from (select distinct player_name, team, date from player_game_stats where sport = 'nba')`));
    expect(got[0]?.seen).toBe(rawValue(P.raw, `select max(date) from player_game_stats where sport = 'nba'`));
  });

  it('playersExtras: the players’ extras by player key and date', async () => {
    const keys = [busy, ...spaced];
    const got = await same(P, (s) => playersExtras(s, NBA, keys));
    const want = P.raw
      .prepare(`select player_key, date, extras from player_game_stats where sport = 'nba' and player_key in (${keys.map(() => '?').join(', ')}) order by player_key, date, id`)
      .raw(true)
      .all(...keys) as Array<[string, string, string]>;
    expect(got.map((g) => [g.playerKey, g.date, g.extras])).toEqual(want.map(([k, d, e]) => [k, d, JSON.parse(e)]));
  });

  it('sportLinesSince: newest date first, then player key and id', async () => {
    const got = await same(P, (s) => sportLinesSince(s, NBA, '2025-11-01'));
    expect(got.map((g) => g.id)).toEqual(rawColumn<number>(P.raw, `select id from player_game_stats where sport = 'nba' and date >= '2025-11-01' order by date desc, player_key, id`));
  });
});
