import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Env } from '../../src/config.js';
import { checkFounderCode, FOUNDER_COUNT_KEY, founderCount } from '../../src/accounts/founders.js';
import { createUser } from '../../src/accounts/users.js';
import { kvGet } from '../../src/store/repo/kv.js';
import { users } from '../../src/store/schema.js';
import { tempStore } from '../helpers/replay-store.js';
import { quiet, startServer, type Running } from './_harness.js';
import { eq } from 'drizzle-orm';

/**
 * Founder pricing (issue 15): codes from FOUNDER_CODES valid through FOUNDER_CODE_EXPIRY, read at
 * each use against the request clock; the public founder count (founder and active), cached 5
 * minutes, `{ available: false }` when billing is unconfigured or the store fails, 0 shown as 0.
 */

const BILLING = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
let temp: ReturnType<typeof tempStore>;
let clock: Date;
let servers: Running[] = [];

async function serve(env: Record<string, string>): Promise<Running> {
  const s = await startServer({ store: temp.store, config: loadConfig(env), now: () => clock, wallClock: () => clock, log: quiet });
  servers.push(s);
  return s;
}

beforeEach(() => {
  temp = tempStore();
  clock = new Date('2026-12-31T23:59:59Z');
});
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
  temp.cleanup();
});

async function post(api: Running, path: string, token: string | null, body: unknown) {
  const res = await fetch(`${api.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe('founder codes', () => {
  it('redeem: unknown refused with its reason, known accepted (case and spaces ignored), again is a no-op', async () => {
    const api = await serve({ FOUNDER_CODES: 'FOUNDERS26,EARLYBIRD' });
    const { token } = await createUser(temp.store, { email: 'ana@example.test', tier: 'analyst' }, clock);
    const unknown = await post(api, '/api/founders/redeem', token, { code: 'NOPE' });
    expect(unknown).toEqual({ status: 400, json: { error: { code: 'BAD_INPUT', message: 'unknown founder code', details: { reason: 'unknown_code' } } } });
    const ok = await post(api, '/api/founders/redeem', token, { code: '  founders26 ' });
    expect(ok).toEqual({ status: 200, json: { founder_pricing: true, code: 'FOUNDERS26', already: false } });
    expect((await post(api, '/api/founders/redeem', token, { code: 'FOUNDERS26' })).json).toEqual({ founder_pricing: true, code: 'FOUNDERS26', already: true });
    const other = await post(api, '/api/founders/redeem', token, { code: 'EARLYBIRD' });
    expect(other.status).toBe(409);
    expect(other.json['error']['details']).toEqual({ reason: 'already_founder' });
    expect(temp.store.db.select({ f: users.founderPricing, c: users.founderCode }).from(users).where(eq(users.email, 'ana@example.test')).get()).toEqual({ f: true, c: 'FOUNDERS26' });
    expect((await post(api, '/api/founders/redeem', null, { code: 'FOUNDERS26' })).status).toBe(401);
    expect((await post(api, '/api/founders/redeem', token, { code: 'FOUNDERS26', extra: 1 })).status).toBe(400);
  });

  it('the expiry is read at each request: valid through the last second of FOUNDER_CODE_EXPIRY (UTC), 410 after', async () => {
    const api = await serve({ FOUNDER_CODES: 'FOUNDERS26' }); // default expiry 2026-12-31
    const a = (await createUser(temp.store, { email: 'a@example.test', tier: 'free' }, clock)).token;
    const b = (await createUser(temp.store, { email: 'b@example.test', tier: 'free' }, clock)).token;
    expect((await post(api, '/api/founders/redeem', a, { code: 'FOUNDERS26' })).status).toBe(200);
    clock = new Date('2027-01-01T00:00:00Z');
    const late = await post(api, '/api/founders/redeem', b, { code: 'FOUNDERS26' });
    expect(late).toEqual({ status: 410, json: { error: { code: 'EXPIRED', message: 'founder codes expired at the end of 2026-12-31 (UTC)', details: { reason: 'expired', expired_at: '2027-01-01T00:00:00.000Z' } } } });
    // An unknown code stays "unknown" after the expiry: the answer never confirms a code.
    expect((await post(api, '/api/founders/redeem', b, { code: 'GUESS' })).json['error']['details']).toEqual({ reason: 'unknown_code' });
    expect(temp.store.db.select({ f: users.founderPricing }).from(users).where(eq(users.email, 'b@example.test')).get()).toEqual({ f: false });
  });

  it('no FOUNDER_CODES: 503 NOT_CONFIGURED', async () => {
    const api = await serve({});
    const { token } = await createUser(temp.store, { email: 'ana@example.test', tier: 'free' }, clock);
    const r = await post(api, '/api/founders/redeem', token, { code: 'ANY' });
    expect(r.status).toBe(503);
    expect(r.json['error']['code']).toBe('NOT_CONFIGURED');
  });

  it('checkFounderCode uses the configured expiry', () => {
    const config = loadConfig({ FOUNDER_CODES: 'X1', FOUNDER_CODE_EXPIRY: '2026-06-30' }) as Env;
    expect(checkFounderCode(config, 'x1', new Date('2026-06-30T23:59:59.999Z'))).toBe('X1');
    expect(() => checkFounderCode(config, 'x1', new Date('2026-07-01T00:00:00Z'))).toThrow(/expired at the end of 2026-06-30/);
  });
});

describe('GET /api/founders/count', () => {
  async function founder(email: string, status: string | null, founderPricing = true) {
    await createUser(temp.store, { email, tier: 'analyst' }, clock);
    temp.store.db.update(users).set({ founderPricing, subscriptionStatus: status }).where(eq(users.email, email)).run();
  }

  it('a real 0 is 0; counts founders whose subscription is active; cached 5 minutes', async () => {
    const api = await serve(BILLING);
    const count = async () => {
      const res = await fetch(`${api.base}/api/founders/count`);
      return { cache: res.headers.get('cache-control'), json: (await res.json()) as Record<string, unknown> };
    };
    const zero = await count();
    expect(zero.json).toEqual({ available: true, count: 0, as_of: clock.toISOString() });
    expect(zero.cache).toBe('public, max-age=300');
    await founder('a@example.test', 'active');
    await founder('b@example.test', 'past_due');
    await founder('c@example.test', 'canceled');
    await founder('d@example.test', 'active', false);
    // Within 5 minutes the cached 0 stands.
    clock = new Date(clock.getTime() + 299_000);
    expect((await count()).json['count']).toBe(0);
    clock = new Date(clock.getTime() + 1_000);
    const fresh = await count();
    expect(fresh.json).toEqual({ available: true, count: 1, as_of: clock.toISOString() });
    expect(await kvGet(temp.store, FOUNDER_COUNT_KEY, clock)).toEqual({ count: 1, as_of: clock.toISOString() });
  });

  it('billing unconfigured (either Stripe key missing): { available: false } and nothing else', async () => {
    await founder('a@example.test', 'active');
    for (const env of [{}, { STRIPE_SECRET_KEY: 'sk_test_x' }, { STRIPE_WEBHOOK_SECRET: 'whsec_x' }] as Array<Record<string, string>>) {
      const api = await serve(env);
      expect(await (await fetch(`${api.base}/api/founders/count`)).json()).toEqual({ available: false });
    }
  });

  it('the store failing: { available: false }, never a 5xx', async () => {
    const config = loadConfig(BILLING);
    temp.store.sqlite.prepare('drop table kv_cache').run();
    expect(await founderCount(temp.store, config, clock)).toEqual({ available: false });
    const api = await serve(BILLING);
    const res = await fetch(`${api.base}/api/founders/count`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ available: false });
  });
});
