// Type only: the SDK (over 200 modules) loads when a Stripe call is made, not on every snapshot run's grace sweep.
import type Stripe from 'stripe';
import { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * Stripe through its official SDK: the one place that builds a client, calls the API and checks
 * webhook signatures. Accounts see the small StripeBilling interface; tests point the SDK at a
 * loopback stand-in with setStripeApiBase.
 */

/** Where the SDK sends API calls; null = api.stripe.com. Tests and stripe-mock point it at a loopback server. */
let apiBase: { host: string; port: number; protocol: 'http' | 'https' } | null = null;

/** Points the SDK at another API base (e.g. `http://127.0.0.1:12111` for stripe-mock); null restores api.stripe.com. */
export function setStripeApiBase(base: string | null): void {
  if (base === null) {
    apiBase = null;
    return;
  }
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  apiBase = { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

async function sdk(): Promise<typeof Stripe> {
  return (await import('stripe')).default;
}

/** A Stripe client for one call: one retry on network errors, a 10 s timeout (wall clock), no telemetry headers. */
export async function stripeClient(secretKey: string): Promise<Stripe> {
  const StripeSdk = await sdk();
  return new StripeSdk(secretKey, { maxNetworkRetries: 1, timeout: 10_000, telemetry: false, ...(apiBase ?? {}) });
}

/** What accounts ask of Stripe. */
export interface StripeBilling {
  /**
   * A billing-portal session for the customer, returning to `returnUrl`: the URL to send the user
   * to. Stripe failing, refusing or answering without a url: AppError UPSTREAM, with Stripe's
   * error type and code only.
   */
  portalSession(customer: string, returnUrl: string): Promise<{ url: string }>;
}

export type StripeConnect = (secretKey: string) => StripeBilling;

const portalSessionSchema = z.looseObject({ object: z.literal('billing_portal.session'), url: z.url() });

/** StripeBilling over the SDK (`client` builds it; stripeClient unless a caller brings its own). */
export function connectStripe(secretKey: string, client: (secretKey: string) => Stripe | Promise<Stripe> = stripeClient): StripeBilling {
  return {
    async portalSession(customer, returnUrl) {
      let session: unknown;
      try {
        session = await (await client(secretKey)).billingPortal.sessions.create({ customer, return_url: returnUrl });
      } catch (error) {
        const e = error as { rawType?: unknown; type?: unknown; code?: unknown; statusCode?: unknown };
        const type = typeof e.rawType === 'string' ? e.rawType : typeof e.type === 'string' ? e.type : 'unknown';
        throw new AppError('UPSTREAM', 'Stripe did not create the billing portal session', {
          // No `cause`: h3 would carry the cause instead of this error, and answer 500.
          details: { stripeError: type, ...(typeof e.code === 'string' ? { stripeCode: e.code } : {}), ...(typeof e.statusCode === 'number' ? { stripeStatus: e.statusCode } : {}) },
        });
      }
      const parsed = portalSessionSchema.safeParse(session);
      if (!parsed.success) throw new AppError('UPSTREAM', 'Stripe answered without a billing portal session url');
      return { url: parsed.data.url };
    },
  };
}

/**
 * Checks a webhook body against its Stripe-Signature header (HMAC-SHA256 with the webhook secret,
 * timestamp within `toleranceSeconds` of `nowMs`, the wall clock) and answers the event it signs,
 * unread. A missing, forged or stale signature, or a body that is not an event: `ok: false` and why.
 */
export async function verifyStripeSignature(
  raw: string | Buffer,
  signature: string,
  secret: string,
  toleranceSeconds: number,
  nowMs: number,
): Promise<{ ok: true; event: unknown } | { ok: false; reason: string }> {
  const StripeSdk = await sdk();
  try {
    return { ok: true, event: StripeSdk.webhooks.constructEvent(raw, signature, secret, toleranceSeconds, undefined, nowMs) };
  } catch (error) {
    return { ok: false, reason: error instanceof StripeSdk.errors.StripeSignatureVerificationError ? error.message : 'the body is not a Stripe event' };
  }
}
