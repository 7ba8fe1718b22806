import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { connectStripe, setStripeApiBase, verifyStripeSignature } from '../../src/publish/stripe.js';

/**
 * src/publish/stripe.ts against a loopback stand-in for the Stripe API (the same documented answer
 * test/server/accounts-portal.test.ts serves) and against bodies signed with Stripe's own test
 * helper. The clock of the signature check is passed in: the wall clock of the caller.
 */

const SECRET = 'whsec_publish_test';
const KEY = 'sk_test_publish';
let stripe: Server;
let answer: { status: number; body: unknown } = { status: 200, body: {} };
const seen: Array<{ url: string; body: string }> = [];

beforeAll(async () => {
  stripe = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', body });
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_loopback' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => stripe.listen(0, '127.0.0.1', resolve));
  setStripeApiBase(`http://127.0.0.1:${(stripe.address() as AddressInfo).port}`);
});
afterAll(async () => {
  setStripeApiBase(null);
  await new Promise<void>((resolve) => stripe.close(() => resolve()));
});

describe('StripeBilling.portalSession', () => {
  it('posts the customer and return url to /v1/billing_portal/sessions and answers the session url', async () => {
    answer = { status: 200, body: { id: 'bps_1', object: 'billing_portal.session', customer: 'cus_A1', return_url: 'https://propgrade.test/account', url: 'https://billing.stripe.com/p/session/test_A1' } };
    seen.length = 0;
    expect(await connectStripe(KEY).portalSession('cus_A1', 'https://propgrade.test/account')).toEqual({ url: 'https://billing.stripe.com/p/session/test_A1' });
    expect(seen.map((s) => s.url)).toEqual(['/v1/billing_portal/sessions']);
    expect(Object.fromEntries(new URLSearchParams(seen[0]!.body))).toEqual({ customer: 'cus_A1', return_url: 'https://propgrade.test/account' });
  });

  it("a refusal is UPSTREAM carrying Stripe's error type, code and status only", async () => {
    answer = { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such customer: 'cus_A1'" } } };
    const error = await connectStripe(KEY).portalSession('cus_A1', 'https://propgrade.test/account').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UPSTREAM');
    expect((error as AppError).details).toEqual({ stripeError: 'invalid_request_error', stripeCode: 'resource_missing', stripeStatus: 400 });
  });
});

describe('verifyStripeSignature', () => {
  const at = new Date('2026-03-02T15:00:00Z');
  const raw = JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.subscription.updated', created: 1772463600, data: { object: {} } });
  const signed = (payload: string, secret = SECRET, t = at) => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(t.getTime() / 1000) });

  it('answers the signed event at a clock within the tolerance', async () => {
    const r = await verifyStripeSignature(Buffer.from(raw), signed(raw), SECRET, 300, at.getTime() + 299_000);
    expect(r).toEqual({ ok: true, event: JSON.parse(raw) });
  });

  it('refuses a forged signature, an altered body and a stale timestamp, with a fixed reason code', async () => {
    const forged = await verifyStripeSignature(raw, signed(raw, 'whsec_other'), SECRET, 300, at.getTime());
    const altered = await verifyStripeSignature(raw.replace('evt_1', 'evt_2'), signed(raw), SECRET, 300, at.getTime());
    const stale = await verifyStripeSignature(raw, signed(raw), SECRET, 300, at.getTime() + 301_000);
    expect(forged).toEqual({ ok: false, reason: 'mismatch' });
    expect(altered).toEqual({ ok: false, reason: 'mismatch' });
    expect(stale).toEqual({ ok: false, reason: 'stale' });
    // A forged signature that is also old is a mismatch: the time is only read off a signature that holds.
    expect(await verifyStripeSignature(raw, signed(raw, 'whsec_other'), SECRET, 300, at.getTime() + 3_600_000)).toEqual({ ok: false, reason: 'mismatch' });
    expect(await verifyStripeSignature('not json', signed('not json'), SECRET, 300, at.getTime())).toEqual({ ok: false, reason: 'not_event' });
  });

  it('refuses a timestamp more than the tolerance AHEAD of the clock (the SDK checks only the past)', async () => {
    const ahead = (seconds: number) => verifyStripeSignature(raw, signed(raw, SECRET, new Date(at.getTime() + seconds * 1000)), SECRET, 300, at.getTime());
    expect(await ahead(86_400)).toEqual({ ok: false, reason: 'future' });
    expect(await ahead(301)).toEqual({ ok: false, reason: 'future' });
    // At the edge, both ways: 300 s ahead or behind is within the tolerance.
    expect((await ahead(300)).ok).toBe(true);
    expect((await ahead(-300)).ok).toBe(true);
    expect(await ahead(-301)).toEqual({ ok: false, reason: 'stale' });
  });
});
