import { eq } from 'drizzle-orm';
import type { Store } from '../db.js';
import { on, onWrite } from './handle.js';

/** A cached value, or null when absent or expired at `now`. */
export async function kvGet<T>(store: Store, key: string, now: Date): Promise<T | null> {
  const { db, t } = await on(store);
  const [row] = await db.select().from(t.kvCache).where(eq(t.kvCache.key, key)).limit(1);
  if (!row) return null;
  if (row.expiresAt !== null && row.expiresAt <= now.toISOString()) return null;
  return row.value as T;
}

/**
 * A cached value as of `now`: written at or before `now` and not yet expired. A server whose clock
 * is pinned (a replayed day) must not read a value cached under a later clock, nor the reverse.
 */
export async function kvGetAsOf<T>(store: Store, key: string, now: Date): Promise<T | null> {
  const { db, t } = await on(store);
  const [row] = await db.select().from(t.kvCache).where(eq(t.kvCache.key, key)).limit(1);
  if (!row) return null;
  const at = now.toISOString();
  if (row.updatedAt > at || (row.expiresAt !== null && row.expiresAt <= at)) return null;
  return row.value as T;
}

export async function kvSet(store: Store, key: string, value: unknown, now: Date, ttlSeconds: number | null): Promise<void> {
  const expiresAt = ttlSeconds === null ? null : new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  const updatedAt = now.toISOString();
  await onWrite(store, async ({ db, t }) => {
    await db
      .insert(t.kvCache)
      .values({ key, value, updatedAt, expiresAt })
      .onConflictDoUpdate({ target: t.kvCache.key, set: { value, updatedAt, expiresAt } });
  });
}

export async function kvDelete(store: Store, key: string): Promise<void> {
  await onWrite(store, async ({ db, t }) => {
    await db.delete(t.kvCache).where(eq(t.kvCache.key, key));
  });
}
