import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { tierSchema, type Tier } from '../domain/tiers.js';
import { AppError, describeZodIssues } from '../errors.js';
import type { CheckedFounderCode } from './founders.js';
import type { Store } from '../store/db.js';
import { immediate } from '../store/repo/tx.js';
import {
  insertUserWithToken,
  revokeTokensOf,
  updateUser,
  userByEmail,
  userById,
  userByTokenHash,
  usersBillingColumns,
  usersWithTokenCounts,
} from '../store/repo/users.js';

/**
 * Users and their API tokens. A token is shown once, at creation; only its sha256 is stored,
 * so a leaked database does not leak usable tokens. Resolving a bearer token never throws:
 * every failure resolves to the free tier (fail closed).
 */

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email('expected an email address'));

export const newUserSchema = z.object({ email: emailSchema, tier: tierSchema });
export type NewUser = z.input<typeof newUserSchema>;

/** Tokens carry a prefix so they are recognisable in logs and secret scanners. */
const TOKEN_PREFIX = 'pg_';
const TOKEN_PATTERN = /^pg_[A-Za-z0-9_-]{43}$/;

function parseOrBadInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError('BAD_INPUT', describeZodIssues(parsed.error.issues));
  return parsed.data;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function newToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export interface UserRecord {
  id: number;
  email: string;
  tier: Tier;
  createdAt: string;
}

export interface UserListing extends UserRecord {
  activeTokens: number;
  revokedTokens: number;
}

/** A listing with the account fields `users list` shows: founder pricing and the Stripe side. */
export interface AccountListing extends UserListing {
  founderPricing: boolean;
  stripeCustomerId: string | null;
  subscriptionStatus: string | null;
  graceUntil: string | null;
}

/**
 * Creates the user and its first token; the returned token is the only copy there will be. A
 * founder code (checked by checkFounderCode against FOUNDER_CODES and the clock) gives founder
 * pricing from the start.
 */
export async function createUser(store: Store, input: NewUser, now: Date, opts: { founderCode?: CheckedFounderCode } = {}): Promise<{ user: UserRecord & { founderPricing: boolean }; token: string }> {
  const { email, tier } = parseOrBadInput(newUserSchema, input);
  const token = newToken();
  const founder = opts.founderCode ? { founderPricing: true, founderCode: opts.founderCode } : {};
  // Check and insert under one lock, so two concurrent creations of one email end in CONFLICT, not a constraint error.
  const user = await immediate(store, async (tx) => {
    if (await userByEmail(tx, email)) throw new AppError('CONFLICT', `a user with email ${email} already exists`);
    return insertUserWithToken(tx, { email, tier, createdAt: now.toISOString(), ...founder }, hashToken(token));
  });
  return { user: { id: user.id, email: user.email, tier: user.tier, createdAt: user.createdAt, founderPricing: user.founderPricing }, token };
}

export async function listUsers(store: Store): Promise<UserListing[]> {
  return usersWithTokenCounts(store);
}

export async function listAccounts(store: Store): Promise<AccountListing[]> {
  const billing = new Map((await usersBillingColumns(store)).map((b) => [b.id, b]));
  return (await listUsers(store)).map((u) => {
    const b = billing.get(u.id);
    return { ...u, founderPricing: b?.founderPricing ?? false, stripeCustomerId: b?.stripeCustomerId ?? null, subscriptionStatus: b?.subscriptionStatus ?? null, graceUntil: b?.graceUntil ?? null };
  });
}

export async function findUser(store: Store, email: string): Promise<UserRecord> {
  const wanted = parseOrBadInput(emailSchema, email);
  const row = await userByEmail(store, wanted);
  if (!row) throw new AppError('NOT_FOUND', `no user with email ${wanted}`);
  return { id: row.id, email: row.email, tier: row.tier, createdAt: row.createdAt };
}

/** Revokes every active token of the user; the user row (and its ledger) stays. */
export async function revokeUser(store: Store, email: string, now: Date): Promise<{ user: UserRecord; revoked: number }> {
  const user = await findUser(store, email);
  return { user, revoked: await revokeTokensOf(store, user.id, now.toISOString()) };
}

/**
 * The operator sets the tier: it holds from now on, so a billing grace running on the user is
 * cancelled (the sweep would otherwise end the tier just set in free). The user's subscription
 * records keep theirs: they describe Stripe's side, and the next subscription event still applies.
 */
export async function setUserTier(store: Store, email: string, tier: Tier): Promise<{ user: UserRecord; previousTier: Tier; cancelledGrace: string | null }> {
  const user = await findUser(store, email);
  const next = parseOrBadInput(tierSchema, tier);
  return immediate(store, async (tx) => {
    const before = await userById(tx, user.id);
    await updateUser(tx, user.id, { tier: next, graceUntil: null });
    return { user: { ...user, tier: next }, previousTier: user.tier, cancelledGrace: before?.graceUntil ?? null };
  });
}

/** The user behind a live token, with what the onboarding rule needs (createdAt, onboardingComplete). */
export interface CallerUser {
  id: number;
  email: string;
  createdAt: string;
  onboardingComplete: boolean;
}

/** Who is calling. `authenticated` is true only for a live token of an existing user. */
export interface Caller {
  tier: Tier;
  user: CallerUser | null;
  authenticated: boolean;
  /** True when the request carried an Authorization header at all (valid or not). */
  presentedToken: boolean;
}

export const ANONYMOUS: Caller = Object.freeze({ tier: 'free', user: null, authenticated: false, presentedToken: false }) as Caller;

/**
 * Resolves an Authorization header value to a caller. No header: free. A malformed header, an
 * unknown or revoked token, a missing user, an unknown tier value or a database error: free,
 * never an exception.
 */
export async function resolveBearer(store: Store, authorization: string | undefined | null): Promise<Caller> {
  if (authorization === undefined || authorization === null || authorization === '') return ANONYMOUS;
  const failed: Caller = { tier: 'free', user: null, authenticated: false, presentedToken: true };
  try {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = match?.[1];
    if (!token || !TOKEN_PATTERN.test(token)) return failed;
    const row = await userByTokenHash(store, hashToken(token));
    if (!row) return failed;
    const tier = tierSchema.safeParse(row.tier);
    if (!tier.success) return failed;
    const user: CallerUser = { id: row.id, email: row.email, createdAt: row.createdAt, onboardingComplete: row.onboardingComplete === true };
    return { tier: tier.data, user, authenticated: true, presentedToken: true };
  } catch {
    return failed;
  }
}
