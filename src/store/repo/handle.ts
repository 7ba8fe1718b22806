import { opsOf } from '../engine-ops.js';
import type { Handle } from '../shared-db.js';
import type { Store } from '../store.js';
import { write } from './tx.js';

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

/** A write through drizzle's builder on the right connection: `on` inside repo/tx.ts `write`. */
export async function onWrite<T>(store: Store, fn: (handle: Handle) => Promise<T>): Promise<T> {
  return write(store, async (tx) => fn(await on(tx)));
}
