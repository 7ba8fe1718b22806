import { highestTier, TIER_RANK, type Tier } from './tiers.js';

/**
 * Billing state transitions (spec "Billing and tier"), pure: the state a user and one of its
 * subscriptions are in, plus one verified Stripe event, give the next state. No clock, no store:
 * the event's own `created` time is the clock, so replaying the same events gives the same state.
 *
 * Rules, in order:
 * 1. Ordering. An event older than the state its subscription record was last written from
 *    (`created < eventCreated`) is stale and changes nothing. Same-second events apply in arrival
 *    order.
 * 2. invoice.payment_failed: the tier stays paid and a grace of 48 hours from the event is set on
 *    the user and the subscription. Only the first failure sets it; later failures keep the
 *    running grace. A failure on a user with no paid tier, or on an invoice with no subscription,
 *    changes nothing for the user. A failure on one subscription while another of the user's
 *    subscriptions is active leaves the user alone (that one still pays). The subscription record
 *    gets the grace either way (and is opened if no event described it yet, for rule 1).
 * 3. customer.subscription.created / updated: the status is stored on both records.
 *    - active or trialing: the tier comes from the price map (the highest mapped tier among the
 *      subscription's prices) and both graces are cleared. A price the map does not know grants
 *      nothing: the tier stays as it was (fail closed).
 *    - canceled, unpaid, incomplete_expired, paused: the subscription has ended; handled as a
 *      deletion (rule 4).
 *    - past_due, incomplete and anything else: status stored, tier and grace unchanged (the
 *      payment-failed event sets the grace).
 * 4. customer.subscription.deleted (or an ended status): a paid user gets a grace of 48 hours from
 *    the event (a grace already running is kept); the tier stays until the grace expires. A user
 *    whose other subscription is still active keeps paid access at that subscription's tier.
 * 5. Expiry (the sweep): a grace at or before `now` ends; the tier becomes free on the record
 *    that carried it (user or subscription). Idempotent.
 */

export const GRACE_HOURS = 48;
const GRACE_MS = GRACE_HOURS * 60 * 60 * 1000;

/** Statuses in which a subscription pays for access. */
export const PAYING_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing']);
/** Statuses in which a subscription has ended (or stopped charging): access ends after the grace. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(['canceled', 'unpaid', 'incomplete_expired', 'paused']);

/**
 * The status of a subscription record opened by a payment failure before any subscription event
 * described it (not a Stripe status; the next subscription event replaces it).
 */
export const FAILED_WITHOUT_RECORD = 'payment_failed';

export type PriceTiers = Readonly<Record<string, Tier>>;

/** The user's own billing fields (users row). */
export interface UserBilling {
  tier: Tier;
  subscriptionStatus: string | null;
  /** ISO time; the tier becomes free when it passes. */
  graceUntil: string | null;
}

/** One subscription record (subscriptions row) as the webhooks last described it. */
export interface SubscriptionState {
  subscriptionId: string;
  status: string;
  priceId: string | null;
  /** The tier its price maps to; null for a price the map does not know. */
  tier: Tier | null;
  graceUntil: string | null;
  /** Stripe `event.created` (seconds) of the event that last wrote this record. */
  eventCreated: number;
}

export interface BillingState {
  user: UserBilling;
  /** The record the event is about; null when none exists yet. */
  subscription: SubscriptionState | null;
  /** The user's other subscription records, read to keep a still-paying subscription's access. */
  others: readonly SubscriptionState[];
}

export type SubscriptionEventType = 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted';

export type BillingEvent =
  | { type: 'invoice.payment_failed'; created: number; subscriptionId: string | null }
  | { type: SubscriptionEventType; created: number; subscriptionId: string; status: string; priceIds: readonly string[] };

export type Transition =
  | { outcome: 'applied'; state: BillingState; note: string }
  | { outcome: 'stale' | 'ignored'; state: BillingState; note: string };

export function graceFrom(created: number): string {
  return new Date(created * 1000 + GRACE_MS).toISOString();
}

/** The highest tier any of the prices maps to; null when the map knows none of them. */
export function tierForPrices(priceIds: readonly string[], priceTiers: PriceTiers): Tier | null {
  return highestTier(priceIds.map((p) => (Object.hasOwn(priceTiers, p) ? priceTiers[p] : null)));
}

/** A subscription that pays for a paid tier right now (no grace running on it). */
function paying(s: SubscriptionState): boolean {
  return PAYING_STATUSES.has(s.status) && s.graceUntil === null && s.tier !== null && s.tier !== 'free';
}

function bestPaying(others: readonly SubscriptionState[]): SubscriptionState | null {
  let best: SubscriptionState | null = null;
  for (const s of others) if (paying(s) && (best === null || TIER_RANK[s.tier!] > TIER_RANK[best.tier!])) best = s;
  return best;
}

const isPaid = (tier: Tier): boolean => tier !== 'free';

export function applyBillingEvent(state: BillingState, event: BillingEvent, priceTiers: PriceTiers): Transition {
  const record = state.subscription;
  if (record && record.subscriptionId !== event.subscriptionId) {
    return { outcome: 'ignored', state, note: `the state given is for subscription ${record.subscriptionId}, not ${String(event.subscriptionId)}` };
  }
  if (record && event.created < record.eventCreated) {
    return { outcome: 'stale', state, note: `event created ${event.created} is older than the stored state (${record.eventCreated})` };
  }
  if (event.type === 'invoice.payment_failed') return paymentFailed(state, event);
  if (PAYING_STATUSES.has(event.status) && event.type !== 'customer.subscription.deleted') return activated(state, event, priceTiers);
  if (event.type === 'customer.subscription.deleted' || ENDED_STATUSES.has(event.status)) return ended(state, event, priceTiers);
  return statusOnly(state, event, priceTiers);
}

function paymentFailed(state: BillingState, event: Extract<BillingEvent, { type: 'invoice.payment_failed' }>): Transition {
  if (event.subscriptionId === null) return { outcome: 'ignored', state, note: 'the invoice is not for a subscription' };
  const grace = graceFrom(event.created);
  // A failure for a subscription no event has described yet still opens its record, so an older
  // subscription event arriving later is recognised as stale.
  const base: SubscriptionState = state.subscription ?? { subscriptionId: event.subscriptionId, status: FAILED_WITHOUT_RECORD, priceId: null, tier: null, graceUntil: null, eventCreated: event.created };
  const subscription: SubscriptionState = { ...base, graceUntil: base.graceUntil ?? grace, eventCreated: event.created };
  const still = bestPaying(state.others);
  if (still || !isPaid(state.user.tier)) {
    return { outcome: 'applied', state: { ...state, subscription }, note: `subscription grace until ${subscription.graceUntil}; the user is unchanged (${still ? `subscription ${still.subscriptionId} still pays` : 'no paid tier to keep'})` };
  }
  const kept = state.user.graceUntil !== null;
  const user: UserBilling = { ...state.user, graceUntil: state.user.graceUntil ?? grace };
  return { outcome: 'applied', state: { ...state, user, subscription }, note: kept ? `grace already running until ${user.graceUntil}` : `tier ${user.tier} kept, grace until ${user.graceUntil}` };
}

type SubscriptionEvent = Extract<BillingEvent, { subscriptionId: string; status: string }>;

function recordFrom(state: BillingState, event: SubscriptionEvent, tier: Tier | null, graceUntil: string | null, priceTiers: PriceTiers): SubscriptionState {
  const mapped = event.priceIds.find((p) => Object.hasOwn(priceTiers, p) && priceTiers[p] === tier) ?? event.priceIds[0] ?? state.subscription?.priceId ?? null;
  return { subscriptionId: event.subscriptionId, status: event.status, priceId: mapped, tier, graceUntil, eventCreated: event.created };
}

function activated(state: BillingState, event: SubscriptionEvent, priceTiers: PriceTiers): Transition {
  const tier = tierForPrices(event.priceIds, priceTiers);
  const subscription = recordFrom(state, event, tier, null, priceTiers);
  const granted = highestTier([tier, bestPaying(state.others)?.tier]);
  if (granted === null) {
    const user: UserBilling = { ...state.user, subscriptionStatus: event.status, graceUntil: null };
    return { outcome: 'applied', state: { ...state, user, subscription }, note: `status ${event.status}; no price of the subscription is in STRIPE_PRICE_TIERS, tier ${user.tier} unchanged` };
  }
  const user: UserBilling = { tier: granted, subscriptionStatus: event.status, graceUntil: null };
  return { outcome: 'applied', state: { ...state, user, subscription }, note: `status ${event.status}, tier ${state.user.tier} -> ${granted}, grace cleared` };
}

function ended(state: BillingState, event: SubscriptionEvent, priceTiers: PriceTiers): Transition {
  const tier = tierForPrices(event.priceIds, priceTiers) ?? state.subscription?.tier ?? null;
  const grace = graceFrom(event.created);
  const still = bestPaying(state.others);
  if (still) {
    const subscription = recordFrom(state, event, tier, state.subscription?.graceUntil ?? grace, priceTiers);
    const user: UserBilling = { tier: still.tier!, subscriptionStatus: still.status, graceUntil: null };
    return { outcome: 'applied', state: { ...state, user, subscription }, note: `subscription ${event.status}; subscription ${still.subscriptionId} still pays, tier ${user.tier}` };
  }
  if (!isPaid(state.user.tier)) {
    const subscription = recordFrom(state, event, 'free', null, priceTiers);
    const user: UserBilling = { ...state.user, subscriptionStatus: event.status, graceUntil: null };
    return { outcome: 'applied', state: { ...state, user, subscription }, note: `subscription ${event.status}; the user is already free` };
  }
  const userGrace = state.user.graceUntil ?? grace;
  const subscription = recordFrom(state, event, tier, state.subscription?.graceUntil ?? userGrace, priceTiers);
  const user: UserBilling = { ...state.user, subscriptionStatus: event.status, graceUntil: userGrace };
  return { outcome: 'applied', state: { ...state, user, subscription }, note: `subscription ${event.status}; tier ${user.tier} until ${userGrace}, then free` };
}

function statusOnly(state: BillingState, event: SubscriptionEvent, priceTiers: PriceTiers): Transition {
  const tier = tierForPrices(event.priceIds, priceTiers);
  const subscription = recordFrom(state, event, tier, state.subscription?.graceUntil ?? null, priceTiers);
  const user: UserBilling = bestPaying(state.others) ? state.user : { ...state.user, subscriptionStatus: event.status };
  return { outcome: 'applied', state: { ...state, user, subscription }, note: `status ${event.status} stored; tier and grace unchanged` };
}

/** True when a grace has run out at `now` (at or before it). */
export function graceExpired(graceUntil: string | null, now: Date): boolean {
  return graceUntil !== null && Date.parse(graceUntil) <= now.getTime();
}

/** Rule 5 on one user's state: every expired grace ends, and its record's tier becomes free. */
export function expireGraces(state: BillingState, now: Date): BillingState {
  const expire = (s: SubscriptionState): SubscriptionState => (graceExpired(s.graceUntil, now) ? { ...s, tier: 'free', graceUntil: null } : s);
  return {
    user: graceExpired(state.user.graceUntil, now) ? { ...state.user, tier: 'free', graceUntil: null } : state.user,
    subscription: state.subscription ? expire(state.subscription) : null,
    others: state.others.map(expire),
  };
}
