import { desc, gt, isNull, or } from 'drizzle-orm';
import type { Store } from '../db.js';
import type { tickerEvents } from '../schema.js';
import { on, onWrite } from './handle.js';

export type TickerEvent = typeof tickerEvents.$inferSelect;
export type NewTickerEvent = typeof tickerEvents.$inferInsert;

export async function insertTickerEvents(store: Store, events: readonly NewTickerEvent[]): Promise<void> {
  if (events.length === 0) return;
  await onWrite(store, async ({ db, t }) => {
    await db.insert(t.tickerEvents).values([...events]);
  });
}

/** Unexpired events, newest first. */
export async function activeTickerEvents(store: Store, now: Date, limit = 50): Promise<TickerEvent[]> {
  const { db, t } = await on(store);
  const e = t.tickerEvents;
  return db
    .select()
    .from(e)
    .where(or(isNull(e.expiresAt), gt(e.expiresAt, now.toISOString())))
    .orderBy(desc(e.createdAt), desc(e.id))
    .limit(limit);
}
