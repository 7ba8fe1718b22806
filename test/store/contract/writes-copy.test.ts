import { getTableName, type Table } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { COPY_ORDER, copyStore, countRows } from '../../../src/store/copy.js';
import { openStore, type Store } from '../../../src/store/db.js';
import * as schema from '../../../src/store/schema.js';
import { recordStripeEvent, upsertSubscription } from '../../../src/store/repo/billing.js';
import { writeLog } from '../../../src/store/repo/content-log.js';
import { on } from '../../../src/store/repo/handle.js';
import { upsertPreferences } from '../../../src/store/repo/preferences.js';
import { acquireRunLock } from '../../../src/store/repo/run-lock.js';
import { startRun } from '../../../src/store/repo/runs.js';
import { insertSnapshot } from '../../../src/store/repo/snapshots.js';
import { insertTickerEvents } from '../../../src/store/repo/ticker.js';
import { insertUsage } from '../../../src/store/repo/usage.js';
import { insertUserWithToken, revokeTokensOf } from '../../../src/store/repo/users.js';
import { copyOn, emptyStoreOn, type EngineStore } from '../../helpers/engines.js';
import { replayLoopFiles } from '../../helpers/replay-store.js';
import { raw } from './writes-helpers.js';

/**
 * Contract: `db copy` (src/store/copy.ts) from the README loop's settled SQLite store (plus a row in
 * every account table) to PostgreSQL and from there to a new SQLite file. The figures it is held to
 * are read from the SQLite files themselves.
 */

const tableOf = (name: (typeof COPY_ORDER)[number]) => getTableName(schema[name] as Table);
const TABLES = COPY_ORDER.map(tableOf);

let dir: string;
let sourcePath: string;
let source: Store;
let pgCopy: EngineStore;
let back: EngineStore;
/** Row counts per SQL table, read raw from the source file. */
let sourceCounts: Record<string, number>;

async function rawCounts(store: Store): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = (await raw(store, `select count(*) as n from "${t}"`))[0]?.['n'] as number;
  return out;
}

/** One row in each table the replay loop leaves empty, with booleans, JSON and nulls in them. */
async function addAccountRows(store: Store): Promise<void> {
  const at = '2025-11-06T13:00:00.000Z';
  const user = await insertUserWithToken(store, { email: 'copy@example.com', tier: 'desk', createdAt: at, founderPricing: true, founderCode: 'EARLY' }, 'copy-hash');
  await insertUserWithToken(store, { email: 'second@example.com', tier: 'free', createdAt: at }, 'second-hash');
  await revokeTokensOf(store, user.id, at);
  await upsertPreferences(store, user.id, { sports: ['nhl', 'nba'], books: null, bankrollLimit: 99.5, onboardingComplete: true, updatedAt: at });
  await upsertSubscription(store, { userId: user.id, stripeSubscriptionId: 'sub_1', stripeCustomerId: 'cus_1', status: 'active', priceId: null, tier: 'desk', graceUntil: null, eventCreated: 4102444800, updatedAt: at });
  await recordStripeEvent(store, { id: 'evt_1', type: 'invoice.paid', created: 4102444800, receivedAt: at, outcome: 'applied' });
  await insertUsage(store, `user:${user.id}`, 'scan', at);
  await writeLog(store, 'ghost_draft', '2025-11-06:settle', { status: 'draft', externalId: 'p1', detail: { z: 1, a: [true, null] } }, new Date(at));
  // A lock row left by a holder on another host (SQLite keeps only the row).
  const held = await acquireRunLock(store, 'snapshot:nhl', 'pid:1@another-host', () => new Date(at));
  if (!('release' in held)) throw new Error('the run lock was not taken');
  await insertTickerEvents(store, [{ kind: 'PIN', sport: 'nba', createdAt: at, text: 'pinned', runId: null, expiresAt: null, payload: { b: 1, a: 2 } }]);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-copy-'));
  sourcePath = (await replayLoopFiles(dir)).settled;
  const writable = openStore(sourcePath);
  await addAccountRows(writable);
  writable.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  await writable.close();
  source = openStore(sourcePath);
  sourceCounts = await rawCounts(source);
  pgCopy = await copyOn('postgres', sourcePath); // copyStore into a fresh PostgreSQL database
  back = await emptyStoreOn('sqlite');
  await copyStore(pgCopy.store, back.store);
}, 180_000);

afterAll(async () => {
  await back?.cleanup();
  await pgCopy?.cleanup();
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('db copy: SQLite -> PostgreSQL -> SQLite', () => {
  it('the source holds rows in every table the copy knows (so every table is exercised)', () => {
    expect(Object.keys(sourceCounts)).toStrictEqual(TABLES);
    for (const t of TABLES) expect(sourceCounts[t], t).toBeGreaterThan(0);
    expect(sourceCounts['player_game_stats']).toBeGreaterThan(20_000);
  });

  it('equal counts per table on all three stores, by countRows and by raw counts', async () => {
    expect(pgCopy.store.engine).toBe('postgres');
    const expected = COPY_ORDER.map((name) => ({ table: name, rows: sourceCounts[tableOf(name)] }));
    expect(await countRows(source)).toStrictEqual(expected);
    expect(await countRows(pgCopy.store)).toStrictEqual(expected);
    expect(await countRows(back.store)).toStrictEqual(expected);
    expect(await rawCounts(pgCopy.store)).toStrictEqual(sourceCounts);
    expect(await rawCounts(back.store)).toStrictEqual(sourceCounts);
  });

  // Every table, every column, as SQLite stores it: the round trip through PostgreSQL changes no byte
  // of a row (JSON text, 0/1 booleans, reals, nulls, ids).
  it.each(TABLES)('%s: the round-trip file holds the source rows exactly', async (table) => {
    const order = table === 'kv_cache' || table === 'run_locks' ? (table === 'kv_cache' ? 'key' : 'name') : table === 'stripe_events' ? 'id' : table === 'preferences' ? 'user_id' : 'id';
    const a = await raw(source, `select * from "${table}" order by "${order}"`);
    const b = await raw(back.store, `select * from "${table}" order by "${order}"`);
    expect(b.length).toBe(sourceCounts[table]);
    expect(b).toStrictEqual(a);
  });

  // Whole rows as the repo reads them (drizzle, each engine's own types): the same objects from the
  // SQLite source and the PostgreSQL copy, JSON key order included.
  it.each(['gradedRows', 'gradeLocks', 'ledgerEntries', 'pipelineRuns', 'kvCache', 'users', 'preferences', 'subscriptions', 'stripeEvents', 'contentLog', 'tickerEvents'] as const)(
    '%s: the PostgreSQL copy reads back the source rows whole',
    async (name) => {
      const read = async (store: Store) => {
        const { db, t } = await on(store);
        const table = t[name] as unknown as Table;
        const rows = (await db.select().from(table as never)) as Array<Record<string, unknown>>;
        const key = name === 'kvCache' ? 'key' : name === 'preferences' ? 'userId' : 'id';
        return rows.sort((x, y) => (String(x[key]).padStart(20, '0') < String(y[key]).padStart(20, '0') ? -1 : 1));
      };
      const a = await read(source);
      const b = await read(pgCopy.store);
      expect(b.length).toBe(sourceCounts[tableOf(name)]);
      expect(b).toStrictEqual(a);
      expect(JSON.stringify(b)).toBe(JSON.stringify(a)); // key order of JSON values too
    },
  );

  it('identity sequences on the PostgreSQL copy continue after the largest copied id', async () => {
    const max = async (table: string) => (await raw(source, `select max(id) as m from "${table}"`))[0]?.['m'] as number;
    const [runs, snaps, rows, users] = [await max('pipeline_runs'), await max('snapshots'), await max('graded_rows'), await max('users')];
    expect(await startRun(pgCopy.store, 'snapshot', 'nba', '2025-11-07T15:00:00.000Z')).toBe(runs + 1);
    const snapshotId = await insertSnapshot(pgCopy.store, { sport: 'nba', runId: runs + 1, takenAt: '2025-11-07T15:05:00.000Z', slateDate: '2025-11-07', gradedCount: 0, rowCount: 1, source: 'live' }, [
      { sport: 'nba', eventId: 'new', commenceTime: 'c', homeTeam: 'H', awayTeam: 'A', player: 'P', playerKey: 'p', statType: 'points', line: 1.5, side: 'over', insufficientData: false, gradedAt: 'g' },
    ]);
    expect(snapshotId).toBe(snaps + 1);
    expect(await raw(pgCopy.store, 'select id from graded_rows where snapshot_id = ?', [snapshotId])).toStrictEqual([{ id: rows + 1 }]);
    expect((await insertUserWithToken(pgCopy.store, { email: 'new@example.com', tier: 'free', createdAt: 'x' }, 'new-hash')).id).toBe(users + 1);
    // Every identity column of the copy: its sequence's next value is past the table's largest id.
    if (pgCopy.store.engine !== 'postgres') throw new Error('not postgres');
    const { rows: seqs } = await pgCopy.store.pg.pool.query<{ table: string; next: number; top: number }>(
      `select c.table_name as table from information_schema.columns c where c.table_schema = current_schema() and c.column_name = 'id' and (c.is_identity = 'YES' or c.column_default like 'nextval(%')`,
    );
    expect(seqs.map((s) => s.table).sort()).toStrictEqual(TABLES.filter((t) => !['kv_cache', 'run_locks', 'preferences', 'stripe_events'].includes(t)).sort());
    for (const { table } of seqs) {
      const [{ last, called }] = (await pgCopy.store.pg.pool.query<{ last: number; called: boolean }>(`select last_value as last, is_called as called from ${(await pgCopy.store.pg.pool.query<{ s: string }>('select pg_get_serial_sequence($1, $2) as s', [`"${table}"`, 'id'])).rows[0]?.s}`)).rows as [{ last: number; called: boolean }];
      const top = (await raw(pgCopy.store, `select coalesce(max(id), 0) as m from "${table}"`))[0]?.['m'] as number;
      expect(called ? last + 1 : last, table).toBe(top + 1);
    }
  });

  it('a non-empty target is refused with CONFLICT, and left as it was', async () => {
    const before = await rawCounts(back.store);
    const pgBefore = await rawCounts(pgCopy.store);
    for (const target of [pgCopy.store, back.store]) {
      const error = await copyStore(source, target).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('CONFLICT');
      expect((error as AppError).message).toMatch(/is not empty \(users: \d+, apiTokens: \d+/);
    }
    expect(await rawCounts(back.store)).toStrictEqual(before);
    expect(await rawCounts(pgCopy.store)).toStrictEqual(pgBefore);
  });
});
