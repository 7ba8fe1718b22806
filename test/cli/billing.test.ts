import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleStripeEvent } from '../../src/accounts/billing.js';
import { openStore } from '../../src/store/db.js';
import { subscriptions, users } from '../../src/store/schema.js';
import { runCli } from '../helpers/cli.js';

/**
 * The account commands end to end, in-process on a temp store: users add --founder-code,
 * users link-customer, users prefs, billing sweep (honours --now, idempotent), billing show and
 * billing events.
 */

let dir: string;
let db: string;
const ENV = { FOUNDER_CODES: 'FOUNDERS26', STRIPE_PRICE_TIERS: 'price_a:analyst,price_d:desk' };
const cli = (...argv: string[]) => runCli(['--db', db, ...argv], ENV);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pg-cli-billing-'));
  db = join(dir, 'pg.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('users add --founder-code', () => {
  it('a valid code gives founder pricing; an unknown or expired one creates nothing and says why', async () => {
    const ok = await cli('--json', '--now', '2026-05-01T00:00:00Z', 'users', 'add', '--email', 'ana@example.test', '--founder-code', 'founders26');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ email: 'ana@example.test', tier: 'free', founder_pricing: true });
    const unknown = await cli('--now', '2026-05-01T00:00:00Z', 'users', 'add', '--email', 'bo@example.test', '--founder-code', 'NOPE');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown founder code');
    const expired = await cli('--now', '2027-01-01T00:00:00Z', 'users', 'add', '--email', 'bo@example.test', '--founder-code', 'FOUNDERS26');
    expect(expired.code).toBe(1);
    expect(expired.stderr).toContain('founder codes expired at the end of 2026-12-31 (UTC)');
    const list = JSON.parse((await cli('--json', 'users', 'list')).stdout) as Array<{ email: string; founder_pricing: boolean }>;
    expect(list.map((u) => [u.email, u.founder_pricing])).toEqual([['ana@example.test', true]]);
  });
});

describe('users link-customer and users prefs', () => {
  it('links a customer (a clear conflict for one held by another user) and shows preferences with the onboarding state', async () => {
    await cli('--now', '2025-11-05T17:05:00Z', 'users', 'add', '--email', 'ana@example.test', '--tier', 'analyst');
    await cli('--now', '2026-02-01T00:00:00Z', 'users', 'add', '--email', 'new@example.test');
    const link = await cli('--json', 'users', 'link-customer', 'ana@example.test', 'cus_Ana123');
    expect(link.code, link.stderr).toBe(0);
    expect(JSON.parse(link.stdout)).toEqual({ email: 'ana@example.test', stripe_customer_id: 'cus_Ana123', previous: null });
    const taken = await cli('users', 'link-customer', 'new@example.test', 'cus_Ana123');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('customer cus_Ana123 is already linked to ana@example.test');
    const bad = await cli('users', 'link-customer', 'new@example.test', 'sub_123');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected a Stripe customer id');

    const prefs = await cli('--json', 'users', 'prefs', 'new@example.test');
    expect(JSON.parse(prefs.stdout)).toEqual({ email: 'new@example.test', sports: [], books: [], bankroll_limit: null, onboarding_complete: false, updated_at: null, onboarding: { required: true, redirect: '/onboarding', reason: 'new_user' } });
    const human = await cli('users', 'prefs', 'ana@example.test');
    expect(human.stdout).toContain('onboarding:          exempt (created before ONBOARDING_CUTOFF 2026-01-01)');
    expect((await cli('users', 'prefs', 'nobody@example.test')).code).toBe(1);
  });
});

describe('billing sweep, show, events', () => {
  it('the sweep honours --now, downgrades in both records at expiry, and is idempotent', async () => {
    await cli('--now', '2025-11-05T17:05:00Z', 'users', 'add', '--email', 'ana@example.test', '--tier', 'analyst');
    await cli('users', 'link-customer', 'ana@example.test', 'cus_Ana123');
    const store = openStore(db);
    const created = Date.parse('2026-03-01T12:00:00Z') / 1000;
    const sub = { id: 'sub_1', object: 'subscription', customer: 'cus_Ana123', status: 'canceled', items: { object: 'list', data: [{ id: 'si_1', price: { id: 'price_a' } }] } };
    expect((await handleStripeEvent(store, { id: 'evt_1', type: 'customer.subscription.deleted', created, data: { object: sub } }, { priceTiers: { price_a: 'analyst' }, now: new Date('2026-03-01T12:00:05Z') })).outcome).toBe('applied');
    await store.close();

    const early = await cli('--json', '--now', '2026-03-03T11:59:59Z', 'billing', 'sweep');
    expect(JSON.parse(early.stdout)).toEqual({ downgraded: 0, subscriptions: 0, now: '2026-03-03T11:59:59.000Z' });
    const show = JSON.parse((await cli('--json', 'billing', 'show', 'ana@example.test')).stdout);
    expect(show).toMatchObject({ email: 'ana@example.test', tier: 'analyst', customer_id: 'cus_Ana123', subscription_status: 'canceled', grace_until: '2026-03-03T12:00:00.000Z' });
    expect(show.subscriptions).toEqual([{ id: 'sub_1', status: 'canceled', price_id: 'price_a', tier: 'analyst', grace_until: '2026-03-03T12:00:00.000Z', event_created: '2026-03-01T12:00:00.000Z', updated_at: '2026-03-01T12:00:05.000Z' }]);

    const due = await cli('--now', '2026-03-03T12:00:00Z', 'billing', 'sweep');
    expect(due.code, due.stderr).toBe(0);
    expect(due.stdout).toBe('Ended expired graces at 2026-03-03T12:00:00.000Z: 1 user now free, 1 subscription record set to free.\n');
    const again = await cli('--now', '2026-03-03T12:00:00Z', 'billing', 'sweep');
    expect(again.stdout).toBe('No billing grace had expired at 2026-03-03T12:00:00.000Z.\n');
    const check = openStore(db);
    expect(check.db.select({ tier: users.tier, grace: users.graceUntil }).from(users).where(eq(users.email, 'ana@example.test')).get()).toEqual({ tier: 'free', grace: null });
    expect(check.db.select({ tier: subscriptions.tier, grace: subscriptions.graceUntil }).from(subscriptions).get()).toEqual({ tier: 'free', grace: null });
    await check.close();

    const events = JSON.parse((await cli('--json', 'billing', 'events')).stdout) as Array<{ id: string; outcome: string }>;
    expect(events).toEqual([{ id: 'evt_1', type: 'customer.subscription.deleted', created: '2026-03-01T12:00:00.000Z', received_at: '2026-03-01T12:00:05.000Z', outcome: expect.stringMatching(/^applied: ana@example.test: subscription canceled; tier analyst until 2026-03-03T12:00:00.000Z, then free$/) }]);
    expect((await cli('billing', 'events', '--limit', '0')).code).toBe(2);
  });
});
