import { and, eq, isNotNull, ne } from 'drizzle-orm';
// Type only: the SDK (over 200 modules) loads when a Stripe call is made, not on every snapshot run's grace sweep.
import type Stripe from 'stripe';
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
import type { Store } from '../store/db.js';
import { stripeEvents, subscriptions, users } from '../store/schema.js';

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

// --- Stripe client ---

/** Where the SDK sends API calls; null = api.stripe.com. Tests and stripe-mock point it at a loopback server. */
let apiBase: { host: string; port: number; protocol: 'http' | 'https' } | null = null;

/** Points the SDK at another API base (e.g. `http://127.0.0.1:12111` for stripe-mock); null restores api.stripe.com. */
export function setStripeApiBase(base: string | null): void {
  if (base === null) {
    apiBase = null;
    return;
  }
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  apiBase = { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/** A Stripe client for one call: one retry on network errors, a 10 s timeout, no telemetry headers. */
export async function stripeClient(secretKey: string): Promise<Stripe> {
  const { default: StripeSdk } = await import('stripe');
  return new StripeSdk(secretKey, { maxNetworkRetries: 1, timeout: 10_000, telemetry: false, ...(apiBase ?? {}) });
}

// --- Customers ---

export const customerIdSchema = z
  .string()
  .trim()
  .regex(/^cus_[A-Za-z0-9]{1,250}$/, 'expected a Stripe customer id such as cus_NciAYcXfLnqBoz');

function userByEmail(store: Store, email: string) {
  const wanted = email.trim().toLowerCase();
  const row = store.db.select().from(users).where(eq(users.email, wanted)).get();
  if (!row) throw new AppError('NOT_FOUND', `no user with email ${wanted}`);
  return row;
}

/**
 * Links a user to the Stripe customer it pays as, so subscription events for that customer find
 * it. One customer belongs to one user: linking a customer another user holds is a conflict.
 */
export function linkCustomer(store: Store, email: string, customerId: string): { email: string; customerId: string; previous: string | null } {
  const parsed = customerIdSchema.safeParse(customerId);
  if (!parsed.success) throw badInput(`customer id: ${parsed.error.issues[0]?.message ?? 'invalid'}, got '${customerId.slice(0, 40)}'`);
  const cus = parsed.data;
  return store.sqlite
    .transaction(() => {
      const user = userByEmail(store, email);
      const holder = store.db.select({ email: users.email }).from(users).where(and(eq(users.stripeCustomerId, cus), ne(users.id, user.id))).get();
      if (holder) throw new AppError('CONFLICT', `customer ${cus} is already linked to ${holder.email}`);
      store.db.update(users).set({ stripeCustomerId: cus }).where(eq(users.id, user.id)).run();
      return { email: user.email, customerId: cus, previous: user.stripeCustomerId };
    })
    .immediate();
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

type SubscriptionRow = typeof subscriptions.$inferSelect;

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
export function handleStripeEvent(store: Store, event: VerifiedEvent, opts: { priceTiers: PriceTiers; now: Date }): WebhookResult {
  const base = { eventId: event.id, type: event.type };
  return store.sqlite
    .transaction((): WebhookResult => {
      const seen = store.db.select({ outcome: stripeEvents.outcome }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).get();
      if (seen) return { ...base, outcome: 'duplicate', note: `already handled (${seen.outcome})` };
      const result = applyVerified(store, event, opts);
      store.db
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type, created: event.created, receivedAt: opts.now.toISOString(), outcome: `${result.outcome}: ${result.note}`.slice(0, 500) })
        .run();
      return { ...base, ...result };
    })
    .immediate();
}

function applyVerified(store: Store, event: VerifiedEvent, opts: { priceTiers: PriceTiers; now: Date }): { outcome: Exclude<WebhookOutcome, 'duplicate'>; note: string } {
  if (!(HANDLED_EVENT_TYPES as readonly string[]).includes(event.type)) return { outcome: 'ignored', note: `event type ${event.type} is not handled` };
  const decoded = decode(event);
  if (!decoded.ok) return { outcome: 'ignored', note: decoded.note };
  const user = store.db.select().from(users).where(eq(users.stripeCustomerId, decoded.customerId)).get();
  if (!user) return { outcome: 'ignored', note: `no user is linked to customer ${decoded.customerId}` };
  const userTier = tierSchema.safeParse(user.tier);
  const subscriptionId = decoded.event.subscriptionId;
  const row = subscriptionId ? store.db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, subscriptionId)).get() : undefined;
  if (row && row.userId !== user.id) return { outcome: 'ignored', note: `subscription ${subscriptionId} belongs to another user` };
  const others = store.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), ...(subscriptionId ? [ne(subscriptions.stripeSubscriptionId, subscriptionId)] : [])))
    .all()
    .map(toState);
  const state: BillingState = {
    // A tier value the schema does not know is read as free (fail closed), as token resolution does.
    user: { tier: userTier.success ? userTier.data : 'free', subscriptionStatus: user.subscriptionStatus, graceUntil: user.graceUntil },
    subscription: row ? toState(row) : null,
    others,
  };
  const t = applyBillingEvent(state, decoded.event, opts.priceTiers);
  if (t.outcome !== 'applied') return { outcome: t.outcome, note: t.note };
  const next = t.state;
  store.db.update(users).set({ tier: next.user.tier, subscriptionStatus: next.user.subscriptionStatus, graceUntil: next.user.graceUntil }).where(eq(users.id, user.id)).run();
  if (next.subscription) {
    const s = next.subscription;
    const values = { status: s.status, priceId: s.priceId, tier: s.tier, graceUntil: s.graceUntil, eventCreated: s.eventCreated, updatedAt: opts.now.toISOString() };
    store.db
      .insert(subscriptions)
      .values({ userId: user.id, stripeSubscriptionId: s.subscriptionId, stripeCustomerId: decoded.customerId, ...values })
      .onConflictDoUpdate({ target: subscriptions.stripeSubscriptionId, set: values })
      .run();
  }
  return { outcome: 'applied', note: `${user.email}: ${t.note}` };
}

// --- Sweep ---

/**
 * Ends every grace that has expired at `now` (rule 5 of src/domain/billing.ts): the user's tier
 * becomes free, and so does the subscription record that carried a grace. Idempotent: a second
 * sweep at the same clock finds nothing. `downgraded` counts users whose tier changed.
 */
export function sweepExpiredGraces(store: Store, now: Date): { downgraded: number; subscriptions: number } {
  return store.sqlite
    .transaction(() => {
      let downgraded = 0;
      let ended = 0;
      const graced = store.db.select({ id: users.id, tier: users.tier, subscriptionStatus: users.subscriptionStatus, graceUntil: users.graceUntil }).from(users).where(isNotNull(users.graceUntil)).all();
      for (const u of graced) {
        if (!graceExpired(u.graceUntil, now)) continue;
        const tier = tierSchema.safeParse(u.tier);
        const next = expireGraces({ user: { tier: tier.success ? tier.data : 'free', subscriptionStatus: u.subscriptionStatus, graceUntil: u.graceUntil }, subscription: null, others: [] }, now).user;
        store.db.update(users).set({ tier: next.tier, graceUntil: next.graceUntil }).where(eq(users.id, u.id)).run();
        if (u.tier !== next.tier) downgraded += 1;
      }
      const records = store.db.select().from(subscriptions).where(isNotNull(subscriptions.graceUntil)).all();
      for (const r of records) {
        if (!graceExpired(r.graceUntil, now)) continue;
        store.db.update(subscriptions).set({ tier: 'free', graceUntil: null, updatedAt: now.toISOString() }).where(eq(subscriptions.id, r.id)).run();
        ended += 1;
      }
      return { downgraded, subscriptions: ended };
    })
    .immediate();
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

export function billingView(store: Store, email: string): BillingView {
  const user = userByEmail(store, email);
  const tier = tierSchema.safeParse(user.tier);
  return {
    email: user.email,
    tier: tier.success ? tier.data : 'free',
    customerId: user.stripeCustomerId,
    subscriptionStatus: user.subscriptionStatus,
    graceUntil: user.graceUntil,
    founderPricing: user.founderPricing,
    subscriptions: store.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, user.id))
      .orderBy(subscriptions.id)
      .all()
      .map((r) => ({ id: r.stripeSubscriptionId, status: r.status, priceId: r.priceId, tier: toState(r).tier, graceUntil: r.graceUntil, eventCreated: new Date(r.eventCreated * 1000).toISOString(), updatedAt: r.updatedAt })),
  };
}

/** The newest handled events, for `propgrade billing events`. */
export function recentStripeEvents(store: Store, limit: number): Array<{ id: string; type: string; created: string; receivedAt: string; outcome: string }> {
  const rows = store.sqlite.prepare('select id, type, created, received_at as receivedAt, outcome from stripe_events order by received_at desc, created desc limit ?').all(limit) as Array<{ id: string; type: string; created: number; receivedAt: string; outcome: string }>;
  return rows.map((r) => ({ ...r, created: new Date(r.created * 1000).toISOString() }));
}

// --- Billing portal ---

export type StripeFactory = (secretKey: string) => Stripe | Promise<Stripe>;

const portalSessionSchema = z.looseObject({ object: z.literal('billing_portal.session'), url: z.url() });

/**
 * A Stripe billing-portal session for the user's customer, returning where to send the user.
 * Stripe not configured (no STRIPE_SECRET_KEY or BILLING_RETURN_URL): NOT_CONFIGURED. No customer
 * linked: CONFLICT. Stripe failing or refusing: UPSTREAM, with Stripe's error type and code only.
 */
export async function createPortalSession(store: Store, config: Pick<Env, 'STRIPE_SECRET_KEY' | 'BILLING_RETURN_URL'>, userId: number, factory: StripeFactory = stripeClient): Promise<{ url: string }> {
  if (!config.STRIPE_SECRET_KEY || !config.BILLING_RETURN_URL) {
    throw new AppError('NOT_CONFIGURED', 'billing is not configured on this server (STRIPE_SECRET_KEY and BILLING_RETURN_URL)');
  }
  const user = store.db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.id, userId)).get();
  if (!user?.customer) {
    throw new AppError('CONFLICT', 'no Stripe customer is linked to this account yet: subscribe first, or ask support to link it', { details: { reason: 'no_customer' } });
  }
  let session: unknown;
  try {
    session = await (await factory(config.STRIPE_SECRET_KEY)).billingPortal.sessions.create({ customer: user.customer, return_url: config.BILLING_RETURN_URL });
  } catch (error) {
    const e = error as { rawType?: unknown; type?: unknown; code?: unknown; statusCode?: unknown };
    const type = typeof e.rawType === 'string' ? e.rawType : typeof e.type === 'string' ? e.type : 'unknown';
    throw new AppError('UPSTREAM', 'Stripe did not create the billing portal session', {
      // No `cause`: h3 would carry the cause instead of this error, and answer 500.
      details: { stripeError: type, ...(typeof e.code === 'string' ? { stripeCode: e.code } : {}), ...(typeof e.statusCode === 'number' ? { stripeStatus: e.statusCode } : {}) },
    });
  }
  const parsed = portalSessionSchema.safeParse(session);
  if (!parsed.success) throw new AppError('UPSTREAM', 'Stripe answered without a billing portal session url');
  return { url: parsed.data.url };
}
