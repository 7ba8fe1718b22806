import { drizzle } from 'drizzle-orm/node-postgres';
import type { PgStore, Store } from '../db.js';

/** The one advisory lock every exclusive transaction takes (any constant: "pgwr" in ASCII). */
const EXCLUSIVE_WRITE_KEY = 0x70677772;

/**
 * A transaction on one pooled client; its handle's drizzle runs on that client. An exclusive one
 * first takes a transaction-scoped advisory lock, released by COMMIT or ROLLBACK, so exclusive
 * writers queue as on SQLite instead of failing with serialization errors.
 */
export async function pgTransaction<T>(store: PgStore, fn: (tx: Store) => Promise<T>, exclusive: boolean): Promise<T> {
  const client = await store.pg.pool.connect();
  try {
    await client.query('BEGIN');
    if (exclusive) await client.query('SELECT pg_advisory_xact_lock($1)', [EXCLUSIVE_WRITE_KEY]);
    const db = drizzle(client, { schema: store.pg.schema });
    const tx: PgStore = { ...store, pg: { ...store.pg, db, client }, inTransaction: true };
    const result = await fn(tx);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
