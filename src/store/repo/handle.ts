import { AppError } from '../../errors.js';
import type { Db, SqliteConnection, Store } from '../store.js';
import * as pgSchema from '../pg/schema.js';
import * as schema from '../schema.js';

/**
 * How a repo function reaches its engine. `on(store)` gives a drizzle handle and the tables for
 * queries written once with drizzle's builder and awaited (never `.get()/.all()/.run()`, which only
 * SQLite's builder has): on SQLite the handle's connection (the read-only one outside a
 * transaction, the writer inside one) and src/store/schema.ts; on PostgreSQL the node-postgres
 * handle and src/store/pg/schema.ts. drizzle has no dialect-neutral builder type, so the PostgreSQL
 * pair is typed as the SQLite one; the two schemas declare the same tables, columns and TypeScript
 * names (test/store/pg/schema-parity.test.ts) and every repo function runs under one contract suite
 * on both engines (test/store/contract), which is what keeps that honest.
 */
export interface Handle {
  db: Db;
  t: typeof schema;
}

export async function on(store: Store): Promise<Handle> {
  if (store.engine === 'sqlite') return { db: store.conn.db, t: schema };
  return { db: store.pg.db as unknown as Db, t: pgSchema as unknown as typeof schema };
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
