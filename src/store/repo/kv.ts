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
