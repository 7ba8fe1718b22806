import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../../errors.js';
import { countRows } from '../copy.js';
import { ORPHAN_QUERIES } from '../orphans.js';
import { journal, PG_MIGRATIONS_DIR } from '../paths.js';
import type { PgStore } from '../store.js';
import { parsePgUrl } from './open.js';
import { pendingMigrations } from './ops/migrations.js';
import { openPgStore } from './store.js';

/**
 * `db status`, `db check` and `db backup` on a PostgreSQL store. The server keeps its own pages
 * and enforces the declared foreign keys, so the check asks it what SQLite's pragmas answer there:
 * whether page checksums are on, whether any foreign key was left unvalidated, and the orphan
 * queries both engines share. The backup is pg_dump's custom format, which pg_restore reads.
 */

const run = promisify(execFile);

export interface PgStatus {
  path: string;
  engine: 'postgres';
  exists: true;
  applied: Array<{ tag: string; appliedAt: string | null }>;
  pending: string[];
  journalMode: null;
  tables: Array<{ name: string; rows: number }>;
}

/** Runs `fn` on the store at `url`, opened without migrating, and closes it. */
async function withPgStore<T>(url: string, fn: (store: PgStore) => Promise<T>): Promise<T> {
  const store = await openPgStore(url, { migrate: false });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** `db status` of the PostgreSQL store at `url`, read without migrating. */
export function pgStatusAt(url: string): Promise<PgStatus> {
  return withPgStore(url, pgStatus);
}

async function pgStatus(store: PgStore): Promise<PgStatus> {
  const pending = await pendingMigrations(store.pg);
  const applied = journal(PG_MIGRATIONS_DIR)
    .filter((e) => !pending.includes(e.tag))
    .map((e) => ({ tag: e.tag, appliedAt: null }));
  const tables = pending.length === journal(PG_MIGRATIONS_DIR).length ? [] : await tableRows(store);
  return { path: store.label, engine: 'postgres', exists: true, applied, pending, journalMode: null, tables };
}

async function tableRows(store: PgStore): Promise<Array<{ name: string; rows: number }>> {
  const { rows } = await store.pg.pool.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name collate \"C\"");
  const counts = new Map((await countRows(store)).map((c) => [c.table, c.rows]));
  const out: Array<{ name: string; rows: number }> = [];
  for (const { name } of rows) {
    const known = [...counts.entries()].find(([key]) => snake(key) === name);
    const n = known ? known[1] : Number((await store.pg.pool.query<{ n: string }>(`select count(*) as n from "${name}"`)).rows[0]?.n ?? 0);
    out.push({ name, rows: n });
  }
  return out;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export interface PgCheck {
  path: string;
  engine: 'postgres';
  ok: boolean;
  integrity: string[];
  foreignKeyViolations: Array<{ table: string; rowid: number | null; parent: string }>;
  orphans: Array<{ relation: string; rows: number }>;
}

/** `db check` of the PostgreSQL store at `url`, opened without migrating. */
export function checkPgStoreAt(url: string): Promise<PgCheck> {
  return withPgStore(url, checkPgStore);
}

async function checkPgStore(store: PgStore): Promise<PgCheck> {
  const pool = store.pg.pool;
  const checksums = (await pool.query<{ data_checksums: string }>('show data_checksums')).rows[0]?.data_checksums ?? 'unknown';
  const integrity = [`pages are the server's: data_checksums ${checksums}`];
  const unvalidated = await pool.query<{ table: string; parent: string }>(
    `select conrelid::regclass::text as table, confrelid::regclass::text as parent from pg_constraint
       where contype = 'f' and not convalidated and connamespace = current_schema()::regnamespace`,
  );
  const foreignKeyViolations = unvalidated.rows.map((r) => ({ table: r.table, rowid: null, parent: r.parent }));
  const orphans: PgCheck['orphans'] = [];
  for (const [relation, sql] of ORPHAN_QUERIES) {
    const n = Number((await pool.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
    if (n > 0) orphans.push({ relation, rows: n });
  }
  return { path: store.label, engine: 'postgres', ok: foreignKeyViolations.length === 0 && orphans.length === 0, integrity, foreignKeyViolations, orphans };
}

export interface PgBackup {
  source: string;
  target: string;
  bytes: number;
  /** Table-data entries pg_restore lists in the archive: the check that the copy reads back. */
  tables: number;
  check: { ok: boolean };
}

/** The pg_dump beside the server's version when the Debian layout has one, else the one on PATH. */
function pgDumpBinary(name: 'pg_dump' | 'pg_restore'): string {
  const dir = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  const candidate = resolve(dir, name);
  return existsSync(candidate) ? candidate : name;
}

/**
 * pg_dump in custom format to a new file, then pg_restore --list to prove the archive reads back
 * with every table's data. The password travels in PGPASSWORD, never on the command line.
 */
export async function backupPgStore(url: string, target: string): Promise<PgBackup> {
  const to = resolve(target);
  if (existsSync(to)) throw new AppError('BAD_INPUT', `${to} exists; choose a new file (a backup never overwrites)`);
  const parsed = parsePgUrl(url);
  const u = new URL(url);
  const env = {
    ...process.env,
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGDATABASE: parsed.database,
    ...(parsed.user ? { PGUSER: parsed.user } : {}),
    ...(parsed.password ? { PGPASSWORD: decodeURIComponent(parsed.password) } : {}),
  };
  try {
    await run(pgDumpBinary('pg_dump'), ['--format=custom', '--no-owner', `--file=${to}`], { env, timeout: 30 * 60_000 });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').split('\n')[0] ?? '';
    throw new AppError('UNAVAILABLE', `pg_dump of ${parsed.label} failed${stderr ? `: ${stderr.replaceAll(parsed.password || '\u0000', '***')}` : ''}`);
  }
  const listed = await run(pgDumpBinary('pg_restore'), ['--list', to], { env, maxBuffer: 16 * 1024 * 1024 });
  const tables = listed.stdout.split('\n').filter((line) => / TABLE DATA /.test(line)).length;
  return { source: parsed.label, target: to, bytes: statSync(to).size, tables, check: { ok: tables > 0 } };
}
