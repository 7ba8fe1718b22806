import { bigint, boolean, integer, json, real, text } from './column.js';
import { index, table } from './table.js';

/** Users, their tokens, preferences, subscriptions, handled Stripe events and metered usage. */

export const tiers = ['free', 'analyst', 'desk'] as const;

export const users = table('users', {
  id: integer('id').identity(),
  email: text('email').notNull().unique(),
  tier: text('tier', { enum: tiers }).notNull(),
  createdAt: text('created_at').notNull(),
  founderPricing: boolean('founder_pricing').notNull().default(false),
  subscriptionStatus: text('subscription_status'),
  graceUntil: text('grace_until'),
  /** The Stripe customer (cus_...) this user pays as; null until linked. */
  stripeCustomerId: text('stripe_customer_id').unique(),
  /** The founder code the user redeemed, when any (its expiry is checked at use). */
  founderCode: text('founder_code'),
});

/**
 * A user's Stripe subscription as the webhooks last described it. `eventCreated` is the created
 * time of the event that wrote this state, so an older event never overwrites a newer one.
 */
export const subscriptions = table(
  'subscriptions',
  {
    id: integer('id').identity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeSubscriptionId: text('stripe_subscription_id').notNull().unique(),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    status: text('status').notNull(),
    priceId: text('price_id'),
    /** The tier the price maps to (STRIPE_PRICE_TIERS); null for a price the map does not know. */
    tier: text('tier', { enum: tiers }),
    graceUntil: text('grace_until'),
    eventCreated: bigint('event_created').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('subscriptions_user').on(t.userId)],
);

/** Stripe events already handled, by id: a replayed event changes nothing. */
export const stripeEvents = table('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  created: bigint('created').notNull(),
  receivedAt: text('received_at').notNull(),
  /** What handling did: applied, ignored (with why), stale (an older event than the stored state). */
  outcome: text('outcome').notNull(),
});

export const apiTokens = table(
  'api_tokens',
  {
    id: integer('id').identity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 of the token; the token itself is shown once and never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('api_tokens_user').on(t.userId)],
);

export const preferences = table('preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sports: json('sports').$type<string[]>(),
  books: json('books').$type<string[]>(),
  bankrollLimit: real('bankroll_limit'),
  onboardingComplete: boolean('onboarding_complete').notNull().default(false),
  updatedAt: text('updated_at').notNull(),
});

/** Metered actions (scan reads, slip parses, subscribes) for rolling-window limits. */
export const usageEvents = table(
  'usage_events',
  {
    id: integer('id').identity(),
    subject: text('subject').notNull(),
    kind: text('kind').notNull(),
    at: text('at').notNull(),
  },
  (t) => [index('usage_events_subject').on(t.subject, t.kind, t.at)],
);
