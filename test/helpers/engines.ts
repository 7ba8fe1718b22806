import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/db.js';
import { openPgStore } from '../../src/store/pg/store.js';
import { copyStore } from '../../src/store/copy.js';
import { freshPgDatabase } from './pg.js';

/**
 * The two engines every store contract runs on (issue 35). A PostgreSQL store here is a fresh
 * database on the test server (test/helpers/pg-global-setup.ts); a seeded one is filled by
 * `db copy`'s own code path from an SQLite file, so both engines start from the same rows.
 */
export const ENGINES = ['sqlite', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];

export interface EngineStore {
  engine: EngineName;
  store: Store;
  /** The target `--db` / PROPGRADE_DB takes for this store (a file path or a postgres:// URL). */
  target: string;
  cleanup(): Promise<void>;
}

export async function emptyStoreOn(engine: EngineName): Promise<EngineStore> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-engine-'));
    const path = join(dir, 'pg.sqlite');
    const store = openStore(path);
    return { engine, store, target: path, cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
  }
  const db = await freshPgDatabase();
  // As openStore on SQLite: the schema migrated, no data migration applied (a test applies them).
  const store = await openPgStore(db.url);
  return {
    engine,
    store,
    target: db.url,
    cleanup: async () => {
      await store.close();
      await db.drop();
    },
  };
}

/** A store on `engine` holding what the SQLite file at `sqlitePath` holds (ids included). */
export async function copyOn(engine: EngineName, sqlitePath: string): Promise<EngineStore> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-engine-'));
    const path = join(dir, 'pg.sqlite');
    const source = openStore(sqlitePath);
    source.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    await source.close();
    copyFileSync(sqlitePath, path);
    const store = openStore(path);
    return { engine, store, target: path, cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
  }
  const empty = await emptyStoreOn('postgres');
  const source = openStore(sqlitePath);
  try {
    await copyStore(source, empty.store);
  } finally {
    await source.close();
  }
  return empty;
}
