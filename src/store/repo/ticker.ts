import { desc, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../db.js';
import { tickerEvents } from '../schema.js';

export type TickerEvent = typeof tickerEvents.$inferSelect;
export type NewTickerEvent = typeof tickerEvents.$inferInsert;

export function insertTickerEvents(db: Db, events: readonly NewTickerEvent[]): void {
  if (events.length === 0) return;
  db.insert(tickerEvents).values([...events]).run();
}

/** Unexpired events, newest first. */
export function activeTickerEvents(db: Db, now: Date, limit = 50): TickerEvent[] {
  return db
    .select()
    .from(tickerEvents)
    .where(or(isNull(tickerEvents.expiresAt), gt(tickerEvents.expiresAt, now.toISOString())))
    .orderBy(desc(tickerEvents.createdAt), desc(tickerEvents.id))
    .limit(limit)
    .all();
}
