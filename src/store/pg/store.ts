import type { OpenOptions, PgStore } from '../db.js';
import { openPg } from './open.js';
import * as pgSchema from './schema.js';

/** Opens a PostgreSQL store: store/pg/open.ts validates the URL, proves a connection and migrates. */
export async function openPgStore(url: string, options: OpenOptions = {}): Promise<PgStore> {
  const { pool, db, label } = await openPg(url, { migrate: options.migrate ?? true });
  return {
    engine: 'postgres',
    label,
    pg: { pool, db: db as unknown as PgStore['pg']['db'], schema: pgSchema },
    inTransaction: false,
    close: () => pool.end(),
  };
}
