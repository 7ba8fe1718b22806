import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Env } from '../../src/config.js';
import { graceFrom } from '../../src/domain/billing.js';
import { linkCustomer, sweepExpiredGraces } from '../../src/accounts/billing.js';
import { createUser, resolveBearer } from '../../src/accounts/users.js';
import { stripeEvents, subscriptions, users } from '../../src/store/schema.js';
import { tempStore } from '../helpers/replay-store.js';
import { quiet, startServer, type Running } from './_harness.js';
import { WEBHOOK_SIGNATURE_REFUSED } from '../../src/server/routes/accounts.js';

/**
 * Stripe webhooks end to end on a real loopback server (issue 15): every payload is signed with the
 * SDK's own test-header helper; the clock is injected. Forged, stale, missing and altered
 * signatures change nothing; every transition, replays, out-of-order events and grace expiry
 * through the sweep are driven here.
 */

const SECRET = 'whsec_test_5f0c1b7e2a9d4c3b8e6f';
const ENV = { STRIPE_SECRET_KEY: 'sk_test_51Habc', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_PRICE_TIERS: 'price_analyst_m:analyst,price_desk_m:desk' };
const START = new Date('2026-03-02T15:00:00Z');
const sec = (d: Date) => Math.floor(d.getTime() / 1000);

let temp: ReturnType<typeof tempStore>;
let api: Running;
let clock: Date;
let config: Env;
let token: string;
let seq = 0;

function subscriptionObject(id: string, customer: string, status: string, price = 'price_analyst_m') {
  return {
    id,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: false,
    created: sec(START) - 86_400,
    currency: 'usd',
    livemode: false,
    metadata: {},
    items: { object: 'list', has_more: false, url: `/v1/subscription_items?subscription=${id}`, data: [{ id: `si_${id}`, object: 'subscription_item', quantity: 1, subscription: id, price: { id: price, object: 'price', active: true, currency: 'usd', unit_amount: 2900, recurring: { interval: 'month', interval_count: 1 } } }] },
  };
}

function invoiceObject(customer: string, subscription: string, legacy = false) {
  const base = { id: `in_${++seq}`, object: 'invoice', customer, status: 'open', attempt_count: 1, amount_due: 2900, currency: 'usd', livemode: false };
  return legacy
    ? { ...base, subscription }
    : { ...base, parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: {}, subscription } } };
}

function eventBody(type: string, object: unknown, created: number, id = `evt_${++seq}`): string {
  return JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created, data: { object }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type });
}

async function deliver(body: string, opts: { secret?: string; timestamp?: number; header?: string | null; alter?: (b: string) => string } = {}) {
  const header = opts.header === undefined ? Stripe.webhooks.generateTestHeaderString({ payload: body, secret: opts.secret ?? SECRET, timestamp: opts.timestamp ?? sec(clock) }) : opts.header;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (header !== null) headers['stripe-signature'] = header;
  const res = await fetch(`${api.base}/api/webhooks/stripe`, { method: 'POST', headers, body: opts.alter ? opts.alter(body) : body });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

function userRow(email = 'ana@example.test') {
  return temp.store.db.select().from(users).where(eq(users.email, email)).get()!;
}
function subRow(id = 'sub_1') {
  return temp.store.db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, id)).get();
}
function tables() {
  return { users: temp.store.db.select().from(users).all(), subscriptions: temp.store.db.select().from(subscriptions).all(), events: temp.store.db.select().from(stripeEvents).all() };
}

beforeAll(async () => {
  config = loadConfig(ENV);
});

beforeEach(async () => {
  temp = tempStore();
  clock = START;
  token = (await createUser(temp.store, { email: 'ana@example.test', tier: 'free' }, new Date('2025-10-01T00:00:00Z'))).token;
  await createUser(temp.store, { email: 'bo@example.test', tier: 'analyst' }, new Date('2025-10-01T00:00:00Z'));
  await linkCustomer(temp.store, 'ana@example.test', 'cus_Ana123');
  api = await startServer({ store: temp.store, config, now: () => clock, wallClock: () => clock, log: quiet });
});
afterEach(async () => {
  await api.close();
  temp.cleanup();
});

describe('signature: anything not signed by STRIPE_WEBHOOK_SECRET is a 400 and changes nothing', () => {
  it('missing, malformed, forged, stale, and altered-after-signing are all refused', async () => {
    const body = eventBody('customer.subscription.created', subscriptionObject('sub_1', 'cus_Ana123', 'active', 'price_desk_m'), sec(clock));
    const before = tables();
    const attempts = [
      await deliver(body, { header: null }),
      await deliver(body, { header: 'garbage' }),
      await deliver(body, { header: `t=${sec(clock)},v1=${'0'.repeat(64)}` }),
      await deliver(body, { secret: 'whsec_someone_else' }),
      await deliver(body, { timestamp: sec(clock) - 301 }),
      await deliver(body, { alter: (b) => b.replace('price_desk_m', 'price_analyst_m') }),
      await deliver(body, { alter: (b) => `${b} ` }),
    ];
    for (const [i, r] of attempts.entries()) {
      expect(r.status, String(i)).toBe(400);
      expect(r.json['error']['code']).toBe('BAD_INPUT');
    }
    expect(attempts[0]!.json['error']['message']).toBe('missing Stripe-Signature header');
    // Every refused signature answers one fixed message: never the SDK's text or its docs URL.
    for (const r of attempts.slice(1)) expect(r.json['error']['message']).toBe(WEBHOOK_SIGNATURE_REFUSED);
    expect(tables()).toEqual(before);
    // The same body, signed, is accepted: the refusals above were about the signature alone.
    expect((await deliver(body)).json).toEqual({ received: true, event_id: expect.stringMatching(/^evt_/), outcome: 'applied' });
    expect(userRow().tier).toBe('desk');
  });

  it('no webhook secret configured: 503 NOT_CONFIGURED, nothing read, nothing changed', async () => {
    const unconfigured = await startServer({ store: temp.store, config: loadConfig({}), now: () => clock, wallClock: () => clock, log: quiet });
    const body = eventBody('customer.subscription.created', subscriptionObject('sub_1', 'cus_Ana123', 'active', 'price_desk_m'), sec(clock));
    const before = tables();
    const res = await fetch(`${unconfigured.base}/api/webhooks/stripe`, { method: 'POST', headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET }) }, body });
    await unconfigured.close();
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.code).toBe('NOT_CONFIGURED');
    expect(tables()).toEqual(before);
  });

  it('a body over the cap is a 413 before any signature work', async () => {
    const big = 'x'.repeat(600 * 1024);
    const r = await deliver(big, { header: 't=1,v1=abc' });
    expect(r.status).toBe(413);
  });
});

describe('transitions (spec "Billing and tier")', () => {
  it('subscribe, fail a payment (grace), recover, cancel (grace), expire: free in both records after the sweep', async () => {
    // 1. A new subscription at the analyst price: the free user becomes analyst.
    let r = await deliver(eventBody('customer.subscription.created', subscriptionObject('sub_1', 'cus_Ana123', 'incomplete'), sec(clock)));
    expect(r.json['outcome']).toBe('applied');
    expect(userRow()).toMatchObject({ tier: 'free', subscriptionStatus: 'incomplete' });
    clock = new Date(clock.getTime() + 60_000);
    r = await deliver(eventBody('customer.subscription.updated', subscriptionObject('sub_1', 'cus_Ana123', 'active'), sec(clock)));
    expect(userRow()).toMatchObject({ tier: 'analyst', subscriptionStatus: 'active', graceUntil: null });
    expect((await resolveBearer(temp.store, `Bearer ${token}`)).tier).toBe('analyst');

    // 2. Payment failed: still analyst, grace 48 h from the event.
    clock = new Date(clock.getTime() + 30 * 86_400_000);
    const failedAt = sec(clock);
    r = await deliver(eventBody('invoice.payment_failed', invoiceObject('cus_Ana123', 'sub_1'), failedAt));
    expect(r.json['outcome']).toBe('applied');
    expect(userRow()).toMatchObject({ tier: 'analyst', graceUntil: graceFrom(failedAt) });
    expect(subRow()).toMatchObject({ tier: 'analyst', graceUntil: graceFrom(failedAt), status: 'active' });
    // A second failure (smart retry) does not extend it.
    clock = new Date(clock.getTime() + 3_600_000);
    await deliver(eventBody('invoice.payment_failed', invoiceObject('cus_Ana123', 'sub_1', true), sec(clock)));
    expect(userRow().graceUntil).toBe(graceFrom(failedAt));
    // The GET /api/me view shows it.
    const me = (await (await fetch(`${api.base}/api/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(me.billing).toEqual({ customer_linked: true, subscription_status: 'active', grace_until: graceFrom(failedAt) });

    // 3. Past due, then paid: active again clears the grace (and a price change moves the tier).
    clock = new Date(clock.getTime() + 3_600_000);
    await deliver(eventBody('customer.subscription.updated', subscriptionObject('sub_1', 'cus_Ana123', 'past_due'), sec(clock)));
    expect(userRow()).toMatchObject({ tier: 'analyst', subscriptionStatus: 'past_due', graceUntil: graceFrom(failedAt) });
    clock = new Date(clock.getTime() + 3_600_000);
    await deliver(eventBody('customer.subscription.updated', subscriptionObject('sub_1', 'cus_Ana123', 'active', 'price_desk_m'), sec(clock)));
    expect(userRow()).toMatchObject({ tier: 'desk', subscriptionStatus: 'active', graceUntil: null });
    expect(subRow()).toMatchObject({ tier: 'desk', priceId: 'price_desk_m', graceUntil: null });
    // The old grace's time passes: nothing to sweep.
    expect(await sweepExpiredGraces(temp.store, new Date(Date.parse(graceFrom(failedAt)) + 1))).toEqual({ downgraded: 0, subscriptions: 0 });

    // 4. Deleted (smart retries exhausted or cancelled): grace 48 h, tier kept until then.
    clock = new Date(clock.getTime() + 86_400_000);
    const deletedAt = sec(clock);
    await deliver(eventBody('customer.subscription.deleted', subscriptionObject('sub_1', 'cus_Ana123', 'canceled', 'price_desk_m'), deletedAt));
    const grace = graceFrom(deletedAt);
    expect(userRow()).toMatchObject({ tier: 'desk', subscriptionStatus: 'canceled', graceUntil: grace });
    expect(subRow()).toMatchObject({ tier: 'desk', status: 'canceled', graceUntil: grace });

    // 5. The sweep: one millisecond early changes nothing; at expiry both records become free; again: nothing.
    expect(await sweepExpiredGraces(temp.store, new Date(Date.parse(grace) - 1))).toEqual({ downgraded: 0, subscriptions: 0 });
    expect(userRow().tier).toBe('desk');
    expect(await sweepExpiredGraces(temp.store, new Date(grace))).toEqual({ downgraded: 1, subscriptions: 1 });
    expect(userRow()).toMatchObject({ tier: 'free', graceUntil: null, subscriptionStatus: 'canceled' });
    expect(subRow()).toMatchObject({ tier: 'free', graceUntil: null, status: 'canceled' });
    expect(await sweepExpiredGraces(temp.store, new Date(grace))).toEqual({ downgraded: 0, subscriptions: 0 });
    expect((await resolveBearer(temp.store, `Bearer ${token}`)).tier).toBe('free');
    // The other user was never touched.
    expect(userRow('bo@example.test')).toMatchObject({ tier: 'analyst', graceUntil: null, subscriptionStatus: null });
  });

  it('a payment failure whose grace runs out without recovery ends in free too', async () => {
    await deliver(eventBody('customer.subscription.created', subscriptionObject('sub_1', 'cus_Ana123', 'active'), sec(clock)));
    const at = sec(clock) + 10;
    await deliver(eventBody('invoice.payment_failed', invoiceObject('cus_Ana123', 'sub_1'), at));
    expect(await sweepExpiredGraces(temp.store, new Date(Date.parse(graceFrom(at)) + 1000))).toEqual({ downgraded: 1, subscriptions: 1 });
    expect(userRow().tier).toBe('free');
    // Recovery later (paid after all): active again restores the tier from the price.
    await deliver(eventBody('customer.subscription.updated', subscriptionObject('sub_1', 'cus_Ana123', 'active'), at + 3 * 86_400));
    expect(userRow()).toMatchObject({ tier: 'analyst', graceUntil: null });
  });

  it('a price the map does not know grants nothing', async () => {
    await deliver(eventBody('customer.subscription.created', subscriptionObject('sub_1', 'cus_Ana123', 'active', 'price_unknown'), sec(clock)));
    expect(userRow()).toMatchObject({ tier: 'free', subscriptionStatus: 'active' });
    expect(subRow()).toMatchObject({ tier: null, priceId: 'price_unknown' });
  });
});

describe('idempotency and ordering', () => {
  it('a replayed event id changes nothing, even after newer events', async () => {
    const created = eventBody('customer.subscription.created', subscriptionObject('sub_1', 'cus_Ana123', 'active'), sec(clock), 'evt_replayed');
    expect((await deliver(created)).json['outcome']).toBe('applied');
    const before = tables();
    const again = await deliver(created);
    expect(again.status).toBe(200);
    expect(again.json['outcome']).toBe('duplicate');
    expect(tables()).toEqual(before);
    // Cancelled later; the replayed creation (same id) cannot bring the subscription back.
    await deliver(eventBody('customer.subscription.deleted', subscriptionObject('sub_1', 'cus_Ana123', 'canceled'), sec(clock) + 100));
    const afterDelete = tables();
    expect((await deliver(created)).json['outcome']).toBe('duplicate');
    expect(tables()).toEqual(afterDelete);
    expect(temp.store.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_replayed')).all()).toHaveLength(1);
  });

  it('concurrent deliveries of one event apply it once', async () => {
    const body = eventBody('customer.subscription.created', subscriptionObject('sub_1', 'cus_Ana123', 'active'), sec(clock), 'evt_burst');
    const results = await Promise.all(Array.from({ length: 8 }, () => deliver(body)));
    expect(results.map((r) => r.json['outcome']).sort()).toEqual(['applied', ...Array(7).fill('duplicate')]);
  });

  it('an older event (by event.created) never overwrites a newer state, whatever the arrival order', async () => {
    const t = sec(clock);
    await deliver(eventBody('customer.subscription.updated', subscriptionObject('sub_1', 'cus_Ana123', 'active', 'price_desk_m'), t + 20));
    const newer = tables();
    for (const body of [
      eventBody('customer.subscription.updated', subscriptionObject('sub_1', 'cus_Ana123', 'past_due', 'price_analyst_m'), t + 10),
      eventBody('invoice.payment_failed', invoiceObject('cus_Ana123', 'sub_1'), t + 15),
      eventBody('customer.subscription.deleted', subscriptionObject('sub_1', 'cus_Ana123', 'canceled'), t + 19),
    ]) {
      const r = await deliver(body);
      expect(r.status).toBe(200);
      expect(r.json['outcome']).toBe('stale');
    }
    const after = tables();
    expect(after.users).toEqual(newer.users);
    expect(after.subscriptions).toEqual(newer.subscriptions);
    expect(userRow()).toMatchObject({ tier: 'desk', graceUntil: null });
  });

  it('a failure seen before any subscription event still makes an older subscription event stale', async () => {
    temp.store.sqlite.prepare("update users set tier = 'analyst' where email = 'ana@example.test'").run();
    const t = sec(clock);
    await deliver(eventBody('invoice.payment_failed', invoiceObject('cus_Ana123', 'sub_9'), t + 50));
    expect(userRow()).toMatchObject({ tier: 'analyst', graceUntil: graceFrom(t + 50) });
    expect((await deliver(eventBody('customer.subscription.updated', subscriptionObject('sub_9', 'cus_Ana123', 'active'), t + 40))).json['outcome']).toBe('stale');
    expect(userRow().graceUntil).toBe(graceFrom(t + 50));
  });
});

describe('what is acknowledged and ignored', () => {
  it('unknown customer, unknown event type, unreadable object: 200, recorded, nothing else changed', async () => {
    const before = tables();
    const cases = [
      eventBody('customer.subscription.created', subscriptionObject('sub_x', 'cus_Nobody', 'active', 'price_desk_m'), sec(clock)),
      eventBody('invoice.payment_failed', invoiceObject('cus_Nobody', 'sub_x'), sec(clock)),
      eventBody('charge.refunded', { id: 'ch_1', object: 'charge', customer: 'cus_Ana123' }, sec(clock)),
      eventBody('customer.subscription.updated', { id: 'sub_1', object: 'subscription', customer: 'cus_Ana123' }, sec(clock)),
      eventBody('invoice.payment_failed', { id: 'in_1', object: 'invoice', customer: 'cus_Ana123', parent: null }, sec(clock)),
    ];
    const outcomes: string[] = [];
    for (const body of cases) {
      const r = await deliver(body);
      expect(r.status).toBe(200);
      outcomes.push(r.json['outcome']);
    }
    expect(outcomes).toEqual(['ignored', 'ignored', 'ignored', 'ignored', 'ignored']);
    const after = tables();
    expect(after.users).toEqual(before.users);
    expect(after.subscriptions).toEqual(before.subscriptions);
    expect(after.events.map((e) => e.outcome)).toEqual([
      'ignored: no user is linked to customer cus_Nobody',
      'ignored: no user is linked to customer cus_Nobody',
      'ignored: event type charge.refunded is not handled',
      'ignored: subscription object not readable',
      'ignored: the invoice is not for a subscription',
    ]);
  });

  it('a subscription id that belongs to another user is not moved over', async () => {
    await deliver(eventBody('customer.subscription.created', subscriptionObject('sub_1', 'cus_Ana123', 'active'), sec(clock)));
    await linkCustomer(temp.store, 'bo@example.test', 'cus_Bo456');
    const before = tables();
    const r = await deliver(eventBody('customer.subscription.deleted', subscriptionObject('sub_1', 'cus_Bo456', 'canceled'), sec(clock) + 5));
    expect(r.json['outcome']).toBe('ignored');
    expect(tables().users).toEqual(before.users);
    expect(tables().subscriptions).toEqual(before.subscriptions);
  });

  it('linking: one customer per user, a clear conflict otherwise', async () => {
    await expect(linkCustomer(temp.store, 'bo@example.test', 'cus_Ana123')).rejects.toThrow(/already linked to ana@example.test/);
    await expect(linkCustomer(temp.store, 'bo@example.test', 'acct_123')).rejects.toThrow(/expected a Stripe customer id/);
    expect(await linkCustomer(temp.store, 'ana@example.test', 'cus_Ana999')).toEqual({ email: 'ana@example.test', customerId: 'cus_Ana999', previous: 'cus_Ana123' });
  });
});
