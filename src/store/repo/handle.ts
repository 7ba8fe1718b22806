import { AppError } from '../../errors.js';
import type { Db, SqliteStore, Store } from '../db.js';
import * as pgSchema from '../pg/schema.js';
import * as schema from '../schema.js';

/**
 * How a repo function reaches its engine. `on(store)` gives a drizzle handle and the tables for
 * queries written once with drizzle's builder and awaited (never `.get()/.all()/.run()`, which only
 * SQLite's builder has): on SQLite the better-sqlite3 handle and src/store/schema.ts; on
 * PostgreSQL the node-postgres handle and src/store/pg/schema.ts. drizzle has no dialect-neutral
 * builder type, so the PostgreSQL pair is typed as the SQLite one; the two schemas declare the same
 * tables, columns and TypeScript names (test/store/pg/schema-parity.test.ts) and every repo function
 * runs under one contract suite on both engines (test/store/contract), which is what keeps that honest.
 */
export interface Handle {
  db: Db;
  t: typeof schema;
}

export async function on(store: Store): Promise<Handle> {
  if (store.engine === 'sqlite') return { db: (await sqliteOf(store)).db, t: schema };
  return { db: store.pg.db as unknown as Db, t: pgSchema as unknown as typeof schema };
}

/**
 * The SQLite store, once no transaction of another caller holds the connection: raw statements
 * (the prepared hot paths, pragmas) go through here; a transaction's own handle passes at once.
 */
export async function sqliteOf(store: Store): Promise<SqliteStore> {
  if (store.engine !== 'sqlite') throw new AppError('INTERNAL', `a SQLite-only path was asked of ${store.label}`);
  if (!store.inTransaction && store.writer.busy) await store.writer.idle();
  return store;
}
