import { z } from 'zod';
import { KNOWN_BOOKS } from '../../accounts/preferences.js';
import { sportSchema } from '../../domain/sports.js';
import { tierSchema } from '../../domain/tiers.js';
import { int, num, wireInstant, wireSchema } from './registry.js';

/** The accounts and billing answers: who calls, their preferences, Stripe and founder pricing. */

const onboarding = z.union([z.object({ required: z.literal(true), redirect: z.string(), reason: z.literal('new_user') }), z.object({ required: z.literal(false), reason: z.enum(['complete', 'exempt']) })]);

export const meSchema = wireSchema(
  'Me',
  z.object({
    email: z.email(),
    tier: tierSchema,
    created_at: wireInstant(),
    entitlements: z.object({ model_price: z.boolean(), parlay_leg_cap: int(), scan_reads_per_day: int().nullable().describe('null: unlimited'), slip_parses_per_day: int() }),
    onboarding,
    founder_pricing: z.boolean(),
    billing: z.object({ customer_linked: z.boolean(), subscription_status: z.string().nullable(), grace_until: wireInstant().nullable() }),
  }),
);

export const preferencesSchema = wireSchema(
  'Preferences',
  z.object({
    sports: z.array(sportSchema),
    books: z.array(z.enum(KNOWN_BOOKS)),
    bankroll_limit: num().describe('US dollars; null when not set'),
    onboarding_complete: z.boolean(),
    updated_at: wireInstant().nullable(),
    onboarding,
  }),
);

export const webhookAnswerSchema = wireSchema('WebhookAnswer', z.object({ received: z.literal(true), event_id: z.string(), outcome: z.enum(['applied', 'stale', 'ignored', 'duplicate']) }));
export const portalAnswerSchema = wireSchema('PortalSession', z.object({ url: z.url() }));
export const founderCountSchema = wireSchema('FounderCount', z.union([z.object({ available: z.literal(true), count: int(), as_of: wireInstant() }), z.object({ available: z.literal(false) })]));
export const founderRedeemSchema = wireSchema('FounderRedeem', z.object({ founder_pricing: z.literal(true), code: z.string(), already: z.boolean() }));
