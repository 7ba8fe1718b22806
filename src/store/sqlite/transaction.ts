import type { SqliteConnection, SqliteStore } from '../store.js';

/**
 * better-sqlite3's own transaction helper cannot hold an async body, so BEGIN IMMEDIATE / COMMIT
 * are issued by hand on the writer connection while the writer mutex keeps every other caller's
 * transaction out; statements outside any transaction run on the read-only connection and never
 * see this one's rows before COMMIT. `fn` receives the writer connection (the adapter, sqlite/ops,
 * makes the transaction's handle over it).
 */
export function sqliteTransaction<T>(store: SqliteStore, fn: (writer: SqliteConnection) => Promise<T>): Promise<T> {
  return store.writer.run(async () => {
    const { sqlite, db } = store;
    sqlite.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn({ sqlite, db });
      sqlite.exec('COMMIT');
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      throw error;
    }
  });
}

/**
 * Runs `fn` on the writer connection with the writer mutex held and no transaction of ours open:
 * for work that manages its own synchronous transaction (better-sqlite3's `transaction()`), which
 * must not land inside another caller's open one.
 */
export function onWriter<T>(store: SqliteStore, fn: (writer: SqliteStore['conn']) => T): Promise<T> {
  if (store.inTransaction) return Promise.resolve(fn(store.conn));
  return store.writer.run(async () => fn({ sqlite: store.sqlite, db: store.db }));
}
