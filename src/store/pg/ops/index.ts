import type { AnyColumn, SQL } from 'drizzle-orm';
import { withOps, type EngineOps, type OPS } from '../../engine-ops.js';
import type * as schema from '../../schema.js';
import type { Handle, SharedDb } from '../../shared-db.js';
import type { PgStore, Store } from '../../store.js';
import { byBytes } from '../_raw.js';
import * as pgSchema from '../schema.js';
import { pgTransaction } from '../transaction.js';
import { PgAccountOps } from './accounts.js';
import { PgGameStatOps } from './game-stats.js';
import { PgHistoryOps } from './history.js';
import { PgLedgerOps } from './ledger.js';
import { pendingMigrations, syncIdentities } from './migrations.js';
import { PgRecordOps } from './records.js';
import { PgRunOps } from './runs.js';
import { PgSettleOps } from './settle.js';
import { PgSnapshotOps } from './snapshots.js';

/** A PostgreSQL store or transaction handle with the PostgreSQL adapter attached. */
export function pgStore(base: Omit<PgStore, typeof OPS>): PgStore {
  return withOps<PgStore>(base, (store) => new PgOps(store));
}

/**
 * The shared handle over node-postgres: drizzle's pg-core builder answers every call the shared
 * type (store/shared-db.ts) keeps, awaited, with the pg-core tables (src/store/pg/schema.ts), which
 * declare the same tables, columns and TypeScript names as the SQLite ones the type names.
 */
const handleOf = (pg: PgStore['pg']): Handle => ({ db: pg.db as unknown as SharedDb, t: pgSchema as unknown as typeof schema });

/** The PostgreSQL adapter, bound to one handle: the pool, or the transaction's client. */
class PgOps implements EngineOps {
  readonly handle: Handle;
  /** PostgreSQL is the engine a deployment scales out on (docs/scale.md). */
  readonly sharedAcrossServers = true;
  readonly runs: PgRunOps;
  readonly snapshots: PgSnapshotOps;
  readonly ledger: PgLedgerOps;
  readonly records: PgRecordOps;
  readonly settle: PgSettleOps;
  readonly history: PgHistoryOps;
  readonly gameStats: PgGameStatOps;
  readonly accounts: PgAccountOps;
  constructor(private readonly store: PgStore) {
    this.handle = handleOf(store.pg);
    this.runs = new PgRunOps(store, this.handle);
    this.snapshots = new PgSnapshotOps(store, this.handle);
    this.ledger = new PgLedgerOps(store, this.handle);
    this.records = new PgRecordOps(store);
    this.settle = new PgSettleOps(store, this.handle);
    this.history = new PgHistoryOps(store);
    this.gameStats = new PgGameStatOps(store, this.handle);
    this.accounts = new PgAccountOps(this.handle);
  }

  transaction<T>(fn: (tx: Store) => Promise<T>, exclusive: boolean): Promise<T> {
    return pgTransaction(this.store, (pg) => fn(pgStore({ ...this.store, pg, inTransaction: true })), exclusive);
  }

  /** Once a statement fails, PostgreSQL refuses every later one of the transaction: the chain beside it reports that echo, not the cause. */
  causeOf(failures: readonly unknown[]): unknown {
    return failures.find((f) => !abortedTransactionEcho(f)) ?? failures[0];
  }

  pendingMigrations(): Promise<string[]> {
    return pendingMigrations(this.store.pg);
  }

  byBytes<C extends AnyColumn>(col: C): SQL {
    return byBytes(col);
  }

  syncIdentities(): Promise<void> {
    return syncIdentities(this.store.pg);
  }
}

/** SQLSTATE in_failed_sql_transaction: a statement sent after another of its transaction failed (drizzle may wrap it as a cause). */
function abortedTransactionEcho(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '25P02') return true;
  }
  return false;
}
