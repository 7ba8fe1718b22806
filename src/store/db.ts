import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.js';
import * as schema from './schema.js';

export type Db = BetterSQLite3Database<typeof schema>;

export interface Store {
  readonly path: string;
  readonly sqlite: Database.Database;
  readonly db: Db;
  close(): void;
}

/** src/store and dist/store both sit two levels below the package root. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Documented default (README "Configuration"): var/propgrade.sqlite in propgrade's own folder, so a
 * command run from any working directory finds the same store. --db and PROPGRADE_DB override it
 * (a relative path there is relative to the working directory, as any shell path).
 */
export const DEFAULT_DB_PATH = resolve(PACKAGE_ROOT, 'var/propgrade.sqlite');

export const MIGRATIONS_DIR = resolve(PACKAGE_ROOT, 'migrations');

export interface OpenOptions {
  /** Apply pending migrations (default true). `db status` opens without migrating. */
  migrate?: boolean;
  readonly?: boolean;
}

/**
 * Opens (creating if needed) the one SQLite file: WAL journal, foreign keys on, and a busy
 * timeout so a cron run and `serve` can share it.
 */
export function openStore(path: string = DEFAULT_DB_PATH, options: OpenOptions = {}): Store {
  // A URL is never a file path: `postgres://...` would otherwise become a folder named `postgres:`.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(path)?.[1];
  if (scheme) throw new AppError('BAD_INPUT', `the store is a ${scheme}:// URL, which this build cannot open: PROPGRADE_DB / --db takes an SQLite file path (PostgreSQL: issue 35)`);
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
  return { path: full, sqlite, db, close: () => sqlite.close() };
}

interface JournalEntry {
  idx: number;
  tag: string;
  when: number;
}

export interface MigrationStatus {
  path: string;
  exists: boolean;
  applied: Array<{ tag: string; appliedAt: string | null }>;
  pending: string[];
  journalMode: string | null;
  tables: Array<{ name: string; rows: number }>;
}

function journal(): JournalEntry[] {
  const file = resolve(MIGRATIONS_DIR, 'meta/_journal.json');
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { entries: JournalEntry[] };
  return parsed.entries;
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

/** Journal migrations the open store has not applied (the `__drizzle_migrations` table holds each one's `when`). */
export function pendingMigrations(store: Store): string[] {
  const hasTable = store.sqlite.prepare(`select 1 from sqlite_master where type='table' and name='__drizzle_migrations'`).get();
  const applied = hasTable ? new Set((store.sqlite.prepare('select created_at as createdAt from __drizzle_migrations').all() as Array<{ createdAt: number }>).map((r) => Number(r.createdAt))) : new Set<number>();
  return journal()
    .filter((e) => !applied.has(e.when))
    .map((e) => e.tag);
}
