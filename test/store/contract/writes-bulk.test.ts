import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgStore } from '../../../src/store/db.js';
import { pgBulkInsert } from '../../../src/store/pg/bulk-insert.js';
import { upsertGameStats } from '../../../src/store/repo/game-stats.js';
import { chunks, pgRun } from '../../../src/store/pg/_raw.js';
import { bindValues, columnList, insertColumns } from '../../../src/store/_columns.js';
import { getTableName, type Table } from 'drizzle-orm';
import { insertSnapshot, JsonText, type NewGradedRow } from '../../../src/store/repo/snapshots.js';
import { gradedRows } from '../../../src/store/schema.js';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import { emptyStoreOn, ENGINES, type EngineStore } from '../../helpers/engines.js';
import { raw } from './writes-helpers.js';

/**
 * Contract (issue 39): PostgreSQL's bulk inserts, which COPY a statement's rows in the binary format
 * (src/store/pg/bulk-insert.ts, copy-binary.ts; through a temporary table when an ON CONFLICT
 * clause applies; as one JSON parameter when a value cannot go as its column's type), store what
 * binding each value stores (one parameter per value), column for column as PostgreSQL prints it,
 * and the history writer that uses it stores on PostgreSQL what it stores on SQLite. Text that
 * JSON escapes or that holds control characters, json columns of every JSON kind and stored JSON
 * text carried through, non-finite numbers, -0, booleans, nulls, more rows than one COPY takes (ids
 * in order), an upsert's ON CONFLICT clause, and any values fast-check makes.
 */

const TRICKY = ['quote " and \\ backslash', 'line\nbreak\ttab', 'unicode é ✓ 𝄞', '{"looks":"like json"}', ''];
const DETAILS: unknown[] = [{ b: 1, a: 'é"\\' }, 'a json string', 12.25, [1, 'two', null], null, { nested: { deep: [true, false] } }];

function row(i: number, over: Partial<NewGradedRow> = {}): NewGradedRow {
  return {
    sport: 'nba', eventId: 'ev1', commenceTime: '2025-11-05T23:00:00.000Z', homeTeam: 'BOS', awayTeam: 'NYK', player: `Player ${i}`, playerKey: `p-${String(i).padStart(5, '0')}`,
    team: 'NYK', opponent: 'BOS', statType: 'points', line: 0.5 + i, side: 'over', grade: 'B', insufficientData: false, projection: i / 7, book: 'fanduel',
    overOdds: -110, underOdds: -110, bookOdds: -110, thinConsensus: i % 2 === 0, isMainLine: true, gradedAt: '2025-11-05T15:05:00.000Z', modelDetail: { i, s: 'x' },
    ...over,
  };
}

function trickyRows(): NewGradedRow[] {
  return [
    ...TRICKY.map((player, i) => row(i, { player })),
    ...DETAILS.map((modelDetail, i) => row(10 + i, { modelDetail: modelDetail as Record<string, unknown> })),
    row(20, { modelDetail: new JsonText('{"kept":"as text","n":[1,2]}') as unknown as Record<string, unknown> }),
    row(21, { projection: Infinity, overOdds: -Infinity, fairProb: Number.MIN_VALUE, value: 0.1 + 0.2, consensusBooks: 2_000_000_000 }),
    row(22, { team: null, grade: null, takeable: null, book: undefined, outlierPrice: false }),
    // Numbers as COPY's binary format carries them (pg/copy-binary.ts): -0, NaN, the smallest double, integer bounds.
    row(24, { projection: -0, fairProb: NaN, value: -5e-324, overOdds: 1e21, consensusBooks: -2147483648 }),
    // Texts that look like the split's own null or an empty last value.
    row(23, { player: 'NULL', team: '\\N', opponent: '', refusalReason: '\u001d', awayTeam: '\u001eX' }),
  ];
}

const head = (n: number) => ({ sport: 'nba', runId: null, takenAt: '2025-11-05T15:05:00.000Z', slateDate: '2025-11-05', gradedCount: n, rowCount: n, source: 'replay' as const });

describe('pgBulkInsert on PostgreSQL', () => {
  let pg: EngineStore;
  beforeAll(async () => {
    pg = await emptyStoreOn('postgres');
  }, 60_000);
  afterAll(async () => pg?.cleanup());

  /** Every column of a snapshot's rows but the ids, as PostgreSQL prints them, in id order. */
  const printed = async (snapshotId: number) =>
    (await raw(pg.store, 'select row_to_json(r)::text as t from (select * from graded_rows where snapshot_id = ? order by id) as r', [snapshotId])).map((r) =>
      String(r['t']).replace(/^\{"id":\d+,"snapshot_id":\d+,/, '{'),
    );

  it('stores, column for column, what one bound parameter per value stores', async () => {
    const store = pg.store as PgStore;
    const rows = trickyRows();
    const bound = await insertSnapshot(store, head(0), []);
    const sent = await insertSnapshot(store, head(0), []);
    expect(await boundInsert(store, gradedRows, rows, { override: { snapshotId: bound } })).toBe(rows.length);
    expect(await pgBulkInsert(store, gradedRows, rows, { override: { snapshotId: sent } })).toBe(rows.length);
    const want = await printed(bound);
    expect(want.length).toBe(rows.length);
    expect(await printed(sent)).toStrictEqual(want);
    const text = await raw(store, 'select model_detail::text as t from graded_rows where snapshot_id = ? order by id', [sent]);
    expect(text.slice(TRICKY.length, TRICKY.length + DETAILS.length + 1).map((r) => r['t'])).toEqual([...DETAILS.map((d) => (d === null ? null : JSON.stringify(d))), '{"kept":"as text","n":[1,2]}']);
    // An ON CONFLICT clause applies: the same rows again are all skipped.
    expect(await pgBulkInsert(store, gradedRows, rows, { override: { snapshotId: sent }, suffix: ' on conflict do nothing' })).toBe(0);
  });

  it.each([
    ['a text holding control characters', { player: 'split\u001fhere\u0001' }],
    ['a text that is one control character', { team: '\u001e' }],
    ['one row whose last text column is empty', { opponent: '', edgeNow: '' }],
  ] as Array<[string, Partial<NewGradedRow>]>)('%s stores what binding stores', async (_, over) => {
    const store = pg.store as PgStore;
    const rows = [row(1, over)];
    const bound = await insertSnapshot(store, head(0), []);
    const sent = await insertSnapshot(store, head(0), []);
    await boundInsert(store, gradedRows, rows, { override: { snapshotId: bound } });
    expect(await pgBulkInsert(store, gradedRows, rows, { override: { snapshotId: sent } })).toBe(1);
    const got = await printed(sent);
    expect(got).toStrictEqual(await printed(bound));
    for (const v of Object.values(over)) expect(got[0]).toContain(JSON.stringify(v));
  });

  it('any texts, numbers, booleans and JSON store what binding stores, with and without a conflict clause', async () => {
    const store = pg.store as PgStore;
    // Text PostgreSQL takes: any Unicode but NUL, which neither way can store.
    const text = fc.string({ unit: 'grapheme', maxLength: 12 }).map((t) => t.replace(/\0/g, ''));
    const maybe = <T,>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
    const over = fc.record({
      player: text,
      team: maybe(text),
      projection: maybe(fc.double()),
      fairProb: maybe(fc.double({ min: 0, max: 1 })),
      overOdds: maybe(fc.integer({ min: -100_000, max: 100_000 })),
      consensusBooks: maybe(fc.integer()),
      thinConsensus: maybe(fc.boolean()),
      modelDetail: maybe(fc.jsonValue().map((v) => (typeof v === 'object' && v !== null ? v : { v }))),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(over, { minLength: 1, maxLength: 6 }), fc.boolean(), async (overs, conflict) => {
        const rows = overs.map((o, i) => row(i, o as Partial<NewGradedRow>));
        const bound = await insertSnapshot(store, head(0), []);
        const sent = await insertSnapshot(store, head(0), []);
        await boundInsert(store, gradedRows, rows, { override: { snapshotId: bound } });
        expect(await pgBulkInsert(store, gradedRows, rows, { override: { snapshotId: sent }, ...(conflict ? { suffix: ' on conflict do nothing' } : {}) })).toBe(rows.length);
        expect(await printed(sent)).toStrictEqual(await printed(bound));
      }),
      { numRuns: 40 },
    );
  });

  it('a fraction in an integer column is refused as binding refuses it, nothing written', async () => {
    const store = pg.store as PgStore;
    const id = await insertSnapshot(store, head(0), []);
    const rows = [row(1, { consensusBooks: 1.5 })];
    await expect(boundInsert(store, gradedRows, rows, { override: { snapshotId: id } })).rejects.toThrow(/integer/);
    await expect(pgBulkInsert(store, gradedRows, rows, { override: { snapshotId: id } })).rejects.toThrow(/integer/);
    expect(await printed(id)).toEqual([]);
  });

  it('more rows than one statement takes keep their order, so their ids', async () => {
    const store = pg.store as PgStore;
    const id = await insertSnapshot(store, head(0), []);
    const rows = Array.from({ length: 12_003 }, (_, i) => row(i));
    expect(await pgBulkInsert(store, gradedRows, rows, { override: { snapshotId: id } })).toBe(rows.length);
    const stored = await raw(store, 'select id, player_key from graded_rows where snapshot_id = ? order by id', [id]);
    const first = Number(stored[0]?.['id']);
    expect(stored.map((r) => Number(r['id']) - first)).toEqual(rows.map((_, i) => i));
    expect(stored.map((r) => r['player_key'])).toEqual(rows.map((r) => r.playerKey));
  });
});

describe('the history writer through it: the same lines on both engines', () => {
  const line = (i: number, over: Partial<PlayerGameStat> = {}): PlayerGameStat => ({
    sport: 'nba', playerKey: `k-${i}`, playerName: TRICKY[i % TRICKY.length] as string, team: 'NYK', opponent: 'BOS', date: `2025-11-0${1 + (i % 5)}`, gameId: `g-${i % 3}`,
    minutes: i % 4 === 0 ? null : 30 + i / 3, stats: { points: i, rebounds: i % 2 === 0 ? null : 0.5 }, extras: { 'odd "key"': i }, source: 'test', ...over,
  });
  const seen = new Map<string, unknown>();

  it.each(ENGINES)('%s', async (engine) => {
    const e = await emptyStoreOn(engine);
    try {
      // 2,500 lines (three writer batches), one repeated later with new values: it keeps its first place.
      const lines = Array.from({ length: 2500 }, (_, i) => line(i));
      await upsertGameStats(e.store, [...lines, line(7, { team: 'LAL', stats: { points: 99 } })]);
      const json = engine === 'postgres' ? '::text' : '';
      const stored = await raw(e.store, `select id, sport, player_key, player_name, team, opponent, date, game_key, minutes, stats${json} as stats, extras${json} as extras, source from player_game_stats order by id`);
      expect(stored.length).toBe(2500);
      expect(stored[7]).toMatchObject({ id: 8, team: 'LAL', stats: '{"points":99}' });
      expect(stored[4]).toMatchObject({ player_name: '', minutes: null, stats: '{"points":4,"rebounds":null}', extras: '{"odd \\"key\\"":4}' });
      seen.set(engine, stored);
    } finally {
      await e.cleanup();
    }
    if (seen.size === ENGINES.length) expect(seen.get('postgres')).toStrictEqual(seen.get('sqlite'));
  });
});

/**
 * The reference: each value bound as its own parameter with the values drizzle would bind (how
 * PostgreSQL rows were written before the JSON insert), in multi-row INSERTs.
 */
async function boundInsert(store: PgStore, table: Table, rows: ReadonlyArray<Record<string, unknown>>, options: { override?: Record<string, unknown> } = {}): Promise<number> {
  const cols = insertColumns(table);
  const head = `insert into "${getTableName(table)}" (${columnList(cols)}) values `;
  let written = 0;
  for (const slice of chunks(rows, Math.max(1, Math.floor(60_000 / cols.length)))) {
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const row of slice) {
      const bound = bindValues(cols, row, options.override);
      const at = values.length;
      tuples.push(`(${bound.map((_, i) => `$${at + i + 1}`).join(', ')})`);
      for (const v of bound) values.push(v);
    }
    written += await pgRun(store, head + tuples.join(', '), values);
  }
  return written;
}
