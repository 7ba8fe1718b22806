import type { OpenOptions, PgStore } from '../store.js';
import { openPg } from './open.js';
import { pgStore } from './ops/index.js';
import * as pgSchema from './schema.js';

/** Opens a PostgreSQL store: store/pg/open.ts validates the URL, proves a connection and migrates. */
export async function openPgStore(url: string, options: OpenOptions = {}): Promise<PgStore> {
  const { pool, db, label } = await openPg(url, { migrate: options.migrate ?? true, ...(options.poolMax ? { max: options.poolMax } : {}) });
  const sessions = new Set<import('pg').PoolClient>();
  return pgStore({
    engine: 'postgres',
    label,
    pg: { pool, db: db as unknown as PgStore['pg']['db'], schema: pgSchema, sessions },
    inTransaction: false,
    close: async () => {
      // A run lock still held when its store closes dies with its connection, as after a crash.
      const ending = [...sessions].map((client) => new Promise<void>((done) => (client.once('end', () => done()), client.release(true))));
      sessions.clear();
      await Promise.all(ending);
      await pool.end();
    },
  });
}
