import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openStore, schemeOf } from './sqlite/open.js';
import { opsOf } from './engine-ops.js';
import { DEFAULT_DB_PATH, journal } from './paths.js';
import type { OpenOptions, Store } from './store.js';

export type { Db, OpenOptions, PgConnection, PgStore, SqliteConnection, SqliteStore, Store } from './store.js';
export { openStore, schemeOf } from './sqlite/open.js';
export { DEFAULT_DB_PATH, MIGRATIONS_DIR, PACKAGE_ROOT, PG_MIGRATIONS_DIR } from './paths.js';

/**
 * Opens the store `--db` / PROPGRADE_DB names, choosing its engine's adapter once: a postgres:// or
 * postgresql:// URL is PostgreSQL (nothing is created on disk), any other URL is refused, and a
 * path is the SQLite file.
 */
export async function openStoreAt(target: string = DEFAULT_DB_PATH, options: OpenOptions = {}): Promise<Store> {
  const scheme = schemeOf(target);
  const store = scheme === 'postgres' || scheme === 'postgresql' ? await (await import('./pg/store.js')).openPgStore(target, options) : openStore(target, options);
  if ((options.migrate ?? true) && !options.readonly) {
    // The data backfills (written once for both engines) follow the schema migrations on every open.
    try {
      const { applyDataMigrations } = await import('./data-migrations/index.js');
      await applyDataMigrations(store);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
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
  return opsOf(store).pendingMigrations();
}
