import { and, eq, isNotNull, ne } from 'drizzle-orm';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import type { stripeEvents, subscriptions } from '../schema.js';
import { on, onWrite } from './handle.js';

/**
 * subscriptions (a user's Stripe subscriptions as the webhooks last described them) and
 * stripe_events (events already handled, by id). src/accounts/billing.ts decides; this reads and writes.
 */

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = Omit<typeof subscriptions.$inferInsert, 'id'>;
export type StripeEventRow = typeof stripeEvents.$inferSelect;

/** How an event id was handled, or null when it never was. */
export async function stripeEventOutcome(store: Store, eventId: string): Promise<string | null> {
  const { db, t } = await on(store);
  const [row] = await db.select({ outcome: t.stripeEvents.outcome }).from(t.stripeEvents).where(eq(t.stripeEvents.id, eventId)).limit(1);
  return row?.outcome ?? null;
}

export async function recordStripeEvent(store: Store, row: StripeEventRow): Promise<void> {
  return onWrite(store, async ({ db, t }) => {
    await db.insert(t.stripeEvents).values(row);
  });
}

/** The newest handled events (by received time, then event time). */
export async function latestStripeEvents(store: Store, limit: number): Promise<StripeEventRow[]> {
  return opsOf(store).accounts.latestStripeEvents(limit);
}

export async function subscriptionById(store: Store, stripeSubscriptionId: string): Promise<SubscriptionRow | null> {
  const { db, t } = await on(store);
  const [row] = await db.select().from(t.subscriptions).where(eq(t.subscriptions.stripeSubscriptionId, stripeSubscriptionId)).limit(1);
  return row ?? null;
}

/** The user's subscriptions in id order, leaving out `except` (a Stripe subscription id) when given. */
export async function subscriptionsOf(store: Store, userId: number, except?: string | null): Promise<SubscriptionRow[]> {
  const { db, t } = await on(store);
  const s = t.subscriptions;
  return db
    .select()
    .from(s)
    .where(and(eq(s.userId, userId), ...(except ? [ne(s.stripeSubscriptionId, except)] : [])))
    .orderBy(s.id);
}

/** Inserts the subscription, or updates its state when Stripe's id is already stored (user and customer stay). */
export async function upsertSubscription(store: Store, row: NewSubscriptionRow): Promise<void> {
  return onWrite(store, async ({ db, t }) => {
    const { userId: _user, stripeSubscriptionId: _sub, stripeCustomerId: _cus, ...state } = row;
    await db.insert(t.subscriptions).values(row).onConflictDoUpdate({ target: t.subscriptions.stripeSubscriptionId, set: state });
  });
}

/** Subscription records with a grace set (expired or not: the caller decides). */
export async function subscriptionsInGrace(store: Store): Promise<SubscriptionRow[]> {
  const { db, t } = await on(store);
  return db.select().from(t.subscriptions).where(isNotNull(t.subscriptions.graceUntil));
}

/** Ends a subscription record's grace: its tier becomes free. */
export async function endSubscriptionGrace(store: Store, id: number, at: string): Promise<void> {
  return onWrite(store, async ({ db, t }) => {
    await db.update(t.subscriptions).set({ tier: 'free', graceUntil: null, updatedAt: at }).where(eq(t.subscriptions.id, id));
  });
}
