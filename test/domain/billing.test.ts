import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyBillingEvent,
  expireGraces,
  graceExpired,
  graceFrom,
  tierForPrices,
  type BillingEvent,
  type BillingState,
  type SubscriptionState,
} from '../../src/domain/billing.js';
import { TIER_RANK, type Tier } from '../../src/domain/tiers.js';

const PRICES = { price_analyst: 'analyst', price_desk: 'desk', price_free: 'free' } as const;
const T0 = 1_762_300_000; // 2025-11-04T23:46:40Z, seconds
const H = 3600;

const analyst: BillingState = { user: { tier: 'analyst', subscriptionStatus: 'active', graceUntil: null }, subscription: { subscriptionId: 'sub_1', status: 'active', priceId: 'price_analyst', tier: 'analyst', graceUntil: null, eventCreated: T0 }, others: [] };
const free: BillingState = { user: { tier: 'free', subscriptionStatus: null, graceUntil: null }, subscription: null, others: [] };

const failed = (created: number, subscriptionId: string | null = 'sub_1'): BillingEvent => ({ type: 'invoice.payment_failed', created, subscriptionId });
const sub = (type: 'created' | 'updated' | 'deleted', created: number, status: string, priceIds: string[] = ['price_analyst'], subscriptionId = 'sub_1'): BillingEvent => ({
  type: `customer.subscription.${type}`,
  created,
  subscriptionId,
  status,
  priceIds,
});

describe('billing transitions (spec "Billing and tier")', () => {
  it('payment failed: the tier stays paid and a 48 h grace from the event is set on both records', () => {
    const t = applyBillingEvent(analyst, failed(T0 + 10), PRICES);
    expect(t.outcome).toBe('applied');
    expect(t.state.user).toEqual({ tier: 'analyst', subscriptionStatus: 'active', graceUntil: graceFrom(T0 + 10) });
    expect(t.state.subscription).toMatchObject({ tier: 'analyst', graceUntil: graceFrom(T0 + 10), eventCreated: T0 + 10 });
    expect(Date.parse(graceFrom(T0 + 10)) - (T0 + 10) * 1000).toBe(48 * H * 1000);
  });

  it('only the first failure sets the grace; a later failure keeps it', () => {
    const first = applyBillingEvent(analyst, failed(T0 + 10), PRICES).state;
    const second = applyBillingEvent(first, failed(T0 + 20 * H), PRICES);
    expect(second.state.user.graceUntil).toBe(graceFrom(T0 + 10));
    expect(second.note).toContain('already running');
  });

  it('a failure on an invoice without a subscription, or for a free user, leaves the user alone', () => {
    expect(applyBillingEvent(analyst, failed(T0 + 10, null), PRICES)).toMatchObject({ outcome: 'ignored', state: analyst });
    const t = applyBillingEvent(free, failed(T0 + 10), PRICES);
    expect(t.state.user).toEqual(free.user);
    // The record is opened so an older subscription event arriving later is stale.
    expect(t.state.subscription).toMatchObject({ subscriptionId: 'sub_1', status: 'payment_failed', tier: null, eventCreated: T0 + 10 });
  });

  it('subscription updated: the tier comes from the price map, the status is stored, the grace is cleared when active again', () => {
    const inGrace = applyBillingEvent(analyst, failed(T0 + 10), PRICES).state;
    const pastDue = applyBillingEvent(inGrace, sub('updated', T0 + 20, 'past_due'), PRICES).state;
    expect(pastDue.user).toEqual({ tier: 'analyst', subscriptionStatus: 'past_due', graceUntil: graceFrom(T0 + 10) });
    const active = applyBillingEvent(pastDue, sub('updated', T0 + 30, 'active', ['price_desk']), PRICES).state;
    expect(active.user).toEqual({ tier: 'desk', subscriptionStatus: 'active', graceUntil: null });
    expect(active.subscription).toMatchObject({ status: 'active', priceId: 'price_desk', tier: 'desk', graceUntil: null, eventCreated: T0 + 30 });
  });

  it('a new subscription upgrades a free user; an unknown price grants nothing (fail closed)', () => {
    expect(applyBillingEvent(free, sub('created', T0, 'active', ['price_desk']), PRICES).state.user.tier).toBe('desk');
    const unknown = applyBillingEvent(free, sub('created', T0, 'active', ['price_unknown']), PRICES);
    expect(unknown.state.user.tier).toBe('free');
    expect(unknown.state.subscription).toMatchObject({ tier: null, priceId: 'price_unknown', status: 'active' });
    expect(unknown.note).toContain('no price of the subscription is in STRIPE_PRICE_TIERS');
    // Several prices: the highest mapped tier.
    expect(tierForPrices(['price_unknown', 'price_analyst', 'price_desk'], PRICES)).toBe('desk');
    expect(tierForPrices(['constructor', '__proto__', 'toString'], PRICES)).toBeNull();
  });

  it('an incomplete or trialing subscription: trialing grants the tier, incomplete grants nothing', () => {
    expect(applyBillingEvent(free, sub('created', T0, 'incomplete'), PRICES).state.user).toEqual({ tier: 'free', subscriptionStatus: 'incomplete', graceUntil: null });
    expect(applyBillingEvent(free, sub('created', T0, 'trialing'), PRICES).state.user.tier).toBe('analyst');
  });

  it('subscription deleted: grace 48 h, tier kept until it expires, then free in both records', () => {
    const deleted = applyBillingEvent(analyst, sub('deleted', T0 + 100, 'canceled'), PRICES).state;
    expect(deleted.user).toEqual({ tier: 'analyst', subscriptionStatus: 'canceled', graceUntil: graceFrom(T0 + 100) });
    expect(deleted.subscription).toMatchObject({ status: 'canceled', tier: 'analyst', graceUntil: graceFrom(T0 + 100) });
    const justBefore = new Date(Date.parse(graceFrom(T0 + 100)) - 1);
    expect(expireGraces(deleted, justBefore)).toEqual(deleted);
    const after = expireGraces(deleted, new Date(Date.parse(graceFrom(T0 + 100))));
    expect(after.user).toEqual({ tier: 'free', subscriptionStatus: 'canceled', graceUntil: null });
    expect(after.subscription).toMatchObject({ tier: 'free', graceUntil: null });
  });

  it('an ended status on an update (unpaid, canceled, incomplete_expired, paused) is a deletion', () => {
    for (const status of ['unpaid', 'canceled', 'incomplete_expired', 'paused']) {
      expect(applyBillingEvent(analyst, sub('updated', T0 + 5, status), PRICES).state.user, status).toEqual({ tier: 'analyst', subscriptionStatus: status, graceUntil: graceFrom(T0 + 5) });
    }
  });

  it('a deletion keeps a grace already running from a failure (the first grace wins)', () => {
    const inGrace = applyBillingEvent(analyst, failed(T0), PRICES).state;
    expect(applyBillingEvent(inGrace, sub('deleted', T0 + 40 * H, 'canceled'), PRICES).state.user.graceUntil).toBe(graceFrom(T0));
  });

  it('a deletion after the sweep already made the user free sets no grace', () => {
    const swept = expireGraces(applyBillingEvent(analyst, failed(T0), PRICES).state, new Date((T0 + 49 * H) * 1000));
    expect(swept.user.tier).toBe('free');
    const t = applyBillingEvent(swept, sub('deleted', T0 + 50 * H, 'canceled'), PRICES);
    expect(t.state.user).toEqual({ tier: 'free', subscriptionStatus: 'canceled', graceUntil: null });
    expect(t.state.subscription).toMatchObject({ tier: 'free', graceUntil: null });
  });

  it('an older event never overwrites a newer state', () => {
    const active = applyBillingEvent(analyst, sub('updated', T0 + 50, 'active', ['price_desk']), PRICES).state;
    for (const old of [failed(T0 + 40), sub('deleted', T0 + 40, 'canceled'), sub('updated', T0 + 49, 'past_due')]) {
      expect(applyBillingEvent(active, old, PRICES), old.type).toMatchObject({ outcome: 'stale', state: active });
    }
  });

  it('another still-paying subscription keeps the user paid: no grace, its tier', () => {
    const other: SubscriptionState = { subscriptionId: 'sub_2', status: 'active', priceId: 'price_analyst', tier: 'analyst', graceUntil: null, eventCreated: T0 };
    const desk: BillingState = { user: { tier: 'desk', subscriptionStatus: 'active', graceUntil: null }, subscription: { ...analyst.subscription!, tier: 'desk', priceId: 'price_desk' }, others: [other] };
    const deleted = applyBillingEvent(desk, sub('deleted', T0 + 10, 'canceled', ['price_desk']), PRICES).state;
    expect(deleted.user).toEqual({ tier: 'analyst', subscriptionStatus: 'active', graceUntil: null });
    const failedOne = applyBillingEvent(desk, failed(T0 + 10), PRICES).state;
    expect(failedOne.user).toEqual(desk.user);
    expect(failedOne.subscription!.graceUntil).toBe(graceFrom(T0 + 10));
  });

  it('graceExpired is inclusive of the instant and false without a grace', () => {
    expect(graceExpired(null, new Date())).toBe(false);
    expect(graceExpired('2025-11-05T00:00:00.000Z', new Date('2025-11-05T00:00:00.000Z'))).toBe(true);
    expect(graceExpired('2025-11-05T00:00:00.000Z', new Date('2025-11-04T23:59:59.999Z'))).toBe(false);
  });
});

// --- properties ---

const tierArb = fc.constantFrom<Tier>('free', 'analyst', 'desk');
const statusArb = fc.constantFrom('active', 'trialing', 'past_due', 'incomplete', 'incomplete_expired', 'canceled', 'unpaid', 'paused', 'payment_failed');
const priceArb = fc.constantFrom('price_analyst', 'price_desk', 'price_free', 'price_unknown');
const createdArb = fc.integer({ min: T0, max: T0 + 30 * 24 * H });
const graceArb = fc.option(createdArb.map((c) => graceFrom(c)), { nil: null });
const recordArb = (id: string) =>
  fc.record<SubscriptionState>({ subscriptionId: fc.constant(id), status: statusArb, priceId: fc.option(priceArb, { nil: null }), tier: fc.option(tierArb, { nil: null }), graceUntil: graceArb, eventCreated: createdArb });
const stateArb: fc.Arbitrary<BillingState> = fc.record({
  user: fc.record({ tier: tierArb, subscriptionStatus: fc.option(statusArb, { nil: null }), graceUntil: graceArb }),
  subscription: fc.option(recordArb('sub_1'), { nil: null }),
  others: fc.array(recordArb('sub_2'), { maxLength: 1 }),
});
const eventArb: fc.Arbitrary<BillingEvent> = fc.oneof(
  fc.record({ type: fc.constant('invoice.payment_failed' as const), created: createdArb, subscriptionId: fc.option(fc.constant('sub_1'), { nil: null }) }),
  fc.record({
    type: fc.constantFrom('customer.subscription.created' as const, 'customer.subscription.updated' as const, 'customer.subscription.deleted' as const),
    created: createdArb,
    subscriptionId: fc.constant('sub_1'),
    status: statusArb,
    priceIds: fc.array(priceArb, { maxLength: 3 }),
  }),
);

describe('billing transition properties', () => {
  it('applying the same event twice is the same as once (a replay changes nothing)', () => {
    fc.assert(
      fc.property(stateArb, eventArb, (state, event) => {
        const once = applyBillingEvent(state, event, PRICES).state;
        expect(applyBillingEvent(once, event, PRICES).state).toEqual(once);
      }),
    );
  });

  it('an event older than the stored state changes nothing', () => {
    fc.assert(
      fc.property(stateArb, eventArb, (state, event) => {
        fc.pre(state.subscription !== null && event.created < state.subscription.eventCreated);
        const t = applyBillingEvent(state, event, PRICES);
        // An invoice without a subscription is ignored before the order is looked at.
        expect(t.outcome).toBe(event.subscriptionId === null ? 'ignored' : 'stale');
        expect(t.state).toBe(state);
      }),
    );
  });

  it('the user tier rises only on a paying status with a mapped price; a payment failure never changes it', () => {
    fc.assert(
      fc.property(stateArb, eventArb, (state, event) => {
        const next = applyBillingEvent(state, event, PRICES).state;
        if (event.type === 'invoice.payment_failed') expect(next.user.tier).toBe(state.user.tier);
        if (TIER_RANK[next.user.tier] > TIER_RANK[state.user.tier]) {
          const paying = event.type !== 'invoice.payment_failed' && event.type !== 'customer.subscription.deleted' && ['active', 'trialing'].includes(event.status);
          const otherPays = state.others.some((o) => ['active', 'trialing'].includes(o.status) && o.graceUntil === null && o.tier === next.user.tier);
          expect(paying || otherPays).toBe(true);
        }
      }),
    );
  });

  it('a grace, when set, is the event time + 48 h or one already running; no event lowers the tier at once unless another subscription governs it', () => {
    fc.assert(
      fc.property(stateArb, eventArb, (state, event) => {
        const next = applyBillingEvent(state, event, PRICES).state;
        if (next.user.graceUntil !== null) expect([state.user.graceUntil, graceFrom(event.created)]).toContain(next.user.graceUntil);
        if (event.type === 'invoice.payment_failed' || event.type === 'customer.subscription.deleted') {
          const governed = state.others.some((o) => ['active', 'trialing'].includes(o.status) && o.graceUntil === null && o.tier !== null && o.tier !== 'free');
          if (!governed) expect(next.user.tier).toBe(state.user.tier);
        }
      }),
    );
  });

  it('expiry is idempotent and leaves no expired grace behind', () => {
    fc.assert(
      fc.property(stateArb, createdArb, (state, at) => {
        const now = new Date(at * 1000);
        const once = expireGraces(state, now);
        expect(expireGraces(once, now)).toEqual(once);
        for (const g of [once.user.graceUntil, once.subscription?.graceUntil ?? null, ...once.others.map((o) => o.graceUntil)]) expect(graceExpired(g, now)).toBe(false);
        if (graceExpired(state.user.graceUntil, now)) expect(once.user.tier).toBe('free');
        else expect(once.user).toEqual(state.user);
      }),
    );
  });
});
