import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AppError } from '../../errors.js';
import { DEFAULT_DB_PATH, MIGRATIONS_DIR } from '../paths.js';
import * as schema from '../schema.js';
import type { OpenOptions, SqliteStore } from '../store.js';
import { sqliteStore } from './ops/index.js';
import { writerFor } from './writer.js';

/** The URL scheme of a store target (`postgres` for postgres://...), or null for a file path. */
export function schemeOf(target: string): string | null {
  return /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1]?.toLowerCase() ?? null;
}

function connect(full: string, readonly: boolean): Database.Database {
  try {
    return new Database(full, { readonly, fileMustExist: readonly });
  } catch (error) {
    // A path that cannot hold the store is the caller's input (--db / PROPGRADE_DB): name it.
    const reason = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
    throw new AppError('BAD_INPUT', `cannot open the store at ${full} (${reason})`);
  }
}

/** `postgres//host/db`, `postgresql:/host`: a PostgreSQL URL with its `://` mistyped, which would otherwise become folders. */
const MISTYPED_URL = /^postgres(ql)?(:\/?(?!\/)|\/\/|:\/\/\/)/i;

/** A file that is there but holds no SQLite database (README.md) is named, not reported as a driver error. */
function notADatabase(full: string, error: unknown): AppError {
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError('BAD_INPUT', `${full} is not a propgrade store (${reason}): --db / PROPGRADE_DB names an SQLite file or a postgres:// URL`);
}

/**
 * Opens (creating if needed) the one SQLite file: WAL journal, foreign keys on, a busy timeout so a
 * cron run and `serve` can share it, and two connections: the writer, whose transactions run one at
 * a time, and a read-only reader for every statement outside a transaction (store.ts `conn`).
 * `:memory:` is a private temporary file removed on close: an in-memory database has one
 * connection, and a second one is what keeps reads out of open transactions.
 */
export function openStore(path: string = DEFAULT_DB_PATH, options: OpenOptions = {}): SqliteStore {
  // A URL is never a file path: `postgres://...` would otherwise become a folder named `postgres:`.
  const scheme = schemeOf(path);
  if (scheme) throw new AppError('BAD_INPUT', `the store is a ${scheme}:// URL: PROPGRADE_DB / --db takes an SQLite file path or a postgres:// URL`);
  if (MISTYPED_URL.test(path)) throw new AppError('BAD_INPUT', `the store ${path} looks like a PostgreSQL URL with its "://" mistyped: write postgres://user@host:port/database`);
  const scratch = path === ':memory:' ? mkdtempSync(join(tmpdir(), 'propgrade-mem-')) : null;
  const full = scratch ? join(scratch, 'store.sqlite') : resolve(path);
  const readonly = options.readonly ?? false;
  if (!scratch && (options.create ?? true) === false && !existsSync(full)) {
    throw new AppError('BAD_INPUT', `no store at ${full}: check --db / PROPGRADE_DB, or make one with \`propgrade snapshot\`, \`propgrade import\` or \`propgrade db migrate\``);
  }
  if (!readonly) {
    try {
      mkdirSync(dirname(full), { recursive: true });
    } catch (error) {
      throw new AppError('BAD_INPUT', `cannot open the store at ${full} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  const sqlite = connect(full, readonly);
  const db = drizzle(sqlite, { schema });
  try {
    sqlite.pragma('busy_timeout = 5000');
    if (!readonly) sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    if (options.migrate ?? true) migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    sqlite.close();
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw notADatabase(full, error);
    throw error;
  }
  const reader = connect(full, true);
  reader.pragma('busy_timeout = 5000');
  const conn = { sqlite: reader, db: drizzle(reader, { schema }) };
  return sqliteStore({
    engine: 'sqlite',
    label: scratch ? ':memory:' : full,
    path: full,
    sqlite,
    db,
    conn,
    writer: writerFor(full),
    inTransaction: false,
    close: async () => {
      reader.close();
      sqlite.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    },
  });
}
