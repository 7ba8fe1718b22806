import { and, eq, isNotNull, ne } from 'drizzle-orm';
import type { Store } from '../db.js';
import { stripeEvents, subscriptions } from '../schema.js';
import { prepared } from './_raw.js';

/**
 * subscriptions (a user's Stripe subscriptions as the webhooks last described them) and
 * stripe_events (events already handled, by id). src/accounts/billing.ts decides; this reads and writes.
 */

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = Omit<typeof subscriptions.$inferInsert, 'id'>;
export type StripeEventRow = typeof stripeEvents.$inferSelect;

/** How an event id was handled, or null when it never was. */
export function stripeEventOutcome(store: Store, eventId: string): string | null {
  return store.db.select({ outcome: stripeEvents.outcome }).from(stripeEvents).where(eq(stripeEvents.id, eventId)).get()?.outcome ?? null;
}

export function recordStripeEvent(store: Store, row: StripeEventRow): void {
  store.db.insert(stripeEvents).values(row).run();
}

/** The newest handled events (by received time, then event time). */
export function latestStripeEvents(store: Store, limit: number): StripeEventRow[] {
  return prepared(store.sqlite, 'select id, type, created, received_at as receivedAt, outcome from stripe_events order by received_at desc, created desc limit ?').all(limit) as StripeEventRow[];
}

export function subscriptionById(store: Store, stripeSubscriptionId: string): SubscriptionRow | null {
  return store.db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, stripeSubscriptionId)).get() ?? null;
}

/** The user's subscriptions in id order, leaving out `except` (a Stripe subscription id) when given. */
export function subscriptionsOf(store: Store, userId: number, except?: string | null): SubscriptionRow[] {
  return store.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), ...(except ? [ne(subscriptions.stripeSubscriptionId, except)] : [])))
    .orderBy(subscriptions.id)
    .all();
}

/** Inserts the subscription, or updates its state when Stripe's id is already stored (user and customer stay). */
export function upsertSubscription(store: Store, row: NewSubscriptionRow): void {
  const { userId: _user, stripeSubscriptionId: _sub, stripeCustomerId: _cus, ...state } = row;
  store.db.insert(subscriptions).values(row).onConflictDoUpdate({ target: subscriptions.stripeSubscriptionId, set: state }).run();
}

/** Subscription records with a grace set (expired or not: the caller decides). */
export function subscriptionsInGrace(store: Store): SubscriptionRow[] {
  return store.db.select().from(subscriptions).where(isNotNull(subscriptions.graceUntil)).all();
}

/** Ends a subscription record's grace: its tier becomes free. */
export function endSubscriptionGrace(store: Store, id: number, at: string): void {
  store.db.update(subscriptions).set({ tier: 'free', graceUntil: null, updatedAt: at }).where(eq(subscriptions.id, id)).run();
}
