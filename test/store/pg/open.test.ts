import { count, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { MIGRATION_LOCK_KEY, openPg, type OpenedPg } from '../../../src/store/pg/open.js';
import { PG_MIGRATIONS_DIR } from '../../../src/store/paths.js';
import { users } from '../../../src/store/pg/schema.js';
import { freshPgDatabase, testPgAdminUrl } from '../../helpers/pg.js';

const JOURNAL = (JSON.parse(readFileSync(join(PG_MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries;
const PASSWORD = 'hunter2-never-shown';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fresh(): Promise<string> {
  const database = await freshPgDatabase();
  cleanups.push(database.drop);
  return database.url;
}

async function open(url: string, options: { migrate?: boolean } = {}): Promise<OpenedPg> {
  const store = await openPg(url, options);
  cleanups.push(() => store.pool.end());
  return store;
}

async function tables(store: OpenedPg): Promise<string[]> {
  const { rows } = await store.pool.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`);
  return rows.map((r) => r.name);
}

async function migrationRows(store: OpenedPg): Promise<Array<{ hash: string; created_at: string }>> {
  return (await store.pool.query<{ hash: string; created_at: string }>('select hash, created_at from drizzle.__drizzle_migrations order by id')).rows;
}

/** The URL with a password added and the path swapped, to prove neither reaches a message. */
function variant(url: string, change: { user?: string; port?: number; database?: string }): string {
  const u = new URL(url);
  u.password = PASSWORD;
  if (change.user) u.username = change.user;
  if (change.port) u.port = String(change.port);
  if (change.database) u.pathname = `/${change.database}`;
  return u.toString();
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.code).toBe('BAD_INPUT');
  expect(appError.exitCode).toBe(2);
  expect(appError.message).not.toContain(PASSWORD);
  return appError;
}

describe('openPg', () => {
  it('migrates a fresh database: every table exists and the journal is applied', async () => {
    const store = await open(await fresh());
    expect(await tables(store)).toEqual([
      'api_tokens', 'closing_prices', 'content_log', 'data_migrations', 'grade_locks', 'graded_rows', 'kv_cache', 'ledger_entries', 'pipeline_runs',
      'player_game_stats', 'preferences', 'run_locks', 'snapshots', 'stripe_events', 'subscriptions', 'ticker_events', 'usage_events', 'users',
    ]);
    expect(await migrationRows(store)).toHaveLength(JOURNAL.length);
    // The lock is released once the migration is done, not held for the life of the pool.
    const { rows } = await store.pool.query(`select 1 from pg_locks where locktype = 'advisory' and objid = $1`, [MIGRATION_LOCK_KEY]);
    expect(rows).toEqual([]);
    expect(store.label).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/propgrade_t_/);
  });

  it('opens a migrated database again without migrating anything and keeps its rows', async () => {
    const url = await fresh();
    const first = await open(url);
    await first.db.insert(users).values({ email: 'a@example.com', tier: 'free', createdAt: '2025-01-01T00:00:00.000Z' });
    const before = await migrationRows(first);
    const second = await open(url);
    expect(await migrationRows(second)).toEqual(before);
    expect(await second.db.select({ email: users.email }).from(users)).toEqual([{ email: 'a@example.com' }]);
  });

  it('lets processes opening one fresh database at once all succeed, with the migrations run once', async () => {
    const url = await fresh();
    const stores = await Promise.all([1, 2, 3, 4].map(() => open(url)));
    expect(await migrationRows(stores[0]!)).toHaveLength(JOURNAL.length);
    for (const store of stores) expect(await tables(store)).toHaveLength(18);
  });

  it("applies the migrations as drizzle's migrator does: the same schema and record, and a database drizzle half-migrated is finished", async () => {
    const columns = async (store: OpenedPg) =>
      (await store.pool.query(`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema in ('public', 'drizzle') order by 1, 2`)).rows;
    const indexes = async (store: OpenedPg) => (await store.pool.query(`select indexdef from pg_indexes where schemaname in ('public', 'drizzle') order by 1`)).rows;
    // The reference: drizzle's own migrator over the whole journal.
    const byDrizzle = await open(await fresh(), { migrate: false });
    await migrate(drizzle(byDrizzle.pool), { migrationsFolder: PG_MIGRATIONS_DIR });
    // drizzle's migrator over the first journal entry only (a database an older build made), then openPg.
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-pg-journal-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    cpSync(PG_MIGRATIONS_DIR, dir, { recursive: true });
    const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
    const url = await fresh();
    const half = await open(url, { migrate: false });
    await migrate(drizzle(half.pool), { migrationsFolder: dir });
    expect(await migrationRows(half)).toHaveLength(1);
    const finished = await open(url);
    for (const store of [finished, await open(await fresh())]) {
      expect(await migrationRows(store)).toEqual(await migrationRows(byDrizzle));
      expect(await columns(store)).toEqual(await columns(byDrizzle));
      expect(await indexes(store)).toEqual(await indexes(byDrizzle));
    }
  });

  it('leaves a database untouched when asked not to migrate', async () => {
    const store = await open(await fresh(), { migrate: false });
    expect(await tables(store)).toEqual([]);
  });

  it("reads counts and int8 sums as numbers, as SQLite's driver does", async () => {
    const store = await open(await fresh());
    await store.db.insert(users).values([1, 2, 3].map((n) => ({ email: `${n}@example.com`, tier: 'free' as const, createdAt: '2025-01-01T00:00:00.000Z' })));
    expect(await store.db.select({ n: count() }).from(users)).toEqual([{ n: 3 }]);
    expect(await store.db.select({ n: sql<number>`count(*)` }).from(users)).toEqual([{ n: 3 }]);
    const { rows } = await store.pool.query('select count(*) as n, sum(count(*)) over () as total, avg(id) as mean from users group by id order by id limit 1');
    expect(rows).toEqual([{ n: 1, total: 3, mean: 1 }]);
  });

  it.each([
    ['not a URL', 'just words', /not a URL/],
    ['another scheme', `mysql://root:${PASSWORD}@127.0.0.1/propgrade`, /scheme is mysql:\/\/.*postgres:\/\//],
    ['no host', `postgres:///propgrade?password=${PASSWORD}`, /no host/],
    ['no database', `postgres://postgres:${PASSWORD}@127.0.0.1:5432`, /no database name/],
  ])('rejects a malformed URL (%s) as BAD_INPUT without echoing it', async (_case, url, message) => {
    const error = await rejection(openPg(url));
    expect(error.message).toMatch(/^invalid PostgreSQL URL: /);
    expect(error.message).toMatch(message);
  });

  it('names the host and port it cannot reach', async () => {
    const closed = await new Promise<number>((done) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => done(port));
      });
    });
    const error = await rejection(openPg(variant(testPgAdminUrl(), { port: closed, database: 'propgrade' })));
    expect(error.message).toBe(`cannot reach PostgreSQL at postgres://postgres@127.0.0.1:${closed}/propgrade (ECONNREFUSED)`);
  });

  it('names a database that does not exist', async () => {
    const url = variant(testPgAdminUrl(), { database: 'propgrade_no_such_db' });
    const error = await rejection(openPg(url));
    expect(error.message).toMatch(/^database "propgrade_no_such_db" does not exist at postgres:\/\/postgres@127\.0\.0\.1:\d+\/propgrade_no_such_db$/);
  });

  it('names a role the server refuses (trust auth takes any password, so an unknown role stands in for wrong credentials)', async () => {
    const url = variant(await fresh(), { user: 'propgrade_nobody' });
    const error = await rejection(openPg(url));
    expect(error.message).toMatch(/^PostgreSQL at postgres:\/\/propgrade_nobody@127\.0\.0\.1:\d+\/propgrade_t_\w+ refused role "propgrade_nobody": .*does not exist \(SQLSTATE 28000\)$/);
  });
});
