import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppError } from '../errors.js';
import { DEFAULT_DB_PATH, journal, MIGRATIONS_DIR, PG_MIGRATIONS_DIR } from './paths.js';
import * as schema from './schema.js';

export type Db = BetterSQLite3Database<typeof schema>;

/**
 * One store, two engines (issue 35). Everything above store/ holds a `Store` and calls the repo
 * functions, which are asynchronous because PostgreSQL is; nothing above store/ reads `engine`.
 * A transaction's handle (repo/tx.ts) is a Store too, so the same repo functions run inside one.
 */
export type Store = SqliteStore | PgStore;

export interface SqliteStore {
  readonly engine: 'sqlite';
  /** What messages name: the file's path. */
  readonly label: string;
  readonly path: string;
  readonly sqlite: Database.Database;
  readonly db: Db;
  /**
   * One writer at a time on the one connection: a transaction holds it across its awaits, and
   * statements from outside it wait (repo/handle.ts), so no other caller's statement lands inside it.
   */
  readonly writer: Writer;
  /** True on a transaction's handle: its statements are the transaction's own and do not wait. */
  readonly inTransaction: boolean;
  close(): Promise<void>;
}

export interface PgStore {
  readonly engine: 'postgres';
  /** The URL without its password. */
  readonly label: string;
  readonly pg: PgConnection;
  readonly inTransaction: boolean;
  close(): Promise<void>;
}

/** The pg side's pool and drizzle handle (store/pg/connection.ts); a transaction's handle holds its own client. */
export interface PgConnection {
  readonly pool: import('pg').Pool;
  readonly db: import('drizzle-orm/node-postgres').NodePgDatabase<Record<string, unknown>>;
  /** The pg-core tables (src/store/pg/schema.ts), for drizzle's relational queries on a transaction's client. */
  readonly schema: Record<string, unknown>;
  /** Set on a transaction's handle: the pooled client the transaction runs on. */
  readonly client?: import('pg').PoolClient;
  /**
   * Connections held for a run lock's whole length (repo/run-lock.ts). Closing the store ends
   * them, which frees their advisory locks; the pool alone would wait for them forever.
   */
  readonly sessions: Set<import('pg').PoolClient>;
}

/**
 * One writer per file per process: two Store objects on one file in one process (a test, a
 * command that opens a second handle) would otherwise block in BEGIN IMMEDIATE's busy wait on the
 * one thread the other transaction needs to finish. Other processes wait in SQLite's busy timeout.
 */
const writers = new Map<string, Writer>();
function writerFor(path: string): Writer {
  if (path === ':memory:') return new Writer();
  let writer = writers.get(path);
  if (!writer) writers.set(path, (writer = new Writer()));
  return writer;
}

/** A FIFO mutex: `run` waits for every earlier holder; `idle` resolves once nobody holds it. */
export class Writer {
  private tail: Promise<unknown> = Promise.resolve();
  private held = 0;
  get busy(): boolean {
    return this.held > 0;
  }
  run<T>(fn: () => Promise<T>): Promise<T> {
    this.held += 1;
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => void (this.held -= 1),
      () => void (this.held -= 1),
    );
    return result;
  }
  /** Resolves when the current holders are done (a statement from outside a transaction waits here). */
  idle(): Promise<void> {
    return this.held === 0 ? Promise.resolve() : this.tail.then(() => this.idle());
  }
}

export { DEFAULT_DB_PATH, MIGRATIONS_DIR, PACKAGE_ROOT, PG_MIGRATIONS_DIR } from './paths.js';

export interface OpenOptions {
  /** Apply pending migrations (default true). `db status` opens without migrating. */
  migrate?: boolean;
  readonly?: boolean;
  /** PostgreSQL: connections in this process's pool (default 10). */
  poolMax?: number;
}

/**
 * Opens (creating if needed) the one SQLite file: WAL journal, foreign keys on, and a busy
 * timeout so a cron run and `serve` can share it.
 */
/** The URL scheme of a store target (`postgres` for postgres://...), or null for a file path. */
export function schemeOf(target: string): string | null {
  return /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1]?.toLowerCase() ?? null;
}

/**
 * Opens the store `--db` / PROPGRADE_DB names: a postgres:// or postgresql:// URL is PostgreSQL
 * (nothing is created on disk), any other URL is refused, and a path is the SQLite file.
 */
export async function openStoreAt(target: string = DEFAULT_DB_PATH, options: OpenOptions = {}): Promise<Store> {
  const scheme = schemeOf(target);
  if (scheme === 'postgres' || scheme === 'postgresql') {
    const { openPgStore } = await import('./pg/store.js');
    return openPgStore(target, options);
  }
  return openStore(target, options);
}

export function openStore(path: string = DEFAULT_DB_PATH, options: OpenOptions = {}): SqliteStore {
  // A URL is never a file path: `postgres://...` would otherwise become a folder named `postgres:`.
  const scheme = schemeOf(path);
  if (scheme) throw new AppError('BAD_INPUT', `the store is a ${scheme}:// URL: PROPGRADE_DB / --db takes an SQLite file path or a postgres:// URL`);
  const memory = path === ':memory:';
  const full = memory ? path : resolve(path);
  let sqlite: Database.Database;
  try {
    if (!memory) mkdirSync(dirname(full), { recursive: true });
    sqlite = new Database(full, { readonly: options.readonly ?? false });
  } catch (error) {
    // A path that cannot hold the store is the caller's input (--db / PROPGRADE_DB): name it.
    const reason = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
    throw new AppError('BAD_INPUT', `cannot open the store at ${full} (${reason})`);
  }
  sqlite.pragma('busy_timeout = 5000');
  if (!options.readonly) sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = drizzle(sqlite, { schema });
  if (options.migrate ?? true) migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return {
    engine: 'sqlite',
    label: full,
    path: full,
    sqlite,
    db,
    writer: writerFor(full),
    inTransaction: false,
    close: async () => void sqlite.close(),
  };
}

export interface MigrationStatus {
  path: string;
  exists: boolean;
  applied: Array<{ tag: string; appliedAt: string | null }>;
  pending: string[];
  journalMode: string | null;
  tables: Array<{ name: string; rows: number }>;
}

/** What `db status` reports: which migrations ran, which are pending, table row counts. */
export function migrationStatus(path: string): MigrationStatus {
  const full = resolve(path);
  const entries = journal();
  if (!existsSync(full)) {
    return { path: full, exists: false, applied: [], pending: entries.map((e) => e.tag), journalMode: null, tables: [] };
  }
  const sqlite = new Database(full, { readonly: true, fileMustExist: true });
  try {
    const hasTable = sqlite
      .prepare(`select 1 from sqlite_master where type='table' and name='__drizzle_migrations'`)
      .get();
    const appliedRows = hasTable
      ? (sqlite.prepare('select created_at as createdAt from __drizzle_migrations').all() as Array<{ createdAt: number }>)
      : [];
    const appliedWhen = new Set(appliedRows.map((r) => Number(r.createdAt)));
    const applied = entries
      .filter((e) => appliedWhen.has(e.when))
      .map((e) => ({ tag: e.tag, appliedAt: null as string | null }));
    const pending = entries.filter((e) => !appliedWhen.has(e.when)).map((e) => e.tag);
    const journalMode = (sqlite.pragma('journal_mode', { simple: true }) as string) ?? null;
    const names = sqlite
      .prepare(`select name from sqlite_master where type='table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name`)
      .all() as Array<{ name: string }>;
    const tables = names.map(({ name }) => ({
      name,
      rows: (sqlite.prepare(`select count(*) as n from "${name}"`).get() as { n: number }).n,
    }));
    return { path: full, exists: true, applied, pending, journalMode, tables };
  } finally {
    sqlite.close();
  }
}

/** Journal migrations the open store has not applied (each engine's journal against its own record of applied migrations). */
export async function pendingMigrations(store: Store): Promise<string[]> {
  if (store.engine === 'postgres') {
    const runner = store.pg.client ?? store.pg.pool;
    const exists = await runner.query<{ t: string | null }>("select to_regclass('drizzle.__drizzle_migrations')::text as t");
    const rows = exists.rows[0]?.t ? (await runner.query<{ at: string }>('select created_at::text as at from drizzle.__drizzle_migrations')).rows : [];
    // drizzle's node-postgres migrator records each applied migration's journal `when` as created_at.
    const applied = new Set(rows.map((r) => Number(r.at)));
    return journal(PG_MIGRATIONS_DIR)
      .filter((e) => !applied.has(e.when))
      .map((e) => e.tag);
  }
  const hasTable = store.sqlite.prepare(`select 1 from sqlite_master where type='table' and name='__drizzle_migrations'`).get();
  const applied = hasTable ? new Set((store.sqlite.prepare('select created_at as createdAt from __drizzle_migrations').all() as Array<{ createdAt: number }>).map((r) => Number(r.createdAt))) : new Set<number>();
  return journal()
    .filter((e) => !applied.has(e.when))
    .map((e) => e.tag);
}
