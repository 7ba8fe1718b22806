import { getRequestHeader } from 'h3';
import { z } from 'zod';
import { entitlementsOf } from '../../domain/tiers.js';
import { AppError } from '../../errors.js';
import { billingStatus, createPortalSession, handleStripeEvent, HANDLED_EVENT_TYPES, type VerifiedEvent } from '../../accounts/billing.js';
import { checkFounderCode, founderCodeSchema, founderCount, FOUNDER_COUNT_TTL_SECONDS, redeemFounderCode } from '../../accounts/founders.js';
import { getPreferences, onboardingFor, preferencesUpdateSchema, updatePreferences } from '../../accounts/preferences.js';
import { verifyStripeSignature } from '../../publish/stripe.js';
import type { ServerDeps } from '../context.js';
import { readCappedBody } from '../input.js';
import { defineRoute, type Route } from '../route.js';
import { founderCountSchema, founderRedeemSchema, meSchema, portalAnswerSchema, preferencesSchema, webhookAnswerSchema } from '../wire/answers-accounts.js';

/** Stripe's own default: a signature older than 5 minutes (by the wall clock, never the data clock) is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Stripe events are a few KB; the cap only keeps a flood from being read. */
export const WEBHOOK_BODY_CAP_BYTES = 512 * 1024;

export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

/** The message of every refused signature (forged, altered, stale, dated ahead, not an event). */
export const WEBHOOK_SIGNATURE_REFUSED = `Stripe signature verification failed: the Stripe-Signature header does not sign this body with STRIPE_WEBHOOK_SECRET within ${WEBHOOK_TOLERANCE_SECONDS} s of the server clock`;

/** For /openapi.json only: the handler reads the raw bytes itself, and the signature decides. */
const stripeEventEnvelopeSchema = z.looseObject({
  id: z.string().max(255).describe('evt_...'),
  object: z.literal('event'),
  type: z.string().max(255).describe(`handled: ${HANDLED_EVENT_TYPES.join(', ')}; any other type is acknowledged and ignored`),
  created: z.number().int().describe('Unix seconds; orders events'),
  data: z.looseObject({ object: z.looseObject({}) }),
});

const redeemSchema = z.strictObject({ code: founderCodeSchema });

/** Account routes (issue 15): me, preferences, Stripe webhooks, billing portal, founder pricing. */
export function accountRoutes(deps: ServerDeps): Route[] {
  const webhook = defineRoute({
    method: 'POST',
    path: STRIPE_WEBHOOK_PATH,
    tag: 'billing',
    access: 'public',
    response: webhookAnswerSchema,
    summary: 'Stripe webhook endpoint (signed events only)',
    description: `Stripe calls this; nobody else can. The raw body is verified against the Stripe-Signature header with STRIPE_WEBHOOK_SECRET (HMAC-SHA256, timestamp within ${WEBHOOK_TOLERANCE_SECONDS} s of the wall clock in either direction, also on a store served as of a replay) before anything is read: a missing, forged, stale or future-dated signature, or a body altered after signing, is a 400 with one fixed message and changes nothing. No webhook secret configured: 503 NOT_CONFIGURED (Stripe retries). Handled: invoice.payment_failed (tier stays paid, 48 h grace), customer.subscription.created/updated (tier from STRIPE_PRICE_TIERS on active or trialing, status stored, grace cleared), customer.subscription.deleted (48 h grace, then free after the sweep). Idempotent by event id; an event older than the stored state is stale. Unknown event type or customer: 200, recorded in stripe_events, nothing else changes. Body cap ${WEBHOOK_BODY_CAP_BYTES} bytes. Answer: { received: true, outcome: applied | stale | ignored | duplicate }.`,
    errors: [503],
    handle: async ({ event }) => {
      const secret = deps.config.STRIPE_WEBHOOK_SECRET;
      if (!secret) {
        event.node.req.resume();
        throw new AppError('NOT_CONFIGURED', 'Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET)');
      }
      const raw = await readCappedBody(event, WEBHOOK_BODY_CAP_BYTES);
      const signature = getRequestHeader(event, 'stripe-signature');
      if (!signature) throw new AppError('BAD_INPUT', 'missing Stripe-Signature header');
      const verified = await verifyStripeSignature(raw, signature, secret, WEBHOOK_TOLERANCE_SECONDS, deps.wallNow().getTime());
      // One fixed answer for every refusal: which check failed helps only a forger.
      if (!verified.ok) throw new AppError('BAD_INPUT', WEBHOOK_SIGNATURE_REFUSED);
      const envelope = z.looseObject({ id: z.string().min(1).max(255), type: z.string().min(1).max(255), created: z.number().int().nonnegative(), data: z.looseObject({ object: z.unknown() }) }).safeParse(verified.event);
      if (!envelope.success) throw new AppError('BAD_INPUT', 'signed body is not a Stripe event (id, type, created, data)');
      const result = await handleStripeEvent(deps.store, envelope.data as VerifiedEvent, { priceTiers: deps.config.STRIPE_PRICE_TIERS, now: deps.wallNow() });
      return { received: true, eventId: result.eventId, outcome: result.outcome };
    },
  });

  return [
    defineRoute({
      method: 'GET',
      path: '/api/me',
      tag: 'accounts',
      access: 'auth',
      response: meSchema,
      summary: 'Who the token belongs to: email, tier, entitlements, onboarding, billing state',
      description:
        'Auth required (401 without a valid token). `onboarding` is `{ required: true, redirect: "/onboarding", reason: "new_user" }` for a user created on or after ONBOARDING_CUTOFF who has not set onboarding_complete, else `{ required: false, reason: "complete" | "exempt" }`; every auth route also sends the header `x-onboarding-required: /onboarding` in that case. `entitlements`: model_price, parlay_leg_cap, scan_reads_per_day (null = unlimited), slip_parses_per_day. `billing`: customer_linked, subscription_status, grace_until (the tier becomes free when it passes).',
      errors: [401],
      handle: async ({ caller }) => {
        const me = caller.user!;
        return {
          email: me.email,
          tier: caller.tier,
          createdAt: me.createdAt,
          entitlements: entitlementsOf(caller.tier, deps.limits.scanReadsPerDay),
          onboarding: onboardingFor(me, deps.config.ONBOARDING_CUTOFF),
          ...(await billingStatus(deps.store, me.id)),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/preferences',
      tag: 'accounts',
      access: 'auth',
      response: preferencesSchema,
      summary: "The caller's preferences",
      description:
        'Auth required (401 without a valid token). `{ sports, books, bankroll_limit, onboarding_complete, updated_at, onboarding }`. Never saved: empty lists, bankroll_limit null, onboarding_complete false, updated_at null.',
      errors: [401],
      handle: async ({ caller }) => {
        const prefs = await getPreferences(deps.store, caller.user!.id);
        return { ...prefs, onboarding: onboardingFor({ createdAt: caller.user!.createdAt, onboardingComplete: prefs.onboardingComplete }, deps.config.ONBOARDING_CUTOFF) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/preferences',
      tag: 'accounts',
      access: 'auth',
      response: preferencesSchema,
      summary: "Update the caller's preferences (partial merge)",
      description:
        'Auth required (401 without a valid token). Every field optional; fields not sent keep their value. sports: subset of mlb, nba, wnba, soccer, mma; books: Odds API book keys (betmgm, betonlineag, betrivers, betus, bovada, draftkings, fanatics, fanduel, hardrockbet, mybookieag, prizepicks, williamhill_us); values are trimmed, lower-cased and de-duplicated, at most 50 per list. bankroll_limit: US dollars, 0.01 to 1000000, kept to the cent, null clears it. onboarding_complete: true ends the onboarding redirect. An unknown sport, book or field, or a wrong type: 400 naming it, nothing saved. Answers the merged preferences, as GET.',
      body: preferencesUpdateSchema,
      errors: [401],
      handle: async ({ caller, body }) => {
        const prefs = await updatePreferences(deps.store, caller.user!.id, body, deps.wallNow());
        return { ...prefs, onboarding: onboardingFor({ createdAt: caller.user!.createdAt, onboardingComplete: prefs.onboardingComplete }, deps.config.ONBOARDING_CUTOFF) };
      },
    }),
    { ...webhook, body: stripeEventEnvelopeSchema },
    defineRoute({
      method: 'POST',
      path: '/api/payments/portal',
      tag: 'billing',
      access: 'auth',
      response: portalAnswerSchema,
      summary: 'A Stripe billing-portal session for the caller',
      description:
        'Auth required (401 without a valid token). Creates a Stripe billing-portal session for the Stripe customer linked to the caller, returning to BILLING_RETURN_URL, and answers `{ url }` to redirect to (short-lived; create one per visit). No customer linked: 409 CONFLICT (details.reason no_customer). STRIPE_SECRET_KEY or BILLING_RETURN_URL not set: 503 NOT_CONFIGURED. Stripe failing or refusing: 502 UPSTREAM with Stripe\'s error type and code.',
      errors: [401, 409, 502, 503],
      handle: ({ caller }) => createPortalSession(deps.store, deps.config, caller.user!.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/founders/count',
      tag: 'billing',
      access: 'public',
      response: founderCountSchema,
      maxAge: FOUNDER_COUNT_TTL_SECONDS,
      summary: 'How many founders hold an active subscription',
      description:
        'Public. `{ available: true, count, as_of }`: users with founder pricing whose subscription status is active, cached 5 minutes (as_of is when it was counted). Billing not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET both needed) or the store failing: `{ available: false }` and nothing else. A real 0 is 0.',
      handle: () => founderCount(deps.store, deps.config, deps.wallNow()),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/founders/redeem',
      tag: 'billing',
      access: 'auth',
      response: founderRedeemSchema,
      summary: 'Redeem a founder pricing code',
      description:
        'Auth required (401 without a valid token). Body `{ code }` (case and surrounding spaces ignored). Valid through the end of FOUNDER_CODE_EXPIRY (UTC), checked at each request. Unknown code: 400 (details.reason unknown_code); past the expiry: 410 EXPIRED (reason expired); FOUNDER_CODES not set: 503 NOT_CONFIGURED; already a founder by another code: 409. Answers `{ founder_pricing: true, code, already }`; redeeming the same code again changes nothing (already: true).',
      body: redeemSchema,
      errors: [401, 409, 410, 503],
      handle: ({ caller, body }) => redeemFounderCode(deps.store, caller.user!.id, checkFounderCode(deps.config, body.code, deps.wallNow())),
    }),
  ];
}
