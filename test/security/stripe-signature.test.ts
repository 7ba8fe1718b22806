import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { linkCustomer } from '../../src/accounts/billing.js';
import { createUser } from '../../src/accounts/users.js';
import { stripeEvents, subscriptions, users } from '../../src/store/schema.js';
import { tempStore } from '../helpers/replay-store.js';
import { quiet, startServer, type Running } from '../server/_harness.js';

/**
 * Signatures in both directions (issue 32 item 5). Stripe's SDK refuses a signature older than the
 * tolerance but accepts one dated any time ahead: before this change a signature at t = now + 1 day
 * answered 200 and applied the event. Now a timestamp more than 300 s from the WALL clock either way
 * is a 400, and every refusal answers the same envelope: no SDK text, no docs URL, nothing that
 * tells a forger which check failed. The wall clock is injected; nothing sleeps.
 */

const SECRET = 'whsec_security_4d1f7a0c9e2b';
const WALL = new Date('2026-11-27T20:00:00Z');
const sec = (d: Date) => Math.floor(d.getTime() / 1000);

let temp: ReturnType<typeof tempStore>;
let api: Running;
let seq = 0;

beforeAll(async () => {
  temp = tempStore();
  await createUser(temp.store, { email: 'ana@example.test', tier: 'free' }, new Date('2026-10-01T00:00:00Z'));
  await linkCustomer(temp.store, 'ana@example.test', 'cus_Ana123');
  const config = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_51Hsec', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_PRICE_TIERS: 'price_desk_m:desk' });
  api = await startServer({ store: temp.store, config, now: () => new Date('2025-11-05T17:05:00Z'), wallClock: () => WALL, log: quiet });
});
afterAll(async () => {
  await api?.close();
  temp?.cleanup();
});

/** A subscription event that would make Ana a desk user if it were accepted. */
function upgrade(): string {
  const id = `sub_${++seq}`;
  const object = {
    id,
    object: 'subscription',
    customer: 'cus_Ana123',
    status: 'active',
    created: sec(WALL) - 86_400,
    items: { object: 'list', data: [{ id: `si_${id}`, object: 'subscription_item', price: { id: 'price_desk_m', object: 'price' } }] },
  };
  return JSON.stringify({ id: `evt_sec_${seq}`, object: 'event', api_version: '2026-10-28.endive', created: sec(WALL), data: { object }, livemode: false, type: 'customer.subscription.created' });
}

async function deliver(body: string, header: string) {
  const res = await fetch(`${api.base}/api/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body });
  return { status: res.status, text: await res.text() };
}
const signed = (body: string, at: number, secret = SECRET) => Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: at });
const tables = () => ({ users: temp.store.db.select().from(users).all(), subscriptions: temp.store.db.select().from(subscriptions).all(), events: temp.store.db.select().from(stripeEvents).all() });

describe('POST /api/webhooks/stripe: the tolerance holds both ways, every refusal says the same', () => {
  it('a signature dated a day ahead is a 400 and changes nothing (it was a 200 that applied the event)', async () => {
    const before = tables();
    const body = upgrade();
    const r = await deliver(body, signed(body, sec(WALL) + 86_400));
    expect(r.status).toBe(400);
    expect(tables()).toEqual(before);
  });

  it('301 s either way is refused; 300 s either way is within the tolerance', async () => {
    for (const offset of [301, -301]) {
      const body = upgrade();
      expect((await deliver(body, signed(body, sec(WALL) + offset))).status, String(offset)).toBe(400);
    }
    for (const offset of [300, -300]) {
      const body = upgrade();
      const r = await deliver(body, signed(body, sec(WALL) + offset));
      expect(r.status, String(offset)).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ received: true, outcome: 'applied' });
    }
  });

  it('forged, altered, stale, ahead, malformed and unsigned-event bodies all answer one fixed envelope', async () => {
    const body = upgrade();
    const now = sec(WALL);
    const attempts = [
      await deliver(body, signed(body, now + 86_400)),
      await deliver(body, signed(body, now - 3_600)),
      await deliver(body, signed(body, now, 'whsec_someone_else')),
      await deliver(body.replace('price_desk_m', 'price_free_m'), signed(body, now)),
      await deliver(body, `t=${now},v1=${'0'.repeat(64)}`),
      await deliver(body, 'garbage'),
      await deliver(body, `v1=${'a'.repeat(64)}`),
      await deliver('not json', signed('not json', now)),
    ];
    for (const a of attempts) expect(a.status).toBe(400);
    // Byte for byte the same answer: which check failed is not told.
    expect(new Set(attempts.map((a) => a.text)).size).toBe(1);
    const envelope = JSON.parse(attempts[0]!.text) as { error: { code: string; message: string; details?: unknown } };
    expect(envelope.error.code).toBe('BAD_INPUT');
    expect(envelope.error.details).toBeUndefined();
    // Nothing of the SDK's text (its messages carry "Timestamp outside the tolerance zone" and a stripe.com docs URL).
    expect(envelope.error.message).not.toMatch(/https?:|stripe\.com|Timestamp outside|No signatures found|github/i);
    expect(envelope.error.message).toContain('300 s');
  });
});
