import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClock } from '../../src/reads/read-clock.js';
import { createUser } from '../../src/accounts/users.js';
import { REPLAY_NOW, quiet, seedStore, startServer, type Running, type Seeded } from './_harness.js';
import { WEBHOOK_SIGNATURE_REFUSED } from '../../src/server/routes/accounts.js';

/**
 * Two clocks on a replayed store (issue 27): the data clock stands at the newest snapshot's
 * recorded time, as `serve` reads it (read-clock.ts); the wall clock is injected and moved by the
 * test, never slept. Limits and signatures follow the wall clock; the data stays as recorded.
 */

const SECRET = 'whsec_clock_test_3c9a1e';
const WALL_START = new Date('2026-11-27T20:00:00Z');
const sec = (d: Date) => Math.floor(d.getTime() / 1000);

let seeded: Seeded;
let api: Running;
let wall: Date;
let dataNow: Date;

beforeAll(async () => {
  seeded = await seedStore({ STRIPE_SECRET_KEY: 'sk_test_51Hclock', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_PRICE_TIERS: 'price_desk_m:desk' });
  wall = WALL_START;
  // What `serve` does without --now: the newest snapshot was replayed, so the data reads as of it.
  const clock = await readClock(seeded.store, null, wall, seeded.config.SNAPSHOT_EXPECTED_INTERVAL);
  expect(clock.source).toBe('replay_snapshot');
  dataNow = clock.now;
  expect(dataNow).toEqual(REPLAY_NOW);
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => dataNow, wallClock: () => wall, log: quiet });
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

describe('stats rate limit on a replayed store', () => {
  it('the 61st read in a minute is a 429; 60 s of wall time later the window opens again (the data clock never moved)', async () => {
    const path = '/api/team/IND';
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1) statuses.push((await fetch(api.base + path)).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await fetch(api.base + path);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    // 45 s later by the wall clock: still shut, and Retry-After counts down with the wall clock.
    wall = new Date(WALL_START.getTime() + 45_000);
    const later = await fetch(api.base + path);
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('15');
    // The window's 60 s have passed on the wall clock: open again, and the data is the same day's.
    wall = new Date(WALL_START.getTime() + 60_000);
    const reopened = await fetch(api.base + path);
    expect(reopened.status).toBe(200);
    expect(dataNow).toEqual(REPLAY_NOW);
  });
});

describe('Stripe webhook on a replayed store', () => {
  function deliver(body: string, signedAt: Date) {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: sec(signedAt) });
    return fetch(`${api.base}/api/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body });
  }
  const eventBody = (id: string, created: number) =>
    JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created, data: { object: { id: 'cus_x', object: 'customer' } }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type: 'customer.updated' });

  it('a signature made an hour ago by the wall clock is refused, even when it matches the data clock', async () => {
    wall = WALL_START;
    const hourAgo = new Date(wall.getTime() - 3_600_000);
    const stale = await deliver(eventBody('evt_stale_1', sec(hourAgo)), hourAgo);
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toBe(WEBHOOK_SIGNATURE_REFUSED);
    // Signed at the replay's recorded time (what the data clock says now): refused as well.
    const atDataClock = await deliver(eventBody('evt_stale_2', sec(dataNow)), dataNow);
    expect(atDataClock.status).toBe(400);
    // Signed now by the wall clock: accepted (an unhandled type is acknowledged, nothing changes).
    const fresh = await deliver(eventBody('evt_fresh_1', sec(wall)), wall);
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toEqual({ received: true, event_id: 'evt_fresh_1', outcome: 'ignored' });
  });
});

describe('account state on a replayed store', () => {
  it('the scan meter and preferences are stamped with the wall clock', async () => {
    wall = WALL_START;
    const { token } = await createUser(seeded.store, { email: 'clock@example.test', tier: 'analyst' }, wall);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const meter = (await (await fetch(`${api.base}/api/user/scan-meter`, { headers: auth })).json()) as { window_start: string };
    expect(meter.window_start).toBe(new Date(wall.getTime() - 24 * 3_600_000).toISOString());
    const prefs = (await (await fetch(`${api.base}/api/preferences`, { method: 'POST', headers: auth, body: JSON.stringify({ sports: ['nba'] }) })).json()) as { updated_at: string };
    expect(prefs.updated_at).toBe(wall.toISOString());
  });
});
