import { drizzle } from 'drizzle-orm/node-postgres';
import type { PgConnection, PgStore } from '../store.js';

/** The one advisory lock every exclusive transaction takes (any constant: "pgwr" in ASCII). */
const EXCLUSIVE_WRITE_KEY = 0x70677772;

/**
 * A transaction on one pooled client; `fn` receives the connection whose drizzle runs on that
 * client (the adapter, pg/ops, makes the transaction's handle over it). An exclusive one first
 * takes a transaction-scoped advisory lock, released by COMMIT or ROLLBACK, so exclusive writers
 * queue as on SQLite instead of failing with serialization errors.
 */
export async function pgTransaction<T>(store: PgStore, fn: (pg: PgConnection) => Promise<T>, exclusive: boolean): Promise<T> {
  const client = await store.pg.pool.connect();
  try {
    await client.query('BEGIN');
    if (exclusive) await client.query('SELECT pg_advisory_xact_lock($1)', [EXCLUSIVE_WRITE_KEY]);
    const db = drizzle(client, { schema: store.pg.schema });
    const result = await fn({ ...store.pg, db, client });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
