import { opsOf } from '../engine-ops.js';
import type { Store } from '../store.js';

/**
 * Runs `fn` in one transaction: all of its writes commit, or none. `fn` receives the
 * transaction's handle (a Store) and calls repo functions with it. Called on a transaction's
 * handle it joins that transaction. No statement of another caller runs inside it, and no read
 * outside it sees its rows before it commits, on either engine: SQLite runs it on the writer
 * connection under the writer mutex while reads use the read-only connection; PostgreSQL runs it on
 * a pooled client of its own.
 * - `exclusive` (the default): a read that decides a write (a metered slot, a webhook applied once,
 *   a founder code redeemed once) cannot interleave with another writer in any process. SQLite takes
 *   its write lock at BEGIN IMMEDIATE; PostgreSQL takes one transaction-scoped advisory lock, so
 *   these transactions run one at a time as they do on SQLite, with no serialization failure to retry.
 * - `exclusive: false`: a bulk write (a snapshot, a settle, an import) that only needs atomicity;
 *   on PostgreSQL it runs READ COMMITTED beside readers, who see all of it or none of it.
 */
export async function transaction<T>(store: Store, fn: (tx: Store) => Promise<T>, options: { exclusive?: boolean } = {}): Promise<T> {
  if (store.inTransaction) return fn(store);
  return opsOf(store).transaction(fn, options.exclusive ?? true);
}

/** The account writes' name for it (read-check-write under one lock). */
export function immediate<T>(store: Store, fn: (tx: Store) => Promise<T>): Promise<T> {
  return transaction(store, fn, { exclusive: true });
}

/**
 * A repo write: inside a caller's transaction it is one more statement of it; outside, its own
 * small transaction, so it waits for the writer instead of landing in another caller's open
 * transaction (and is rolled back with it). Every repo function that writes goes through here.
 */
export function write<T>(store: Store, fn: (tx: Store) => Promise<T>): Promise<T> {
  return transaction(store, fn, { exclusive: false });
}

/**
 * Of the failures of statement chains run side by side in one transaction (on its handle `tx`), the
 * one to report: the engine knows which failure caused the others.
 */
export function transactionFailure(tx: Store, failures: readonly unknown[]): unknown {
  return opsOf(tx).causeOf(failures);
}
