import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expireGraces, graceFrom, type SubscriptionState } from '../../src/domain/billing.js';
import type { Tier } from '../../src/domain/tiers.js';
import { handleStripeEvent, linkCustomer, sweepExpiredGraces } from '../../src/accounts/billing.js';
import { createUser } from '../../src/accounts/users.js';
import { subscriptions, users } from '../../src/store/schema.js';
import { tempStore } from '../helpers/replay-store.js';

/**
 * The store side of billing: the sweep does to stored rows exactly what the pure expiry rule
 * does to a state (property-tested over random rows), and event handling is idempotent and
 * ordered whatever sequence of signed events arrives.
 */

const T0 = Date.parse('2026-03-01T00:00:00Z') / 1000;
let temp: ReturnType<typeof tempStore>;

beforeEach(() => {
  temp = tempStore();
});
afterEach(() => temp.cleanup());

describe('sweepExpiredGraces', () => {
  it('agrees with the pure expiry rule on random users and subscription records, and a second sweep finds nothing', async () => {
    const tier = fc.constantFrom<Tier>('free', 'analyst', 'desk');
    const grace = fc.option(fc.integer({ min: T0, max: T0 + 10 * 86_400 }).map(graceFrom), { nil: null });
    const userArb = fc.record({ tier, graceUntil: grace, subs: fc.array(fc.record({ tier: fc.option(tier, { nil: null }), graceUntil: grace }), { maxLength: 2 }) });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(userArb, { minLength: 1, maxLength: 6 }), fc.integer({ min: T0, max: T0 + 12 * 86_400 }), async (rows, at) => {
        temp.store.sqlite.exec('delete from subscriptions; delete from api_tokens; delete from users;');
        const now = new Date(at * 1000);
        const expected: Array<{ user: { tier: Tier; graceUntil: string | null }; subs: Array<Pick<SubscriptionState, 'tier' | 'graceUntil'>> }> = [];
        for (const r of rows) {
          const { user } = await createUser(temp.store, { email: `u${++n}@example.test`, tier: r.tier }, now);
          temp.store.db.update(users).set({ graceUntil: r.graceUntil }).where(eq(users.id, user.id)).run();
          const states: SubscriptionState[] = r.subs.map((s, i) => ({ subscriptionId: `sub_${n}_${i}`, status: 'canceled', priceId: null, tier: s.tier, graceUntil: s.graceUntil, eventCreated: T0 }));
          for (const s of states) temp.store.db.insert(subscriptions).values({ userId: user.id, stripeSubscriptionId: s.subscriptionId, stripeCustomerId: `cus_${n}`, status: s.status, tier: s.tier, graceUntil: s.graceUntil, eventCreated: s.eventCreated, updatedAt: now.toISOString() }).run();
          const next = expireGraces({ user: { tier: r.tier, subscriptionStatus: null, graceUntil: r.graceUntil }, subscription: null, others: states }, now);
          expected.push({ user: { tier: next.user.tier, graceUntil: next.user.graceUntil }, subs: next.others.map((s) => ({ tier: s.tier, graceUntil: s.graceUntil })) });
        }
        const downgradable = rows.filter((r) => r.tier !== 'free' && r.graceUntil !== null && Date.parse(r.graceUntil) <= now.getTime()).length;
        expect((await sweepExpiredGraces(temp.store, now)).downgraded).toBe(downgradable);
        const actualUsers = temp.store.db.select({ id: users.id, tier: users.tier, graceUntil: users.graceUntil }).from(users).orderBy(users.id).all();
        const actualSubs = temp.store.db.select().from(subscriptions).orderBy(subscriptions.id).all();
        expect(actualUsers.map((u) => ({ tier: u.tier, graceUntil: u.graceUntil }))).toEqual(expected.map((e) => e.user));
        expect(actualSubs.map((s) => ({ tier: s.tier, graceUntil: s.graceUntil }))).toEqual(expected.flatMap((e) => e.subs));
        expect(await sweepExpiredGraces(temp.store, now)).toEqual({ downgraded: 0, subscriptions: 0 });
      }),
      { numRuns: 60 },
    );
  });
});

describe('handleStripeEvent over random delivery orders', () => {
  it('delivering a set of events in any order, with replays, ends in the state of their newest-first reading; replays are duplicates', async () => {
    await createUser(temp.store, { email: 'ana@example.test', tier: 'free' }, new Date(T0 * 1000));
    await linkCustomer(temp.store, 'ana@example.test', 'cus_A');
    const prices = { price_a: 'analyst', price_d: 'desk' } as const;
    const sub = (status: string, price: string) => ({ id: 'sub_1', object: 'subscription', customer: 'cus_A', status, items: { object: 'list', data: [{ price: { id: price } }] } });
    // Distinct created times: the newest subscription event decides the subscription's state.
    const events = [
      { id: 'evt_a', type: 'customer.subscription.created', created: T0 + 10, data: { object: sub('active', 'price_a') } },
      { id: 'evt_b', type: 'customer.subscription.updated', created: T0 + 20, data: { object: sub('active', 'price_d') } },
      { id: 'evt_c', type: 'customer.subscription.updated', created: T0 + 30, data: { object: sub('past_due', 'price_d') } },
      { id: 'evt_d', type: 'customer.subscription.updated', created: T0 + 40, data: { object: sub('active', 'price_a') } },
    ];
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }), fc.array(fc.nat({ max: 3 }), { maxLength: 4 }), async (order, replays) => {
        temp.store.sqlite.exec("delete from subscriptions; delete from stripe_events; update users set tier = 'free', subscription_status = null, grace_until = null;");
        const outcomes: string[] = [];
        // One at a time, in delivery order: the order is what is under test.
        for (const e of [...order, ...replays.map((i) => events[i]!)]) outcomes.push((await handleStripeEvent(temp.store, e, { priceTiers: prices, now: new Date((T0 + 100) * 1000) })).outcome);
        expect(outcomes.slice(order.length).every((o) => o === 'duplicate')).toBe(true);
        const record = temp.store.db.select().from(subscriptions).get()!;
        expect(record).toMatchObject({ status: 'active', priceId: 'price_a', tier: 'analyst', eventCreated: T0 + 40 });
        // The newest event is active at price_a: whatever came before, the user ends analyst without grace.
        expect(temp.store.db.select({ tier: users.tier, grace: users.graceUntil, status: users.subscriptionStatus }).from(users).get()).toEqual({ tier: 'analyst', grace: null, status: 'active' });
      }),
      { numRuns: 60 },
    );
  });
});
