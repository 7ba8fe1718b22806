import type { SqliteStore, Store } from '../db.js';

/**
 * Runs `fn` in one transaction: all of its writes commit, or none. `fn` receives the
 * transaction's handle (a Store) and calls repo functions with it. Called on a transaction's
 * handle it joins that transaction.
 * - `exclusive` (the default): a read that decides a write (a metered slot, a webhook applied once,
 *   a founder code redeemed once) cannot interleave with another writer in any process. SQLite takes
 *   its write lock at BEGIN IMMEDIATE; PostgreSQL takes one transaction-scoped advisory lock, so
 *   these transactions run one at a time as they do on SQLite, with no serialization failure to retry.
 * - `exclusive: false`: a bulk write (a snapshot, a settle, an import) that only needs atomicity;
 *   on PostgreSQL it runs READ COMMITTED beside readers, who see all of it or none of it.
 */
export async function transaction<T>(store: Store, fn: (tx: Store) => Promise<T>, options: { exclusive?: boolean } = {}): Promise<T> {
  if (store.inTransaction) return fn(store);
  if (store.engine === 'postgres') {
    const { pgTransaction } = await import('../pg/transaction.js');
    return pgTransaction(store, fn, options.exclusive ?? true);
  }
  return sqliteTransaction(store, fn);
}

/** The account writes' name for it (read-check-write under one lock). */
export function immediate<T>(store: Store, fn: (tx: Store) => Promise<T>): Promise<T> {
  return transaction(store, fn, { exclusive: true });
}

/**
 * better-sqlite3's own transaction helper cannot hold an async body, so BEGIN IMMEDIATE / COMMIT
 * are issued by hand while the store's writer mutex keeps every other caller's statements out of
 * the open transaction (repo/handle.ts waits on it).
 */
function sqliteTransaction<T>(store: SqliteStore, fn: (tx: Store) => Promise<T>): Promise<T> {
  return store.writer.run(async () => {
    const { sqlite } = store;
    sqlite.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn({ ...store, inTransaction: true });
      sqlite.exec('COMMIT');
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      throw error;
    }
  });
}
