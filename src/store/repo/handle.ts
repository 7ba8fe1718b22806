import { AppError } from '../../errors.js';
import { opsOf } from '../engine-ops.js';
import type { Handle } from '../shared-db.js';
import type { SqliteConnection, Store } from '../store.js';

export type { Handle } from '../shared-db.js';

/**
 * How a repo function reaches its engine for a query written once with drizzle's builder and
 * awaited: the handle its store's adapter built (store/shared-db.ts types it to what both engines'
 * builders offer), over the handle's connection (on SQLite the read-only one outside a transaction,
 * the writer inside one; on PostgreSQL the pool, or the transaction's client).
 */
export async function on(store: Store): Promise<Handle> {
  return opsOf(store).handle;
}

/**
 * The SQLite handle's connection for raw statements (the prepared hot paths): the read-only
 * connection outside a transaction, the writer inside one (repo/tx.ts `write`).
 */
export async function sqliteOf(store: Store): Promise<SqliteConnection> {
  if (store.engine !== 'sqlite') throw new AppError('INTERNAL', `a SQLite-only path was asked of ${store.label}`);
  return store.conn;
}

/** A write through drizzle's builder on the right connection: `on` inside repo/tx.ts `write`. */
export async function onWrite<T>(store: Store, fn: (handle: Handle) => Promise<T>): Promise<T> {
  const { write } = await import('./tx.js');
  return write(store, async (tx) => fn(await on(tx)));
}
