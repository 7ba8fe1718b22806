import { describe, expect, it } from 'vitest';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import { gameStatsOn, gameStatsWriter, historyBefore, storedLinesVersion, upsertGameStats } from '../../../src/store/repo/game-stats.js';
import { transaction } from '../../../src/store/repo/tx.js';
import { ENGINES } from '../../helpers/engines.js';
import { eachEmptyStore, observations, raw } from './writes-helpers.js';

/** Contract: the player-game lines' writes (upsertGameStats, gameStatsWriter) on both engines. */

const seen = observations();

function line(over: Partial<PlayerGameStat>): PlayerGameStat {
  return {
    sport: 'nba',
    playerKey: 'jalen-brunson',
    playerName: 'Jalen Brunson',
    team: 'NYK',
    opponent: 'BOS',
    date: '2025-11-03',
    gameId: null,
    minutes: 36.5,
    // Key order not alphabetical, a null stat and a fraction: stored text must keep all three.
    stats: { points: 31, rebounds: null, assists: 7.5 } as PlayerGameStat['stats'],
    extras: { fga: 22, fta: 9 },
    source: 'balldontlie',
    ...over,
  };
}

const STORED = 'select id, player_key as "playerKey", date, game_key as "gameKey", player_name as "name", minutes, cast(stats as text) as stats, cast(extras as text) as extras, source from player_game_stats order by id';

describe.each(ENGINES)('game stats writes on %s', (engine) => {
  const get = eachEmptyStore(engine);

  it('upsertGameStats: a repeat in one batch is written once with its last values; a later upsert replaces in place', async () => {
    const { store } = get();
    const n = await upsertGameStats(store, [
      line({}),
      line({ gameId: 'g-2', team: 'NYK', minutes: 12 }), // a second game the same date (a doubleheader's key)
      line({ stats: { points: 33, assists: 8 } as PlayerGameStat['stats'], minutes: 37, source: 'nba-stats' }), // the first line again
      line({ playerKey: 'josh-hart', playerName: 'Josh Hart', team: null, opponent: null, minutes: null, extras: {} }),
    ]);
    expect(n).toBe(4);
    const first = await raw(store, STORED);
    expect(first.map(({ id: _id, ...r }) => r)).toStrictEqual([
      { playerKey: 'jalen-brunson', date: '2025-11-03', gameKey: '2025-11-03', name: 'Jalen Brunson', minutes: 37, stats: '{"points":33,"assists":8}', extras: '{"fga":22,"fta":9}', source: 'nba-stats' },
      { playerKey: 'jalen-brunson', date: '2025-11-03', gameKey: 'g-2', name: 'Jalen Brunson', minutes: 12, stats: '{"points":31,"rebounds":null,"assists":7.5}', extras: '{"fga":22,"fta":9}', source: 'balldontlie' },
      { playerKey: 'josh-hart', date: '2025-11-03', gameKey: '2025-11-03', name: 'Josh Hart', minutes: null, stats: '{"points":31,"rebounds":null,"assists":7.5}', extras: '{}', source: 'balldontlie' },
    ]);
    expect(first.slice(0, 2).map((r) => r['id'])).toStrictEqual([1, 2]);
    seen.record(engine, 'ids after an in-batch repeat', first.map((r) => r['id']));

    // Replaced in place: same id, new values; a new line takes a new id.
    await upsertGameStats(store, [line({ playerName: 'J. Brunson', stats: { points: 40 } as PlayerGameStat['stats'], extras: { z: 1, a: 2 } }), line({ date: '2025-11-05' })]);
    const after = await raw(store, STORED);
    expect(after[0]).toStrictEqual({ ...first[0], name: 'J. Brunson', minutes: 36.5, stats: '{"points":40}', extras: '{"z":1,"a":2}', source: 'balldontlie' });
    expect(after).toHaveLength(4);
    seen.record(engine, 'ids after a later upsert', after.map((r) => r['id']));

    const on3 = await gameStatsOn(store, 'nba', '2025-11-03');
    expect(on3.map((l) => [l.playerKey, l.gameId, l.minutes])).toStrictEqual([
      ['jalen-brunson', null, 36.5],
      ['jalen-brunson', 'g-2', 12],
      ['josh-hart', null, null],
    ]);
    expect(JSON.stringify(on3[0]?.extras)).toBe('{"z":1,"a":2}');
    expect(on3[2]).toStrictEqual({ sport: 'nba', playerKey: 'josh-hart', playerName: 'Josh Hart', team: null, opponent: null, date: '2025-11-03', gameId: null, minutes: null, stats: { points: 31, rebounds: null, assists: 7.5 }, extras: {}, source: 'balldontlie' });
    seen.record(engine, 'gameStatsOn', on3);
    expect((await historyBefore(store, 'nba', 'jalen-brunson', '2025-11-06')).map((l) => [l.date, l.gameId])).toStrictEqual([
      ['2025-11-05', null],
      ['2025-11-03', 'g-2'],
      ['2025-11-03', null],
    ]);
  });

  it('gameStatsWriter: write + flush inside a transaction, repeats across and within batches, JSON text given by the caller', async () => {
    const { store } = get();
    // 1,202 lines (fewer than a bulk load), a repeat near the start and one at the end.
    const lines: PlayerGameStat[] = [];
    for (let i = 0; i < 1200; i++) lines.push(line({ playerKey: `p-${String(i).padStart(4, '0')}`, playerName: `P ${i}`, stats: { points: i } as PlayerGameStat['stats'], extras: { i } }));
    lines.push(line({ playerKey: 'p-0005', playerName: 'P 5 again', stats: { points: 555 } as PlayerGameStat['stats'], extras: { again: 1 } })); // across batches
    lines.splice(10, 0, line({ playerKey: 'p-0003', playerName: 'P 3 again', stats: { points: 333 } as PlayerGameStat['stats'] })); // inside the first
    await transaction(
      store,
      async (tx) => {
        const writer = await gameStatsWriter(tx);
        for (const l of lines) writer.write(l);
        writer.write(line({ playerKey: 'with-text', playerName: 'Texted', stats: { points: 2, assists: 1 } as PlayerGameStat['stats'], extras: { b: 1 } }), { stats: '{"points":2,"assists":1}', extras: '{"b":1}' });
        await writer.flush();
        await writer.flush(); // a second flush with nothing queued
      },
      { exclusive: false },
    );
    const rows = await raw(store, 'select count(*) as n, max(id) as top from player_game_stats');
    expect(rows[0]?.['n']).toBe(1201);
    const pick = await raw(store, 'select player_key as k, player_name as name, cast(stats as text) as stats, cast(extras as text) as extras from player_game_stats where player_key in (?, ?, ?, ?) order by player_key', ['p-0003', 'p-0005', 'p-1199', 'with-text']);
    expect(pick).toStrictEqual([
      { k: 'p-0003', name: 'P 3 again', stats: '{"points":333}', extras: '{"fga":22,"fta":9}' },
      { k: 'p-0005', name: 'P 5 again', stats: '{"points":555}', extras: '{"again":1}' },
      { k: 'p-1199', name: 'P 1199', stats: '{"points":1199}', extras: '{"i":1199}' },
      { k: 'with-text', name: 'Texted', stats: '{"points":2,"assists":1}', extras: '{"b":1}' },
    ]);
    expect(await storedLinesVersion(store, 'nba')).toBe(`1201:${rows[0]?.['top'] as number}`);
    seen.record(engine, 'writer ids', await raw(store, 'select id, player_key as k from player_game_stats order by id'));
    seen.record(engine, 'writer lines', await gameStatsOn(store, 'nba', '2025-11-03'));
  });

  it('gameStatsWriter: a first load of a sport (copied straight in on PostgreSQL) and a load over stored lines (upserted) keep each line once, its last values at its first place', async () => {
    const { store } = get();
    const load = (tag: string, from: number, n: number) =>
      Array.from({ length: n }, (_, i) => line({ playerKey: `b-${String(from + i).padStart(5, '0')}`, playerName: `${tag} ${from + i}`, date: `2025-10-${String(1 + ((from + i) % 28)).padStart(2, '0')}`, stats: { points: from + i } as PlayerGameStat['stats'], extras: { [tag]: from + i } }));
    const write = (lines: PlayerGameStat[]) =>
      transaction(
        store,
        async (tx) => {
          const writer = await gameStatsWriter(tx);
          for (const l of lines) writer.write(l);
          await writer.flush();
        },
        { exclusive: false },
      );
    const rows = async () => (await raw(store, STORED)).map(({ id: _id, ...r }) => r);
    // Another sport's line stored first: the NBA load is still a first load.
    await upsertGameStats(store, [line({ sport: 'soccer', playerKey: 'saka' })]);
    const first = load('first', 0, 5200);
    first.push({ ...(first[7] as PlayerGameStat), playerName: 'seven again', stats: { points: 777 } as PlayerGameStat['stats'] });
    await write(first);
    const afterFirst = await rows();
    expect(afterFirst).toHaveLength(5201);
    expect(afterFirst[8]).toMatchObject({ playerKey: 'b-00007', name: 'seven again', stats: '{"points":777}' });
    seen.record(engine, 'bulk first load', afterFirst);
    // Half the lines again with new values, half new: stored lines are replaced in place.
    await write(load('second', 2600, 5200));
    const afterSecond = await rows();
    expect(afterSecond).toHaveLength(7801);
    expect(afterSecond[2601]).toMatchObject({ playerKey: 'b-02600', name: 'second 2600', extras: '{"second":2600}' });
    expect(afterSecond[2600]).toMatchObject({ playerKey: 'b-02599', name: 'first 2599' });
    seen.record(engine, 'bulk second load', afterSecond);
    // A first load with no repeat (another sport): copied as it came.
    await write(load('mlb', 0, 5000).map((l) => ({ ...l, sport: 'mlb' })));
    const mlb = await raw(store, "select player_key as k, player_name as name from player_game_stats where sport = 'mlb' order by id");
    expect(mlb.map((r) => r['k'])).toEqual(Array.from({ length: 5000 }, (_, i) => `b-${String(i).padStart(5, '0')}`));
    expect(mlb[4999]).toEqual({ k: 'b-04999', name: 'mlb 4999' });
  });

  it('gameStatsWriter: a failed write fails the flush (or the write), and the transaction leaves nothing', async () => {
    const { store } = get();
    await expect(
      transaction(
        store,
        async (tx) => {
          const writer = await gameStatsWriter(tx);
          writer.write(line({}));
          writer.write(line({ playerKey: 'bad', playerName: null as unknown as string }));
          await writer.flush();
        },
        { exclusive: false },
      ),
    ).rejects.toThrow(/null|NOT NULL/i);
    expect(await raw(store, 'select count(*) as n from player_game_stats')).toStrictEqual([{ n: 0 }]);
  });
});

describe('game stats writes: both engines read back the same', () => {
  it.each(['gameStatsOn', 'writer lines', 'bulk first load', 'bulk second load'])('%s', (name) => {
    const { sqlite, postgres } = seen.both(name);
    expect(sqlite).toBeDefined();
    expect(postgres).toStrictEqual(sqlite);
  });

  // Both engines keep the lines' id order (what same-date readers sort by)...
  it('writer ids: the lines in the same id order', () => {
    const { sqlite, postgres } = seen.both('writer ids') as Record<string, Array<{ k: string }>>;
    expect(sqlite).toHaveLength(1201);
    expect(postgres?.map((r) => r.k)).toStrictEqual(sqlite?.map((r) => r.k));
  });

  // ... but not the same ids (a known engine difference, reported): SQLite's upsert spends an id on
  // a line repeated within one batch, PostgreSQL's dedupes the batch first and spends none.
  it('ids after a repeat within one batch differ by the ids SQLite spent on the repeat', () => {
    expect(seen.both('ids after an in-batch repeat')).toStrictEqual({ sqlite: [1, 2, 4], postgres: [1, 2, 3] });
    expect(seen.both('ids after a later upsert')).toStrictEqual({ sqlite: [1, 2, 4, 6], postgres: [1, 2, 3, 5] });
    const { sqlite, postgres } = seen.both('writer ids') as Record<string, Array<{ id: number; k: string }>>;
    expect([sqlite?.find((r) => r.k === 'p-0010')?.id, postgres?.find((r) => r.k === 'p-0010')?.id]).toStrictEqual([12, 11]);
  });
});
