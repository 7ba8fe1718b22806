import { eq } from 'drizzle-orm';
import type { Db } from '../db.js';
import { kvCache } from '../schema.js';

/** A cached value, or null when absent or expired at `now`. */
export function kvGet<T>(db: Db, key: string, now: Date): T | null {
  const row = db.select().from(kvCache).where(eq(kvCache.key, key)).get();
  if (!row) return null;
  if (row.expiresAt !== null && row.expiresAt <= now.toISOString()) return null;
  return row.value as T;
}

/**
 * A cached value as of `now`: written at or before `now` and not yet expired. A server whose clock
 * is pinned (a replayed day) must not read a value cached under a later clock, nor the reverse.
 */
export function kvGetAsOf<T>(db: Db, key: string, now: Date): T | null {
  const row = db.select().from(kvCache).where(eq(kvCache.key, key)).get();
  if (!row) return null;
  const at = now.toISOString();
  if (row.updatedAt > at || (row.expiresAt !== null && row.expiresAt <= at)) return null;
  return row.value as T;
}

export function kvSet(db: Db, key: string, value: unknown, now: Date, ttlSeconds: number | null): void {
  const expiresAt = ttlSeconds === null ? null : new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  const updatedAt = now.toISOString();
  db.insert(kvCache)
    .values({ key, value, updatedAt, expiresAt })
    .onConflictDoUpdate({ target: kvCache.key, set: { value, updatedAt, expiresAt } })
    .run();
}

export function kvDelete(db: Db, key: string): void {
  db.delete(kvCache).where(eq(kvCache.key, key)).run();
}
