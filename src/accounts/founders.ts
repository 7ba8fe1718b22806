import { z } from 'zod';
import type { Env } from '../config.js';
import { AppError, badInput } from '../errors.js';
import type { Store } from '../store/db.js';
import { kvGetAsOf, kvSet } from '../store/repo/kv.js';
import { immediate } from '../store/repo/tx.js';
import { countActiveFounders, updateUser, userById } from '../store/repo/users.js';
import { billingConfigured } from './billing.js';

/**
 * Founder pricing (docs/accounts.md): a user redeems one of FOUNDER_CODES before
 * FOUNDER_CODE_EXPIRY and is flagged `founder_pricing`. The public founder count is the number of
 * founders whose subscription is active, cached 5 minutes.
 */

const CODE_MAX_CHARS = 64;
export const founderCodeSchema = z.string().trim().min(1, 'the founder code is empty').max(CODE_MAX_CHARS);

/** A code checked against the configuration and the clock; only checkFounderCode makes one. */
export type CheckedFounderCode = string & { readonly __checked: 'founder-code' };

/** The last instant a code is valid: the end of FOUNDER_CODE_EXPIRY's day, UTC. Read at each use. */
export function founderCodeDeadline(expiry: string): Date {
  return new Date(Date.parse(`${expiry}T00:00:00Z`) + 24 * 60 * 60 * 1000);
}

/**
 * Checks a typed code: none configured (NOT_CONFIGURED), not one of FOUNDER_CODES (BAD_INPUT,
 * reason unknown_code; matching ignores case and surrounding spaces), or past the end of
 * FOUNDER_CODE_EXPIRY at `now` (EXPIRED). An unknown code is reported as unknown even after the
 * expiry, so the answer never confirms a code.
 */
export function checkFounderCode(config: Pick<Env, 'FOUNDER_CODES' | 'FOUNDER_CODE_EXPIRY'>, typed: string, now: Date): CheckedFounderCode {
  const parsed = founderCodeSchema.safeParse(typed);
  if (!parsed.success) throw badInput(`founder code: ${parsed.error.issues[0]?.message ?? 'invalid'}`, { reason: 'unknown_code' });
  const codes = config.FOUNDER_CODES ?? [];
  if (codes.length === 0) throw new AppError('NOT_CONFIGURED', 'founder pricing is not offered on this server (FOUNDER_CODES is not set)', { details: { reason: 'not_configured' } });
  const match = codes.find((c) => c.toLowerCase() === parsed.data.toLowerCase());
  if (!match) throw new AppError('BAD_INPUT', 'unknown founder code', { details: { reason: 'unknown_code' } });
  const deadline = founderCodeDeadline(config.FOUNDER_CODE_EXPIRY);
  if (now.getTime() >= deadline.getTime()) {
    throw new AppError('EXPIRED', `founder codes expired at the end of ${config.FOUNDER_CODE_EXPIRY} (UTC)`, { details: { reason: 'expired', expiredAt: deadline.toISOString() } });
  }
  return match as CheckedFounderCode;
}

/**
 * Gives the user founder pricing with a checked code. Redeeming the code the user already holds
 * changes nothing (`already: true`); a founder cannot switch to another code (CONFLICT).
 */
export async function redeemFounderCode(store: Store, userId: number, code: CheckedFounderCode): Promise<{ founderPricing: true; code: string; already: boolean }> {
  return immediate(store, async (tx) => {
    const user = await userById(tx, userId);
    if (!user) throw new AppError('NOT_FOUND', 'no such user');
    if (user.founderPricing) {
      if (user.founderCode !== null && user.founderCode.toLowerCase() !== code.toLowerCase()) {
        throw new AppError('CONFLICT', 'this account already has founder pricing from another code', { details: { reason: 'already_founder' } });
      }
      return { founderPricing: true as const, code: user.founderCode ?? code, already: true };
    }
    await updateUser(tx, userId, { founderPricing: true, founderCode: code });
    return { founderPricing: true as const, code, already: false };
  });
}

export const FOUNDER_COUNT_KEY = 'founders:count';
export const FOUNDER_COUNT_TTL_SECONDS = 5 * 60;

export type FounderCount = { available: false } | { available: true; count: number; asOf: string };

/**
 * GET /api/founders/count: founders (founder_pricing) whose subscription status is `active`,
 * cached 5 minutes in kv_cache. Billing unconfigured (billingConfigured) or any store failure:
 * `{ available: false }`, never an error. A real 0 is 0.
 */
export async function founderCount(store: Store, config: Pick<Env, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET'>, now: Date): Promise<FounderCount> {
  if (!billingConfigured(config)) return { available: false };
  try {
    const cached = await kvGetAsOf<{ count: number; as_of: string }>(store, FOUNDER_COUNT_KEY, now);
    if (cached && Number.isInteger(cached.count) && cached.count >= 0 && typeof cached.as_of === 'string') return { available: true, count: cached.count, asOf: cached.as_of };
    const n = await countActiveFounders(store);
    if (n === null) return { available: false };
    const asOf = now.toISOString();
    await kvSet(store, FOUNDER_COUNT_KEY, { count: n, as_of: asOf }, now, FOUNDER_COUNT_TTL_SECONDS);
    return { available: true, count: n, asOf };
  } catch {
    return { available: false };
  }
}
