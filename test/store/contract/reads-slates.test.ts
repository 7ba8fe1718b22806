import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardNames, boardNamesOf, gradedNameTeams, heroOfSnapshots, latestHeroOf, teamRows, upcomingRowsOf } from '../../../src/store/repo/graded-rows.js';
import { latestSnapshotWatcher, snapshotHeadById } from '../../../src/store/repo/snapshot-watch.js';
import {
  latestGradedSnapshot,
  latestSnapshot,
  lockedGrades,
  mainLineRows,
  newestSnapshotPerSport,
  recentSnapshots,
  slateSnapshotAsOf,
  snapshotBefore,
  snapshotRows,
  snapshotRowsById,
  snapshotSortKeys,
} from '../../../src/store/repo/snapshots.js';
import { loopPair, rawColumn, rawValue, same, sameUnordered, SETUP_TIMEOUT, type LoopPair } from './_pair.js';

/**
 * The store contract for the slate reads (snapshots.ts, graded-rows.ts, snapshot-watch.ts): each
 * read asked of SQLite and PostgreSQL holding the same README-loop rows must answer alike, and
 * agree with figures read from the raw SQLite rows.
 */

let P: LoopPair;
let ids: number[];
let latestId: number;
let firstId: number;
let player: { key: string; name: string; commence: string; team: string };

beforeAll(async () => {
  P = await loopPair();
  ids = rawColumn<number>(P.raw, `select id from snapshots where sport = 'nba' order by taken_at desc, id desc`);
  latestId = ids[0] as number;
  firstId = ids[ids.length - 1] as number;
  const row = P.raw
    .prepare(`select player_key as key, player as name, commence_time as commence, team from graded_rows where snapshot_id = ? group by player_key order by count(*) desc, player_key limit 1`)
    .get(latestId) as typeof player;
  player = row;
}, SETUP_TIMEOUT);

afterAll(async () => P?.cleanup(), SETUP_TIMEOUT);

describe('snapshots.ts', () => {
  it('recentSnapshots: newest first, at several limits', async () => {
    expect(ids.length).toBe(2);
    for (const limit of [1, 2, 5]) {
      const got = await same(P, (s) => recentSnapshots(s, 'nba', limit));
      expect(got.map((r) => r.id)).toEqual(ids.slice(0, limit));
    }
    expect(await same(P, (s) => recentSnapshots(s, 'mlb'))).toEqual([]);
  });

  it('snapshotBefore: the newest strictly before', async () => {
    const latestAt = rawValue<string>(P.raw, 'select taken_at from snapshots where id = ?', latestId);
    const firstAt = rawValue<string>(P.raw, 'select taken_at from snapshots where id = ?', firstId);
    expect((await same(P, (s) => snapshotBefore(s, 'nba', latestAt)))?.id).toBe(firstId);
    expect(await same(P, (s) => snapshotBefore(s, 'nba', firstAt))).toBeNull();
    expect((await same(P, (s) => snapshotBefore(s, 'nba', '2099-01-01T00:00:00Z')))?.id).toBe(latestId);
  });

  it('newestSnapshotPerSport and latestSnapshot', async () => {
    const per = await same(P, (s) => newestSnapshotPerSport(s));
    const raw = P.raw.prepare('select sport, taken_at as takenAt, source from snapshots where id = ?').get(latestId);
    expect(per).toEqual([raw]);
    expect((await same(P, (s) => latestSnapshot(s, 'nba')))?.id).toBe(latestId);
    expect(await same(P, (s) => latestSnapshot(s, 'nhl'))).toBeNull();
  });

  it('latestSnapshot as of a time: the newest taken at or before it, never one after (issue 41 item 5)', async () => {
    const at = (iso: string) => same(P, (s) => latestSnapshot(s, 'nba', new Date(iso)));
    const rawAt = (iso: string) => P.raw.prepare(`select id from snapshots where sport = 'nba' and taken_at <= ? order by taken_at desc, id desc limit 1`).pluck().get(iso) ?? null;
    for (const iso of ['2025-11-05T15:00:00.000Z', '2025-11-05T15:05:00.000Z', '2025-11-05T16:00:00.000Z', '2025-11-05T17:05:00.000Z', '2025-11-06T12:00:00.000Z']) {
      expect((await at(iso))?.id ?? null).toBe(rawAt(iso));
    }
    expect(await at('2025-11-05T15:00:00.000Z')).toBeNull();
    expect((await at('2025-11-05T16:00:00.000Z'))?.id).toBe(firstId);
    expect((await at('2025-11-05T17:05:00.000Z'))?.id).toBe(latestId);
    expect((await same(P, (s) => recentSnapshots(s, 'nba', 5, new Date('2025-11-05T16:00:00.000Z')))).map((r) => r.id)).toEqual([firstId]);
  });

  it('slateSnapshotAsOf: the newest of the slate at or before the instant', async () => {
    const at = (iso: string) => same(P, (s) => slateSnapshotAsOf(s, 'nba', '2025-11-05', iso));
    expect(await at('2025-11-05T15:00:00.000Z')).toBeNull();
    expect((await at('2025-11-05T15:05:00.000Z'))?.id).toBe(firstId);
    expect((await at('2025-11-05T16:00:00.000Z'))?.id).toBe(firstId);
    expect((await at('2025-11-06T12:00:00.000Z'))?.id).toBe(latestId);
    expect(await same(P, (s) => slateSnapshotAsOf(s, 'nba', '2025-11-04', '2025-11-06T12:00:00.000Z'))).toBeNull();
  });

  it('snapshotRows and snapshotSortKeys: every row, in the index order', async () => {
    for (const id of ids) {
      const rows = await same(P, (s) => snapshotRows(s, id));
      expect(rows.length).toBe(rawValue(P.raw, 'select count(*) from graded_rows where snapshot_id = ?', id));
      expect(rawValue(P.raw, 'select row_count from snapshots where id = ?', id)).toBe(rows.length);
      const indexOrder = rawColumn<number>(P.raw, 'select id from graded_rows indexed by graded_rows_snapshot_key where snapshot_id = ? order by event_id, player_key, stat_type, line, side', id);
      expect(rows.map((r) => r.id)).toEqual(indexOrder);
      const keys = await same(P, (s) => snapshotSortKeys(s, id));
      expect(keys.map((k) => k.id)).toEqual(indexOrder);
      expect(keys.filter((k) => k.grade === 'A').length).toBe(rawValue(P.raw, `select count(*) from graded_rows where snapshot_id = ? and grade = 'A'`, id));
    }
    expect(await same(P, (s) => snapshotRows(s, 999_999))).toEqual([]);
  });

  it('snapshotRowsById: whole rows keyed by id (unknown ids left out)', async () => {
    const some = rawColumn<number>(P.raw, 'select id from graded_rows where id % 97 = 3 order by id');
    const asked = [...some, 999_999, ...some.slice(0, 3)];
    const got = await same(P, (s) => snapshotRowsById(s, asked));
    expect([...got.keys()].sort((a, b) => a - b)).toEqual(some);
    const one = some[some.length - 1] as number;
    expect(got.get(one)?.player).toBe(rawValue<string>(P.raw, 'select player from graded_rows where id = ?', one));
    // Over one SQLite chunk (500 ids) too.
    const many = rawColumn<number>(P.raw, 'select id from graded_rows where snapshot_id = ? order by id desc limit 1200', latestId);
    expect((await same(P, (s) => snapshotRowsById(s, many))).size).toBe(1200);
  });

  it('mainLineRows: the main lines of a snapshot', async () => {
    for (const id of ids) {
      const rows = await same(P, (s) => mainLineRows(s, id));
      expect(rows.length).toBe(rawValue(P.raw, 'select count(*) from graded_rows where snapshot_id = ? and is_main_line = 1', id));
    }
  });

  it('lockedGrades: the locks of the events, keyed by prop', async () => {
    const events = rawColumn(P.raw, 'select distinct event_id from graded_rows order by event_id');
    const got = await same(P, (s) => lockedGrades(s, events.slice(0, 4)));
    const n = rawValue(P.raw, `select count(*) from grade_locks where event_id in (${events.slice(0, 4).map(() => '?').join(', ')})`, ...events.slice(0, 4));
    expect(got.size).toBe(n);
    expect((await same(P, (s) => lockedGrades(s, events))).size).toBe(rawValue(P.raw, 'select count(*) from grade_locks'));
    const [key, lock] = [...got.entries()][0] ?? [];
    expect(typeof key).toBe('string');
    expect(lock?.modelDetail === null || typeof lock?.modelDetail?.text === 'string').toBe(true);
    expect(await same(P, (s) => lockedGrades(s, ['no-such-event']))).toEqual(new Map());
  });

  it('latestGradedSnapshot: the newest that graded anything', async () => {
    const want = rawValue(P.raw, `select id from snapshots where sport = 'nba' and graded_count > 0 order by taken_at desc, id desc limit 1`);
    expect((await same(P, (s) => latestGradedSnapshot(s, 'nba')))?.id).toBe(want);
    expect(await same(P, (s) => latestGradedSnapshot(s, 'nfl'))).toBeNull();
  });
});

describe('graded-rows.ts', () => {
  it('boardNames and boardNamesOf: distinct names (no promised order: compared sorted)', async () => {
    for (const id of ids) {
      const names = await sameUnordered(P, (s) => boardNames(s, id));
      expect(names.length).toBe(rawValue(P.raw, 'select count(distinct player) from graded_rows where snapshot_id = ?', id));
    }
    const of = await sameUnordered(P, (s) => boardNamesOf(s, latestId, 'nba', player.key));
    expect(of).toEqual(rawColumn(P.raw, 'select distinct player from graded_rows where snapshot_id = ? and player_key = ?', latestId, player.key));
    expect(await same(P, (s) => boardNamesOf(s, latestId, 'nba', 'nobody at all'))).toEqual([]);
  });

  it('upcomingRowsOf: a player’s rows after an instant (ordered by start only; one game’s rows compared sorted)', async () => {
    const all = await sameUnordered(P, (s) => upcomingRowsOf(s, latestId, 'nba', player.key, '2025-11-05T00:00:00Z'));
    expect(all.length).toBe(rawValue(P.raw, 'select count(*) from graded_rows where snapshot_id = ? and player_key = ?', latestId, player.key));
    expect(all.map((r) => r.commenceTime)).toEqual([...all.map((r) => r.commenceTime)].sort());
    expect(await same(P, (s) => upcomingRowsOf(s, latestId, 'nba', player.key, player.commence))).toEqual([]);
  });

  it('teamRows: a snapshot’s rows of the teams (no promised order: compared sorted)', async () => {
    const teams = rawColumn(P.raw, 'select distinct team from graded_rows where snapshot_id = ? and team is not null order by team limit 3', latestId);
    const rows = await sameUnordered(P, (s) => teamRows(s, latestId, teams));
    expect(rows.length).toBe(rawValue(P.raw, `select count(*) from graded_rows where snapshot_id = ? and team in (?, ?, ?)`, latestId, ...teams));
    expect(await same(P, (s) => teamRows(s, latestId, ['ZZZ']))).toEqual([]);
  });

  it('gradedNameTeams: distinct (player, team, graded at), newest first (ties compared sorted)', async () => {
    const got = await sameUnordered(P, (s) => gradedNameTeams(s, 'nba'));
    expect(got.length).toBe(rawValue(P.raw, `select count(*) from (select distinct player, team, graded_at from graded_rows where sport = 'nba')`));
    expect(got.map((r) => r.seen)).toEqual([...got.map((r) => r.seen)].sort().reverse());
  });

  it('heroOfSnapshots and latestHeroOf: the largest gap', async () => {
    const heroWhere = `grade in ('A', 'B') and projection is not null and is_main_line = 1 and coalesce(projection_agrees, 1) and coalesce(edge_now, '') != 'gone'`;
    const hero = await same(P, (s) => heroOfSnapshots(s, ids));
    expect(hero?.id).toBe(rawValue(P.raw, `select id from graded_rows where snapshot_id in (?, ?) and ${heroWhere} order by abs(projection - line) desc, graded_at desc, id limit 1`, ...ids));
    const first = await same(P, (s) => heroOfSnapshots(s, [firstId]));
    expect(first?.snapshotId).toBe(firstId);
    expect(await same(P, (s) => heroOfSnapshots(s, [999_999]))).toBeNull();
    const latest = await same(P, (s) => latestHeroOf(s, ['nba', 'mlb']));
    expect(latest?.id).toBe(rawValue(P.raw, `select id from graded_rows where sport in ('nba', 'mlb') and ${heroWhere} order by snapshot_id desc, abs(projection - line) desc, id limit 1`));
    expect(await same(P, (s) => latestHeroOf(s, ['nhl']))).toBeNull();
    // As of a time: only snapshots taken by then (issue 41 item 5).
    const firstAt = rawValue<string>(P.raw, 'select taken_at from snapshots where id = ?', firstId);
    const asOf = await same(P, (s) => latestHeroOf(s, ['nba'], new Date(firstAt)));
    expect(asOf?.id ?? null).toBe(rawValue(P.raw, `select id from graded_rows where sport = 'nba' and snapshot_id in (select id from snapshots where taken_at <= ?) and ${heroWhere} order by snapshot_id desc, abs(projection - line) desc, id limit 1`, firstAt) ?? null);
    expect(await same(P, (s) => latestHeroOf(s, ['nba'], new Date('2025-11-05T15:00:00.000Z')))).toBeNull();
    expect((await same(P, (s) => latestHeroOf(s, ['nba'], new Date('2099-01-01T00:00:00.000Z'))))?.id).toBe(latest?.id);
  });
});

describe('snapshot-watch.ts', () => {
  it('snapshotHeadById: the envelope of a snapshot', async () => {
    const head = await same(P, (s) => snapshotHeadById(s, latestId));
    expect(head).toEqual(P.raw.prepare('select id, taken_at as takenAt, slate_date as slateDate, graded_count as gradedCount, row_count as rowCount from snapshots where id = ?').get(latestId));
    expect(await same(P, (s) => snapshotHeadById(s, 999_999))).toBeNull();
  });

  it('latestSnapshotWatcher: the latest id per sport, asked twice', async () => {
    const watch = { sqlite: latestSnapshotWatcher(P.sqlite), pg: latestSnapshotWatcher(P.pg) };
    for (let i = 0; i < 2; i++) {
      const got = [await watch.sqlite('nba'), await watch.pg('nba'), await watch.sqlite('mlb'), await watch.pg('mlb')];
      expect(got).toEqual([latestId, latestId, undefined, undefined]);
    }
  });
});
