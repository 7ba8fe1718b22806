import { and, count, inArray, isNotNull, isNull, like, lte, sum, sql } from 'drizzle-orm';
import type { Store } from '../db.js';
import { on, onWrite } from './handle.js';

/**
 * Deleting what can no longer be read (issue 40, docs/reliability.md "The store stays bounded"):
 * kv_cache rows past their expiry, cache rows left without one once they are past every reader's
 * horizon, and metered usage outside its window. Each call deletes at most `limit` rows in one
 * small write transaction (the oldest-first order does not matter: every row it picks is dead), so
 * a pass never holds the writer long; the caller repeats while a call comes back full. The rows
 * are picked by a subquery because neither engine's DELETE takes a LIMIT that both accept.
 */

/**
 * Deletes up to `limit` kv_cache rows whose expiry is at or before `before` (ISO time), only those
 * under `prefix` when given; returns how many.
 */
export async function pruneExpiredKv(store: Store, before: string, limit: number, prefix?: string): Promise<number> {
  return onWrite(store, async ({ db, t }) => {
    const dead = db
      .select({ key: t.kvCache.key })
      .from(t.kvCache)
      .where(and(isNotNull(t.kvCache.expiresAt), lte(t.kvCache.expiresAt, before), prefix === undefined ? undefined : like(t.kvCache.key, literalPrefix(prefix))))
      .limit(limit);
    const gone = await db.delete(t.kvCache).where(inArray(t.kvCache.key, dead)).returning({ key: t.kvCache.key });
    return gone.length;
  });
}

/** A LIKE pattern for keys starting with `prefix`, which must hold no wildcard (`%`, `_`) nor the escape character. */
function literalPrefix(prefix: string): string {
  if (/[%_\\]/.test(prefix)) throw new RangeError(`a kv prefix to prune holds a LIKE wildcard: ${prefix}`);
  return `${prefix}%`;
}

/**
 * Deletes up to `limit` kv_cache rows under `prefix` that carry no expiry and were last written at
 * or before `before` (ISO time); returns how many. For a cache that keeps its rows past their TTL
 * for a stale fallback (store/cache.ts): once older than the longest fallback, nothing serves them.
 */
export async function pruneUnexpiringKv(store: Store, prefix: string, before: string, limit: number): Promise<number> {
  return onWrite(store, async ({ db, t }) => {
    const dead = db
      .select({ key: t.kvCache.key })
      .from(t.kvCache)
      .where(and(like(t.kvCache.key, literalPrefix(prefix)), isNull(t.kvCache.expiresAt), lte(t.kvCache.updatedAt, before)))
      .limit(limit);
    const gone = await db.delete(t.kvCache).where(inArray(t.kvCache.key, dead)).returning({ key: t.kvCache.key });
    return gone.length;
  });
}

/** Deletes up to `limit` usage_events rows at or before `before` (ISO time): outside every meter's window. */
export async function pruneUsageBefore(store: Store, before: string, limit: number): Promise<number> {
  return onWrite(store, async ({ db, t }) => {
    const dead = db.select({ id: t.usageEvents.id }).from(t.usageEvents).where(lte(t.usageEvents.at, before)).limit(limit);
    const gone = await db.delete(t.usageEvents).where(inArray(t.usageEvents.id, dead)).returning({ id: t.usageEvents.id });
    return gone.length;
  });
}

/** What the pruned tables hold: rows, and the bytes of kv_cache's values as text (what grows with reads). */
export async function prunedTablesSize(store: Store): Promise<{ kvRows: number; kvValueBytes: number; usageRows: number }> {
  const { db, t } = await on(store);
  const [kv] = await db
    .select({ n: count(), bytes: sum(sql<number>`length(cast(${t.kvCache.value} as text))`) })
    .from(t.kvCache);
  const [usage] = await db.select({ n: count() }).from(t.usageEvents);
  return { kvRows: Number(kv?.n ?? 0), kvValueBytes: Number(kv?.bytes ?? 0), usageRows: Number(usage?.n ?? 0) };
}
