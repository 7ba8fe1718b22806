import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { linkCustomer } from '../../src/accounts/billing.js';
import { setStripeApiBase } from '../../src/publish/stripe.js';
import { createUser } from '../../src/accounts/users.js';
import { tempStore } from '../helpers/replay-store.js';
import { quiet, startServer, type Running } from './_harness.js';

/**
 * POST /api/payments/portal against a loopback server standing in for the Stripe API (the SDK
 * pointed at it): the request the SDK sends is checked (method, path, form body, bearer key) and
 * answered with the billing_portal.session object from Stripe's API reference.
 */

const KEY = 'sk_test_51PortalKeyForLoopbackOnly';
const RETURN_URL = 'https://propgrade.example/account';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let stripe: Server;
let seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let temp: ReturnType<typeof tempStore>;
let api: Running;
let linked: string;
let unlinked: string;

/** Stripe's documented response of POST /v1/billing_portal/sessions (API reference, "Create a portal session"). */
function sessionObject(customer: string, returnUrl: string) {
  return {
    id: 'bps_1MrSjzLkdIwHu7ixex0IvU9b',
    object: 'billing_portal.session',
    configuration: 'bpc_1MAhNDLkdIwHu7ixckACO1Jq',
    created: 1680210639,
    customer,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: returnUrl,
    url: 'https://billing.stripe.com/p/session/test_YWNjdF8xTTJKVGtMa2RJd0h1N2l4LF9OY2lBYjJXcHY4a2NPck96UjBEbFVYRnU5bjlwVUF50100BUtQs3bl',
  };
}

beforeAll(async () => {
  stripe = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_loopback' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => stripe.listen(0, '127.0.0.1', resolve));
  setStripeApiBase(`http://127.0.0.1:${(stripe.address() as AddressInfo).port}`);
});
afterAll(async () => {
  setStripeApiBase(null);
  await new Promise<void>((resolve) => stripe.close(() => resolve()));
});

beforeEach(async () => {
  seen = [];
  temp = tempStore();
  linked = (await createUser(temp.store, { email: 'ana@example.test', tier: 'analyst' }, new Date('2025-10-01T00:00:00Z'))).token;
  unlinked = (await createUser(temp.store, { email: 'bo@example.test', tier: 'free' }, new Date('2025-10-01T00:00:00Z'))).token;
  await linkCustomer(temp.store, 'ana@example.test', 'cus_NciAYcXfLnqBoz');
  api = await startServer({ store: temp.store, config: loadConfig({ STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: 'whsec_x', BILLING_RETURN_URL: RETURN_URL }), now: () => new Date('2026-03-02T15:00:00Z'), log: quiet });
});
afterEach(async () => {
  await api.close();
  temp.cleanup();
});

const portal = async (token: string | null, base = api.base) => {
  const res = await fetch(`${base}/api/payments/portal`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
};

describe('POST /api/payments/portal', () => {
  it('sends Stripe the documented request and answers the session url', async () => {
    answer = { status: 200, body: sessionObject('cus_NciAYcXfLnqBoz', RETURN_URL) };
    const r = await portal(linked);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ url: sessionObject('', '').url });
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/billing_portal/sessions');
    expect(req.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.headers['stripe-version']).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({ customer: 'cus_NciAYcXfLnqBoz', return_url: RETURN_URL });
  });

  it('no customer linked: 409 with a clear envelope, and Stripe is never called', async () => {
    const r = await portal(unlinked);
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ error: { code: 'CONFLICT', message: expect.stringContaining('no Stripe customer is linked'), details: { reason: 'no_customer' } } });
    expect(seen).toEqual([]);
  });

  it('no token: 401 and Stripe is never called', async () => {
    expect((await portal(null)).status).toBe(401);
    expect((await portal('pg_not_a_token')).status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('Stripe refusing (no such customer) is a 502 UPSTREAM naming its error type and code, never a crash', async () => {
    answer = { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: "No such customer: 'cus_NciAYcXfLnqBoz'" } } };
    const r = await portal(linked);
    expect(r.status).toBe(502);
    expect(r.json).toEqual({ error: { code: 'UPSTREAM', message: 'Stripe did not create the billing portal session', details: { stripe_error: 'invalid_request_error', stripe_code: 'resource_missing', stripe_status: 400 } } });
  });

  it('Stripe answering without a url is a 502, not a crash', async () => {
    answer = { status: 200, body: { id: 'bps_1', object: 'billing_portal.session' } };
    const r = await portal(linked);
    expect(r.status).toBe(502);
    expect(r.json['error']['message']).toBe('Stripe answered without a billing portal session url');
  });

  it('Stripe not configured: 503 NOT_CONFIGURED, for a missing secret key or return url', async () => {
    for (const env of [{ BILLING_RETURN_URL: RETURN_URL }, { STRIPE_SECRET_KEY: KEY }]) {
      const other = await startServer({ store: temp.store, config: loadConfig(env), now: () => new Date('2026-03-02T15:00:00Z'), log: quiet });
      const r = await portal(linked, other.base);
      await other.close();
      expect(r.status).toBe(503);
      expect(r.json['error']['code']).toBe('NOT_CONFIGURED');
    }
    expect(seen).toEqual([]);
  });
});
