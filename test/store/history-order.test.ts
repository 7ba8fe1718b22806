/**
 * Same-date history lines keep their order (migration 0007). player_game_stats has one index, its
 * unique key (sport, player key, date, game key), which orders one player's games of a date by game
 * key; they were read in id order while a (sport, player key, date) index served the reads. Here
 * each such run is stored with its game keys in the opposite order of its ids, so any reader that
 * took the key index's order for them would fail: every reader gives them in id order (ascending,
 * or descending where it reads newest first), as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlayerGameStat } from '../../src/domain/entities.js';
import { knownPlayers, resolvePlayer } from '../../src/reads/player-lookup.js';
import { playerLines, sportLines, teamLines } from '../../src/reads/stats-common.js';
import { storedGame } from '../../src/reads/stats-game.js';
import { buildPlayerIndex } from '../../src/reads/players.js';
import { gameStatsOn, historyBefore, latestTeam, sameDateInIdOrder, storedNames, upsertGameStats } from '../../src/store/repo/game-stats.js';
import { tempStore } from '../helpers/replay-store.js';

const line = (over: Partial<PlayerGameStat> & Pick<PlayerGameStat, 'playerKey' | 'date' | 'gameId'>): PlayerGameStat => ({
  sport: 'mlb',
  playerName: over.playerKey.replace(/\b\w/g, (c) => c.toUpperCase()),
  team: 'NYY',
  opponent: 'BOS',
  minutes: null,
  stats: { strikeouts: 1 },
  extras: { er: 1, ip: 5 },
  source: 'test',
  ...over,
});

// Inserted in this order, so ids ascend down the list; each doubleheader's second game has the
// smaller game key. One pitcher's name is spelled three ways across his three lines of one date.
const LINES: PlayerGameStat[] = [
  line({ playerKey: 'aaron judge', date: '2025-07-01', gameId: 'g9' }),
  line({ playerKey: 'aaron judge', date: '2025-07-04', gameId: 'g8', team: 'NYY', stats: { strikeouts: 2 } }),
  line({ playerKey: 'aaron judge', date: '2025-07-04', gameId: 'g7', team: 'BOS', stats: { strikeouts: 3 } }),
  line({ playerKey: 'aaron judge', date: '2025-07-05', gameId: 'g6' }),
  line({ playerKey: 'gerrit cole', date: '2025-07-04', gameId: 'g8', playerName: 'Gerrit Cole' }),
  line({ playerKey: 'gerrit cole', date: '2025-07-04', gameId: 'g7', playerName: 'Gerrit A. Cole' }),
  line({ playerKey: 'gerrit cole', date: '2025-07-04', gameId: 'g5', playerName: 'G. Cole' }),
];

describe('same-date history lines come back in id order', () => {
  let t: ReturnType<typeof tempStore>;
  /** The lines as stored, with their ids. */
  let ids: Map<string, number>;
  const idOf = (l: Pick<PlayerGameStat, 'playerKey' | 'date' | 'gameId'>) => ids.get(`${l.playerKey}|${l.date}|${l.gameId}`);
  const order = (ls: readonly PlayerGameStat[]) => ls.map(idOf);

  beforeEach(async () => {
    t = tempStore();
    await upsertGameStats(t.store, LINES);
    const rows = t.store.sqlite.prepare('select id, player_key, date, game_key from player_game_stats order by id').all() as Array<{ id: number; player_key: string; date: string; game_key: string }>;
    ids = new Map(rows.map((r) => [`${r.player_key}|${r.date}|${r.game_key}`, r.id]));
    // The setup holds: inside each same-date run, the game keys run against the ids.
    expect(rows.filter((r) => r.date === '2025-07-04' && r.player_key === 'aaron judge').map((r) => r.game_key)).toEqual(['g8', 'g7']);
  });
  afterEach(() => t.cleanup());

  it('the history read newest first: one date newest id first, also where the limit cuts the date', async () => {
    expect(order(await historyBefore(t.store, 'mlb', 'aaron judge', '2025-08-01'))).toEqual([4, 3, 2, 1]);
    expect(order(await historyBefore(t.store, 'mlb', 'aaron judge', '2025-08-01', 2))).toEqual([4, 3]);
    expect(order(await historyBefore(t.store, 'mlb', 'gerrit cole', '2025-08-01', 1))).toEqual([7]);
    expect(order(await historyBefore(t.store, 'mlb', 'gerrit cole', '2025-08-01', 2))).toEqual([7, 6]);
    expect(order(await historyBefore(t.store, 'mlb', 'aaron judge', '2025-07-05', 1))).toEqual([3]);
    expect(await latestTeam(t.store, 'mlb', 'aaron judge', '2025-07-05')).toBe('BOS');
    expect(order(await playerLines(t.store, 'mlb', 'aaron judge', '2025-08-01'))).toEqual([4, 3, 2, 1]);
  });

  it('reads by sport, date, team or game: by player, one date ascending id', async () => {
    expect(order(await gameStatsOn(t.store, 'mlb', '2025-07-04'))).toEqual([2, 3, 5, 6, 7]);
    expect(order(await sportLines(t.store, 'mlb', '2025-07-01', '2025-08-01', '2025-08-01'))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(order(await teamLines(t.store, 'mlb', 'NYY', '2025-07-01', '2025-08-01'))).toEqual([1, 2, 4, 5, 6, 7]);
    const game = await storedGame({ store: t.store, now: new Date('2025-08-01T12:00:00Z') }, '2025-07-04:NYY', 'mlb');
    expect(game !== null && 'lines' in game ? order(game.lines) : game).toEqual([2, 5, 6, 7]);
    const byKey = await storedGame({ store: t.store, now: new Date('2025-08-01T12:00:00Z') }, 'g8', 'mlb');
    expect(byKey !== null && 'lines' in byKey ? order(byKey.lines) : byKey).toEqual([2, 5]);
  });

  it('names: each where its first line in id order puts it', async () => {
    expect([...(await knownPlayers(t.store, 'mlb')).entries()].map((e) => e.display)).toEqual(['Aaron Judge', 'Gerrit Cole', 'Gerrit A Cole', 'G Cole']);
    expect(await resolvePlayer(t.store, 'gerrit cole', ['mlb'])).toMatchObject({ status: 'resolved', name: 'Gerrit Cole' });
    const index = await buildPlayerIndex(t.store, 'mlb');
    expect([...index.entries()].map((e) => e.display)).toEqual(['Aaron Judge', 'Gerrit Cole', 'Gerrit A Cole', 'G Cole']);
  });

  it('storedNames of a whole sport: each name where its first line by player key, date and id puts it', async () => {
    const rows = t.store.sqlite.prepare("select id, player_name, player_key, date from player_game_stats where sport = 'mlb'").all() as Array<{ id: number; player_name: string; player_key: string; date: string }>;
    rows.sort((a, b) => (a.player_key < b.player_key ? -1 : a.player_key > b.player_key ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
    const expected = [...new Set(rows.map((r) => r.player_name))];
    expect(expected).toEqual(['Aaron Judge', 'Gerrit Cole', 'Gerrit A. Cole', 'G. Cole']);
    expect(await storedNames(t.store, 'mlb')).toEqual(expected);
  });

  it('sameDateInIdOrder reorders only runs of one player and date', () => {
    const rows = [
      { id: 5, playerKey: 'a', date: '2025-01-02' },
      { id: 2, playerKey: 'a', date: '2025-01-02' },
      { id: 9, playerKey: 'b', date: '2025-01-02' },
      { id: 1, playerKey: 'b', date: '2025-01-03' },
      { id: 3, playerKey: 'b', date: '2025-01-03' },
    ];
    expect(sameDateInIdOrder([...rows], 'asc').map((r) => r.id)).toEqual([2, 5, 9, 1, 3]);
    expect(sameDateInIdOrder([...rows], 'desc').map((r) => r.id)).toEqual([5, 2, 9, 3, 1]);
  });
});
