import { and, asc, count, eq, gt } from 'drizzle-orm';
import type { Store } from '../db.js';
import { usageEvents } from '../schema.js';

/** usage_events: one row per metered action (scan read, slip parse), for rolling-window limits. */

/** How many `kind` actions the subject took after `since` (exclusive), and the oldest of them. */
export function usageSince(store: Store, subject: string, kind: string, since: string): { used: number; oldest: string | null } {
  const where = and(eq(usageEvents.subject, subject), eq(usageEvents.kind, kind), gt(usageEvents.at, since));
  const used = store.db.select({ n: count() }).from(usageEvents).where(where).get()?.n ?? 0;
  const oldest = used === 0 ? null : (store.db.select({ at: usageEvents.at }).from(usageEvents).where(where).orderBy(asc(usageEvents.at)).limit(1).get()?.at ?? null);
  return { used, oldest };
}

/** Records one action at `at`; returns the row's id. */
export function insertUsage(store: Store, subject: string, kind: string, at: string): number {
  return store.db.insert(usageEvents).values({ subject, kind, at }).returning({ id: usageEvents.id }).get().id;
}

export function deleteUsage(store: Store, id: number): void {
  store.db.delete(usageEvents).where(eq(usageEvents.id, id)).run();
}
