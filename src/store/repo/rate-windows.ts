import { sql } from 'drizzle-orm';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import { onWrite } from './handle.js';

/**
 * Per-caller request windows kept in the store, so that several servers on one database share one
 * limit (issue 40; docs/api.md "Limits"). A window is one kv_cache row, `limit:<key>:<start ms>`,
 * holding its count and expiring at the window's end (on the wall clock), so expired windows go
 * with the other expired rows (repo/prune.ts). One statement per counted request: an upsert that
 * adds one to the row and returns the new count, atomic on both engines (PostgreSQL locks the row
 * for the conflicting insert, so concurrent servers each see their own increment).
 */

export const WINDOW_KEY_PREFIX = 'limit:';

/**
 * Several processes answer from this store at once: PostgreSQL is the engine a deployment scales
 * out on (docs/scale.md); an SQLite file is served by one process, whose memory holds its limits.
 */
export function sharedAcrossServers(store: Store): boolean {
  return opsOf(store).sharedAcrossServers;
}

/** Counts one request in the window of `key` that opened at `start` and ends at `end`; returns the window's count with it. */
export async function countInWindow(store: Store, key: string, start: Date, end: Date): Promise<number> {
  const row = `${WINDOW_KEY_PREFIX}${key}:${start.getTime()}`;
  return onWrite(store, async ({ db, t }) => {
    const [counted] = await db
      .insert(t.kvCache)
      .values({ key: row, value: 1, updatedAt: start.toISOString(), expiresAt: end.toISOString() })
      .onConflictDoUpdate({
        target: t.kvCache.key,
        // The value is JSON on both engines (TEXT on SQLite, json on PostgreSQL): read as text, add one, back to JSON.
        set: { value: sql`cast(cast(cast(cast(${t.kvCache.value} as text) as integer) + 1 as text) as json)` },
      })
      .returning({ value: t.kvCache.value });
    return Number(counted?.value ?? 1);
  });
}
