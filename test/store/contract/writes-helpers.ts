import { afterEach, beforeEach, expect } from 'vitest';
import type { Store } from '../../../src/store/db.js';
import { emptyStoreOn, type EngineName, type EngineStore } from '../../helpers/engines.js';

/**
 * Shared by the writes-*.test.ts contract files (issue 35): a raw read of what a repo write left on
 * its engine, beside the repo's own read-back. Raw reads go straight to the engine's driver
 * (better-sqlite3's `prepare`, node-postgres' pool), never through drizzle or src/store.
 */

/** Rows of a raw statement; `?` placeholders (no `?` inside literals) become `$n` on PostgreSQL. */
export async function raw(store: Store, text: string, params: readonly unknown[] = []): Promise<Array<Record<string, unknown>>> {
  if (store.engine === 'sqlite') return store.sqlite.prepare(text).all(...params) as Array<Record<string, unknown>>;
  let i = 0;
  const { rows } = await store.pg.pool.query(text.replace(/\?/g, () => `$${++i}`), [...params]);
  return rows as Array<Record<string, unknown>>;
}

/**
 * A raw boolean column: SQLite stores 0/1, PostgreSQL a boolean; each engine's own form is checked
 * before it is given back as a boolean (null stays null).
 */
export function rawBool(store: Store, value: unknown): boolean | null {
  if (value === null) return null;
  if (store.engine === 'sqlite') {
    expect([0, 1]).toContain(value);
    return value === 1;
  }
  expect(typeof value).toBe('boolean');
  return value as boolean;
}

/** The row's boolean columns through rawBool, the rest as read. */
export function rawBools(store: Store, row: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out = { ...row };
  for (const k of keys) out[k] = rawBool(store, row[k]);
  return out;
}

/** A fresh empty store on `engine` for each test of the enclosing describe; `get()` gives it. */
export function eachEmptyStore(engine: EngineName): () => EngineStore {
  let current: EngineStore | null = null;
  beforeEach(async () => {
    current = await emptyStoreOn(engine);
  });
  afterEach(async () => {
    await current?.cleanup();
    current = null;
  });
  return () => {
    if (!current) throw new Error('no store: called outside a test');
    return current;
  };
}

/** JSON text with its key order: what both engines must store for a JSON column. */
export const jsonText = (value: unknown): string => JSON.stringify(value);

/**
 * Engine differences a test observed, by engine, for the cross-engine check at the end of a file:
 * record(name, value) on each engine, then sameOnBoth(name) compares once both have run.
 */
export function observations(): { record(engine: EngineName, name: string, value: unknown): void; both(name: string): { sqlite: unknown; postgres: unknown } } {
  const seen = new Map<string, Partial<Record<EngineName, unknown>>>();
  return {
    record(engine, name, value) {
      const entry = seen.get(name) ?? {};
      entry[engine] = structuredClone(value);
      seen.set(name, entry);
    },
    both(name) {
      const entry = seen.get(name) ?? {};
      return { sqlite: entry.sqlite, postgres: entry.postgres };
    },
  };
}
