import { and, asc, count, eq, gt } from 'drizzle-orm';
import type { Store } from '../db.js';
import { on, onWrite } from './handle.js';

/** usage_events: one row per metered action (scan read, slip parse), for rolling-window limits. */

/** How many `kind` actions the subject took after `since` (exclusive), and the oldest of them. */
export async function usageSince(store: Store, subject: string, kind: string, since: string): Promise<{ used: number; oldest: string | null }> {
  const { db, t } = await on(store);
  const u = t.usageEvents;
  const where = and(eq(u.subject, subject), eq(u.kind, kind), gt(u.at, since));
  const [counted] = await db.select({ n: count() }).from(u).where(where);
  const used = counted?.n ?? 0;
  if (used === 0) return { used, oldest: null };
  const [first] = await db.select({ at: u.at }).from(u).where(where).orderBy(asc(u.at)).limit(1);
  return { used, oldest: first?.at ?? null };
}

/** Records one action at `at`; returns the row's id. */
export async function insertUsage(store: Store, subject: string, kind: string, at: string): Promise<number> {
  return onWrite(store, async ({ db, t }) => {
    const [row] = await db.insert(t.usageEvents).values({ subject, kind, at }).returning({ id: t.usageEvents.id });
    if (!row) throw new Error('the usage insert returned no row');
    return row.id;
  });
}

export async function deleteUsage(store: Store, id: number): Promise<void> {
  return onWrite(store, async ({ db, t }) => {
    await db.delete(t.usageEvents).where(eq(t.usageEvents.id, id));
  });
}
