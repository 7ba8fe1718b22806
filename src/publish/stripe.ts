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

/** Why a webhook signature was refused, as a fixed code (never the SDK's text, which carries a docs URL). */
export type SignatureRefusal = 'mismatch' | 'stale' | 'future' | 'not_event';

/** The `t=` of a Stripe-Signature header, read the way the SDK reads it (the last `t=` wins); null without one. */
function signedAt(signature: string): number | null {
  let t: number | null = null;
  for (const item of signature.split(',')) {
    const [key, value] = item.split('=');
    if (key?.trim() === 't' && value !== undefined && /^\d{1,12}$/.test(value.trim())) t = Number(value.trim());
  }
  return t;
}

/**
 * Checks a webhook body against its Stripe-Signature header (HMAC-SHA256 with the webhook secret,
 * timestamp within `toleranceSeconds` of `nowMs`, the wall clock, in BOTH directions: the SDK only
 * refuses the past, so a timestamp dated ahead is refused here) and answers the event it signs,
 * unread. A missing, forged, stale or future signature, or a body that is not an event: `ok: false`
 * and a fixed reason code.
 */
export async function verifyStripeSignature(
  raw: string | Buffer,
  signature: string,
  secret: string,
  toleranceSeconds: number,
  nowMs: number,
): Promise<{ ok: true; event: unknown } | { ok: false; reason: SignatureRefusal }> {
  const StripeSdk = await sdk();
  let event: unknown;
  try {
    event = StripeSdk.webhooks.constructEvent(raw, signature, secret, toleranceSeconds, undefined, nowMs);
  } catch (error) {
    if (!(error instanceof StripeSdk.errors.StripeSignatureVerificationError)) return { ok: false, reason: 'not_event' };
    // Tolerance 0 skips the SDK's time check: the HMAC alone tells a stale signature from a forged one.
    try {
      StripeSdk.webhooks.constructEvent(raw, signature, secret, 0, undefined, nowMs);
      return { ok: false, reason: 'stale' };
    } catch {
      return { ok: false, reason: 'mismatch' };
    }
  }
  // The HMAC covers `t`, so this is the sender's own claim: more than the tolerance ahead of our clock is refused like a stale one.
  const t = signedAt(signature);
  if (t === null || t > Math.floor(nowMs / 1000) + toleranceSeconds) return { ok: false, reason: 'future' };
  return { ok: true, event };
}
