import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freshPgDatabase } from '../helpers/pg.js';
import { seededStoreFile } from '../helpers/replay-store.js';
import Database from 'better-sqlite3';

/**
 * The `db` commands on a PostgreSQL store, run as an operator runs them (issue 35): migrate, status,
 * check, backup (pg_dump) and copy in both directions, every figure checked against the raw rows of
 * each side (SQLite through better-sqlite3, PostgreSQL through pg), not against the command's own report.
 */

const TABLES = ['player_game_stats', 'kv_cache', 'pipeline_runs', 'snapshots', 'graded_rows', 'grade_locks', 'ledger_entries'];

let dir: string;
let seeded: string;
const dbs: Array<{ drop(): Promise<void> }> = [];

async function pgCount(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(`select count(*) as n from "${table}"`)).rows[0]?.n);
  } finally {
    await client.end();
  }
}

function sqliteCount(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function freshDb(): Promise<string> {
  const db = await freshPgDatabase();
  dbs.push(db);
  return db.url;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-dbpg-'));
  seeded = join(dir, 'seeded.sqlite');
  await seededStoreFile(seeded);
  // A graded slate beside the seed history, so the copy carries snapshots, rows and locks too.
  const run = await runCli(['snapshot', 'nba', '--replay', 'data/replay', '--db', seeded, '--json']);
  expect(run.code, run.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  for (const db of dbs) await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('db migrate, status and check on PostgreSQL', () => {
  it('migrates a fresh database once, reports its tables, and checks it clean', async () => {
    const url = await freshDb();
    const cwd = readdirSync(process.cwd()).sort();
    const first = await runCli(['--db', url, 'db', 'migrate', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ applied: ['0000_init', '0001_data_migrations', '0002_close_books_pinnacle', '0003_ledger_entered_at'], pending: [] });
    const again = await runCli(['--db', url, 'db', 'migrate', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: [], pending: [] });
    const status = await runCli(['--db', url, 'db', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    const body = JSON.parse(status.stdout) as { tables: Array<{ name: string; rows: number }>; pending: string[] };
    expect(body.pending).toEqual([]);
    expect(body.tables.map((t) => t.name)).toEqual(expect.arrayContaining(TABLES));
    // Empty but for the data migrations' record: ledger-entered-at ran (on no rows) when the store opened.
    expect(body.tables.filter((t) => t.name !== 'data_migrations').every((t) => t.rows === 0)).toBe(true);
    expect(body.tables.find((t) => t.name === 'data_migrations')?.rows).toBe(1);
    const check = await runCli(['--db', url, 'db', 'check']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain(': ok');
    // Nothing on disk for a URL.
    expect(readdirSync(process.cwd()).sort()).toEqual(cwd);
  });
});

describe('db copy between engines, and db backup on PostgreSQL', () => {
  it('SQLite -> PostgreSQL -> SQLite keeps every row; a second copy into the same database is refused', async () => {
    const url = await freshDb();
    const there = await runCli(['--db', seeded, 'db', 'copy', '--to', url, '--json']);
    expect(there.code, there.stderr).toBe(0);
    for (const table of TABLES) expect(await pgCount(url, table), table).toBe(sqliteCount(seeded, table));
    expect(sqliteCount(seeded, 'graded_rows')).toBeGreaterThan(1000);

    const back = join(dir, 'back.sqlite');
    const home = await runCli(['--db', url, 'db', 'copy', '--to', back, '--json']);
    expect(home.code, home.stderr).toBe(0);
    for (const table of TABLES) expect(sqliteCount(back, table), table).toBe(sqliteCount(seeded, table));

    // The same slate reads the same from the copy on either engine.
    const fromPg = await runCli(['--db', url, 'slate', 'nba', '--json']);
    const fromFile = await runCli(['--db', seeded, 'slate', 'nba', '--json']);
    expect(fromPg.code, fromPg.stderr).toBe(0);
    expect(fromPg.stdout).toBe(fromFile.stdout);

    const again = await runCli(['--db', seeded, 'db', 'copy', '--to', url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty/);
    expect(await pgCount(url, 'graded_rows')).toBe(sqliteCount(seeded, 'graded_rows'));
  }, 120_000);

  it('backs up with pg_dump into a new file that pg_restore lists, and never overwrites one', async () => {
    const url = await freshDb();
    expect((await runCli(['--db', seeded, 'db', 'copy', '--to', url])).code).toBe(0);
    const file = join(dir, 'backup.dump');
    const run = await runCli(['--db', url, 'db', 'backup', file, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
    const body = JSON.parse(run.stdout) as { tables: number; bytes: number };
    // Every table of the schema has a TABLE DATA entry (18 of propgrade's, plus drizzle's migrations table).
    expect(body.tables).toBe(19);
    const twice = await runCli(['--db', url, 'db', 'backup', file]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/exists/);
  }, 60_000);
});
