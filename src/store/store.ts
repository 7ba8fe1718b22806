import type Database from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Pool, PoolClient } from 'pg';
import type { EngineOps, OPS } from './engine-ops.js';
import type * as schema from './schema.js';
import type { Writer } from './sqlite/writer.js';

/** drizzle over one SQLite connection (the SQLite adapter's own; repo code holds store/shared-db.ts's handle). */
export type Db = BetterSQLite3Database<typeof schema>;

/**
 * One store, two engines (issue 35). Everything above store/ holds a `Store` and calls the repo
 * functions, which are asynchronous because PostgreSQL is; nothing above store/ reads `engine`.
 * A transaction's handle (repo/tx.ts) is a Store too, so the same repo functions run inside one.
 * Each engine's adapter (store/sqlite/, store/pg/) builds its own kind when the store opens, with
 * its operations attached (store/engine-ops.ts): repo code reaches the engine only through those.
 */
export type Store = SqliteStore | PgStore;

/** One SQLite connection and drizzle over it. */
export interface SqliteConnection {
  readonly sqlite: Database.Database;
  readonly db: Db;
}

/** What every store and transaction handle carries, whatever its engine. */
interface StoreBase {
  /** What messages name. */
  readonly label: string;
  readonly inTransaction: boolean;
  /** The adapter, bound to this handle's connection (read it with engine-ops.ts `opsOf`). */
  readonly [OPS]: EngineOps;
  close(): Promise<void>;
}

export interface SqliteStore extends StoreBase {
  readonly engine: 'sqlite';
  /** What messages name: the file's path. */
  readonly label: string;
  readonly path: string;
  /**
   * The writer connection. Transactions run on it one at a time (`writer`); outside them, only
   * operator and test code writes through it directly (each statement its own commit).
   */
  readonly sqlite: Database.Database;
  readonly db: Db;
  /**
   * Where this handle's statements run: outside a transaction the read-only connection, which under
   * WAL sees only committed rows and never runs inside another caller's open transaction; on a
   * transaction's handle the writer, so the transaction reads its own writes. A write through the
   * read-only connection fails loudly ("attempt to write a readonly database") instead of landing
   * in somebody's transaction: repo writes go through repo/tx.ts `write`.
   */
  readonly conn: SqliteConnection;
  /** Serialises the writer's transactions for their whole life, awaits included. */
  readonly writer: Writer;
}

export interface PgStore extends StoreBase {
  readonly engine: 'postgres';
  /** The URL without its password. */
  readonly label: string;
  readonly pg: PgConnection;
}

/** The pg side's pool and drizzle handle; a transaction's handle holds its own client. */
export interface PgConnection {
  readonly pool: Pool;
  readonly db: NodePgDatabase<Record<string, unknown>>;
  /** The pg-core tables (src/store/pg/schema.ts), for drizzle's relational queries on a transaction's client. */
  readonly schema: Record<string, unknown>;
  /** Set on a transaction's handle: the pooled client the transaction runs on. */
  readonly client?: PoolClient;
  /**
   * Connections held for a run lock's whole length (repo/run-lock.ts). Closing the store ends
   * them, which frees their advisory locks; the pool alone would wait for them forever.
   */
  readonly sessions: Set<PoolClient>;
}

export interface OpenOptions {
  /** Apply pending migrations (default true). `db status` opens without migrating. */
  migrate?: boolean;
  readonly?: boolean;
  /** PostgreSQL: connections in this process's pool (default 10). */
  poolMax?: number;
  /**
   * SQLite: make the file (and its folders) when it does not exist (default true). Commands that
   * only read pass false, so a mistyped --db is refused by name instead of becoming a new empty store.
   */
  create?: boolean;
}
