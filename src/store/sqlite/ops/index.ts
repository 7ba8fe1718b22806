import type { AnyColumn } from 'drizzle-orm';
import { withOps, type EngineOps, type OPS } from '../../engine-ops.js';
import * as schema from '../../schema.js';
import type { Handle, SharedDb } from '../../shared-db.js';
import type { SqliteStore, Store } from '../../store.js';
import { sqliteTransaction } from '../transaction.js';
import { SqliteAccountOps } from './accounts.js';
import { SqliteGameStatOps } from './game-stats.js';
import { SqliteHistoryOps } from './history.js';
import { SqliteLedgerOps } from './ledger.js';
import { pendingMigrations } from './migrations.js';
import { SqliteRecordOps } from './records.js';
import { SqliteRunOps } from './runs.js';
import { SqliteSettleOps } from './settle.js';
import { SqliteSnapshotOps } from './snapshots.js';

/** A SQLite store or transaction handle with the SQLite adapter attached. */
export function sqliteStore(base: Omit<SqliteStore, typeof OPS>): SqliteStore {
  return withOps<SqliteStore>(base, (store) => new SqliteOps(store));
}

/**
 * The SQLite adapter, bound to one handle: its statements run on the handle's connection (the
 * read-only one outside a transaction, the writer inside one; store.ts `conn`).
 */
class SqliteOps implements EngineOps {
  readonly handle: Handle;
  /** An SQLite file is served by one process, whose memory can hold what its requests share. */
  readonly sharedAcrossServers = false;
  readonly runs: SqliteRunOps;
  readonly snapshots: SqliteSnapshotOps;
  readonly ledger: SqliteLedgerOps;
  readonly records: SqliteRecordOps;
  readonly settle: SqliteSettleOps;
  readonly history: SqliteHistoryOps;
  readonly gameStats: SqliteGameStatOps;
  readonly accounts: SqliteAccountOps;
  constructor(private readonly store: SqliteStore) {
    // better-sqlite3's drizzle offers everything the shared handle keeps (and more, which it hides).
    this.handle = { db: store.conn.db as unknown as SharedDb, t: schema };
    this.runs = new SqliteRunOps(store, this.handle);
    this.snapshots = new SqliteSnapshotOps(store);
    this.ledger = new SqliteLedgerOps(store);
    this.records = new SqliteRecordOps(store);
    this.settle = new SqliteSettleOps(store);
    this.history = new SqliteHistoryOps(store);
    this.gameStats = new SqliteGameStatOps(store);
    this.accounts = new SqliteAccountOps(store, this.handle);
  }

  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    // Every SQLite transaction is exclusive: BEGIN IMMEDIATE on the one writer.
    return sqliteTransaction(this.store, (conn) => fn(sqliteStore({ ...this.store, conn, inTransaction: true })));
  }

  /** A failed SQLite statement leaves its transaction usable: each failure is its own, the first the cause. */
  causeOf(failures: readonly unknown[]): unknown {
    return failures[0];
  }

  async pendingMigrations(): Promise<string[]> {
    return pendingMigrations(this.store.conn);
  }

  byBytes<C extends AnyColumn>(col: C): C {
    return col;
  }

  async syncIdentities(): Promise<void> {
    // A rowid key already follows the largest stored id.
  }
}
