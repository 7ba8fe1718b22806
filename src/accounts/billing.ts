import { z } from 'zod';
import type { Env } from '../config.js';
import {
  applyBillingEvent,
  expireGraces,
  graceExpired,
  type BillingEvent,
  type BillingState,
  type PriceTiers,
  type SubscriptionEventType,
  type SubscriptionState,
} from '../domain/billing.js';
import { tierSchema, type Tier } from '../domain/tiers.js';
import { AppError, badInput } from '../errors.js';
import { connectStripe, type StripeConnect } from '../publish/stripe.js';
import type { Store } from '../store/db.js';
import {
  endSubscriptionGrace,
  latestStripeEvents,
  recordStripeEvent,
  stripeEventOutcome,
  subscriptionById,
  subscriptionsInGrace,
  subscriptionsOf,
  upsertSubscription,
  type SubscriptionRow,
} from '../store/repo/billing.js';
import { immediate } from '../store/repo/tx.js';
import { customerHolder, updateUser, userByCustomer, userByEmail as userRowByEmail, userById, usersInGrace } from '../store/repo/users.js';

/**
 * Stripe billing (docs/accounts.md): verified webhook events move the stored state through the
 * pure transitions of src/domain/billing.ts; the sweep ends expired graces; the billing portal
 * hands a user to Stripe. Everything Stripe sends is read defensively: a signed event whose shape
 * is not understood changes nothing.
 */

/** Billing counts as configured when both Stripe keys are set: the secret key to call Stripe, the webhook secret to hear from it. */
export function billingConfigured(config: Pick<Env, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET'>): boolean {
  return Boolean(config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET);
}

// --- Customers ---

export const customerIdSchema = z
  .string()
  .trim()
  .regex(/^cus_[A-Za-z0-9]{1,250}$/, 'expected a Stripe customer id such as cus_NciAYcXfLnqBoz');

async function userByEmail(store: Store, email: string) {
  const wanted = email.trim().toLowerCase();
  const row = await userRowByEmail(store, wanted);
  if (!row) throw new AppError('NOT_FOUND', `no user with email ${wanted}`);
  return row;
}

/**
 * Links a user to the Stripe customer it pays as, so subscription events for that customer find
 * it. One customer belongs to one user: linking a customer another user holds is a conflict.
 */
export async function linkCustomer(store: Store, email: string, customerId: string): Promise<{ email: string; customerId: string; previous: string | null }> {
  const parsed = customerIdSchema.safeParse(customerId);
  if (!parsed.success) throw badInput(`customer id: ${parsed.error.issues[0]?.message ?? 'invalid'}, got '${customerId.slice(0, 40)}'`);
  const cus = parsed.data;
  return immediate(store, async (tx) => {
    const user = await userByEmail(tx, email);
    const holder = await customerHolder(tx, cus, user.id);
    if (holder !== null) throw new AppError('CONFLICT', `customer ${cus} is already linked to ${holder}`);
    await updateUser(tx, user.id, { stripeCustomerId: cus });
    return { email: user.email, customerId: cus, previous: user.stripeCustomerId };
  });
}

// --- Webhook events ---

/** The parts of a Stripe event propgrade reads (the SDK has verified the signature before this). */
export interface VerifiedEvent {
  id: string;
  type: string;
  created: number;
  data: { object: unknown };
}

export const HANDLED_EVENT_TYPES = ['invoice.payment_failed', 'customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted'] as const;

const idOf = z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) }).transform((o) => o.id)]);

const subscriptionObject = z.looseObject({
  id: z.string().min(1),
  customer: idOf,
  status: z.string().min(1),
  items: z.looseObject({
    data: z.array(z.looseObject({ price: z.looseObject({ id: z.string().min(1) }).nullish(), plan: z.looseObject({ id: z.string().min(1) }).nullish() })),
  }),
});

/** Invoices name their subscription at `parent.subscription_details.subscription` (API 2025-03-31 on) or `subscription` (before). */
const invoiceObject = z.looseObject({
  customer: idOf.nullish(),
  subscription: idOf.nullish(),
  parent: z.looseObject({ subscription_details: z.looseObject({ subscription: idOf }).nullish() }).nullish(),
});

type Decoded = { ok: true; customerId: string; event: BillingEvent } | { ok: false; note: string };

function decode(event: VerifiedEvent): Decoded {
  if (event.type === 'invoice.payment_failed') {
    const inv = invoiceObject.safeParse(event.data.object);
    if (!inv.success || !inv.data.customer) return { ok: false, note: 'invoice without a readable customer' };
    const subscriptionId = inv.data.parent?.subscription_details?.subscription ?? inv.data.subscription ?? null;
    return { ok: true, customerId: inv.data.customer, event: { type: 'invoice.payment_failed', created: event.created, subscriptionId } };
  }
  const sub = subscriptionObject.safeParse(event.data.object);
  if (!sub.success) return { ok: false, note: 'subscription object not readable' };
  const priceIds = sub.data.items.data.map((i) => i.price?.id ?? i.plan?.id).filter((p): p is string => typeof p === 'string');
  return {
    ok: true,
    customerId: sub.data.customer,
    event: { type: event.type as SubscriptionEventType, created: event.created, subscriptionId: sub.data.id, status: sub.data.status, priceIds },
  };
}

export type WebhookOutcome = 'applied' | 'stale' | 'ignored' | 'duplicate';

export interface WebhookResult {
  eventId: string;
  type: string;
  outcome: WebhookOutcome;
  note: string;
}

function toState(row: SubscriptionRow): SubscriptionState {
  const tier = tierSchema.safeParse(row.tier);
  return { subscriptionId: row.stripeSubscriptionId, status: row.status, priceId: row.priceId, tier: tier.success ? tier.data : null, graceUntil: row.graceUntil, eventCreated: row.eventCreated };
}

/**
 * Handles one verified event, once: in one IMMEDIATE transaction it checks the event id against
 * stripe_events (a replay is a `duplicate` and changes nothing), finds the user by customer id,
 * applies the transition and records the outcome. An unknown event type, an unknown customer or an
 * unreadable object is recorded as `ignored` and changes nothing else.
 */
export async function handleStripeEvent(store: Store, event: VerifiedEvent, opts: { priceTiers: PriceTiers; now: Date }): Promise<WebhookResult> {
  const base = { eventId: event.id, type: event.type };
  return immediate(store, async (tx): Promise<WebhookResult> => {
    const seen = await stripeEventOutcome(tx, event.id);
    if (seen !== null) return { ...base, outcome: 'duplicate', note: `already handled (${seen})` };
    const result = await applyVerified(tx, event, opts);
    await recordStripeEvent(tx, { id: event.id, type: event.type, created: event.created, receivedAt: opts.now.toISOString(), outcome: `${result.outcome}: ${result.note}`.slice(0, 500) });
    return { ...base, ...result };
  });
}

/** Runs inside handleStripeEvent's transaction: `store` is its handle. */
async function applyVerified(store: Store, event: VerifiedEvent, opts: { priceTiers: PriceTiers; now: Date }): Promise<{ outcome: Exclude<WebhookOutcome, 'duplicate'>; note: string }> {
  if (!(HANDLED_EVENT_TYPES as readonly string[]).includes(event.type)) return { outcome: 'ignored', note: `event type ${event.type} is not handled` };
  const decoded = decode(event);
  if (!decoded.ok) return { outcome: 'ignored', note: decoded.note };
  const user = await userByCustomer(store, decoded.customerId);
  if (!user) return { outcome: 'ignored', note: `no user is linked to customer ${decoded.customerId}` };
  const userTier = tierSchema.safeParse(user.tier);
  const subscriptionId = decoded.event.subscriptionId;
  const row = subscriptionId ? await subscriptionById(store, subscriptionId) : null;
  if (row && row.userId !== user.id) return { outcome: 'ignored', note: `subscription ${subscriptionId} belongs to another user` };
  const others = (await subscriptionsOf(store, user.id, subscriptionId)).map(toState);
  const state: BillingState = {
    // A tier value the schema does not know is read as free (fail closed), as token resolution does.
    user: { tier: userTier.success ? userTier.data : 'free', subscriptionStatus: user.subscriptionStatus, graceUntil: user.graceUntil },
    subscription: row ? toState(row) : null,
    others,
  };
  const t = applyBillingEvent(state, decoded.event, opts.priceTiers);
  if (t.outcome !== 'applied') return { outcome: t.outcome, note: t.note };
  const next = t.state;
  await updateUser(store, user.id, { tier: next.user.tier, subscriptionStatus: next.user.subscriptionStatus, graceUntil: next.user.graceUntil });
  if (next.subscription) {
    const s = next.subscription;
    await upsertSubscription(store, {
      userId: user.id,
      stripeSubscriptionId: s.subscriptionId,
      stripeCustomerId: decoded.customerId,
      status: s.status,
      priceId: s.priceId,
      tier: s.tier,
      graceUntil: s.graceUntil,
      eventCreated: s.eventCreated,
      updatedAt: opts.now.toISOString(),
    });
  }
  return { outcome: 'applied', note: `${user.email}: ${t.note}` };
}

// --- Sweep ---

/**
 * Ends every grace that has expired at `now` (rule 5 of src/domain/billing.ts): the user's tier
 * becomes free, and so does the subscription record that carried a grace. Idempotent: a second
 * sweep at the same clock finds nothing. `downgraded` counts users whose tier changed.
 */
export async function sweepExpiredGraces(store: Store, now: Date): Promise<{ downgraded: number; subscriptions: number }> {
  return immediate(store, async (tx) => {
    let downgraded = 0;
    let ended = 0;
    for (const u of await usersInGrace(tx)) {
      if (!graceExpired(u.graceUntil, now)) continue;
      const tier = tierSchema.safeParse(u.tier);
      const next = expireGraces({ user: { tier: tier.success ? tier.data : 'free', subscriptionStatus: u.subscriptionStatus, graceUntil: u.graceUntil }, subscription: null, others: [] }, now).user;
      await updateUser(tx, u.id, { tier: next.tier, graceUntil: next.graceUntil });
      if (u.tier !== next.tier) downgraded += 1;
    }
    for (const r of await subscriptionsInGrace(tx)) {
      if (!graceExpired(r.graceUntil, now)) continue;
      await endSubscriptionGrace(tx, r.id, now.toISOString());
      ended += 1;
    }
    return { downgraded, subscriptions: ended };
  });
}

// --- Reading billing state ---

export interface BillingView {
  email: string;
  tier: Tier;
  customerId: string | null;
  subscriptionStatus: string | null;
  graceUntil: string | null;
  founderPricing: boolean;
  subscriptions: Array<{ id: string; status: string; priceId: string | null; tier: Tier | null; graceUntil: string | null; eventCreated: string; updatedAt: string }>;
}

export async function billingView(store: Store, email: string): Promise<BillingView> {
  const user = await userByEmail(store, email);
  const tier = tierSchema.safeParse(user.tier);
  return {
    email: user.email,
    tier: tier.success ? tier.data : 'free',
    customerId: user.stripeCustomerId,
    subscriptionStatus: user.subscriptionStatus,
    graceUntil: user.graceUntil,
    founderPricing: user.founderPricing,
    subscriptions: (await subscriptionsOf(store, user.id)).map((r) => ({ id: r.stripeSubscriptionId, status: r.status, priceId: r.priceId, tier: toState(r).tier, graceUntil: r.graceUntil, eventCreated: new Date(r.eventCreated * 1000).toISOString(), updatedAt: r.updatedAt })),
  };
}

/** What GET /api/me shows of a user's billing; a user that is gone shows none of it. */
export async function billingStatus(store: Store, userId: number): Promise<{ founderPricing: boolean; billing: { customerLinked: boolean; subscriptionStatus: string | null; graceUntil: string | null } }> {
  const row = await userById(store, userId);
  return {
    founderPricing: row?.founderPricing ?? false,
    billing: { customerLinked: Boolean(row?.stripeCustomerId), subscriptionStatus: row?.subscriptionStatus ?? null, graceUntil: row?.graceUntil ?? null },
  };
}

/** The newest handled events, for `propgrade billing events`. */
export async function recentStripeEvents(store: Store, limit: number): Promise<Array<{ id: string; type: string; created: string; receivedAt: string; outcome: string }>> {
  return (await latestStripeEvents(store, limit)).map((r) => ({ ...r, created: new Date(r.created * 1000).toISOString() }));
}

// --- Billing portal ---

/**
 * A Stripe billing-portal session for the user's customer, returning where to send the user.
 * Stripe not configured (no STRIPE_SECRET_KEY or BILLING_RETURN_URL): NOT_CONFIGURED. No customer
 * linked: CONFLICT. Stripe failing or refusing: UPSTREAM (src/publish/stripe.ts).
 */
export async function createPortalSession(store: Store, config: Pick<Env, 'STRIPE_SECRET_KEY' | 'BILLING_RETURN_URL'>, userId: number, connect: StripeConnect = connectStripe): Promise<{ url: string }> {
  if (!config.STRIPE_SECRET_KEY || !config.BILLING_RETURN_URL) {
    throw new AppError('NOT_CONFIGURED', 'billing is not configured on this server (STRIPE_SECRET_KEY and BILLING_RETURN_URL)');
  }
  const customer = (await userById(store, userId))?.stripeCustomerId;
  if (!customer) {
    throw new AppError('CONFLICT', 'no Stripe customer is linked to this account yet: subscribe first, or ask support to link it', { details: { reason: 'no_customer' } });
  }
  return connect(config.STRIPE_SECRET_KEY).portalSession(customer, config.BILLING_RETURN_URL);
}
