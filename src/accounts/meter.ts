import type { Store } from '../store/db.js';
import { immediate } from '../store/repo/tx.js';
import { deleteUsage, insertUsage, usageSince } from '../store/repo/usage.js';

/**
 * The metered allowances of an account (scan reads, slip parses) over a rolling 24 hours, counted
 * in usage_events and read on the wall clock the caller passes. Routes reserve, read and release
 * through these; the numbers per tier live in src/domain/tiers.ts.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Metered reads over a rolling 24 hours, from usage_events: the same rows the scan meter reads.
 * `retryAfter` is when the oldest counted read leaves the window.
 */
export async function meteredUsage(store: Store, subject: string, kind: string, now: Date): Promise<{ used: number; oldest: string | null }> {
  return usageSince(store, subject, kind, new Date(now.getTime() - DAY_MS).toISOString());
}

export function retryAfterFor(oldest: string | null, now: Date): number {
  if (oldest === null) return 1;
  return Math.max(1, Math.ceil((new Date(oldest).getTime() + DAY_MS - now.getTime()) / 1000));
}

export async function recordUsage(store: Store, subject: string, kind: string, now: Date): Promise<void> {
  await insertUsage(store, subject, kind, now.toISOString());
}

/**
 * Slip parses per rolling 24 hours by tier (spec: free 1 per day, paid tiers 10 per day). A parse
 * that produced a result is counted, and so is an image the OCR engine tried and failed to decode
 * (it cost the worker); bad input and uploads refused before OCR (oversize, over the pixel budget) are not.
 * The numbers live with the other per-tier limits in src/domain/tiers.ts.
 */
export { SLIP_PARSES_PER_DAY } from '../domain/tiers.js';

export const METER_WINDOW_HOURS = 24;

/**
 * Takes one metered slot if the subject is under `limit`: the count and the insert run in one
 * IMMEDIATE transaction, so concurrent requests (or two server processes on one file) cannot both
 * take the last slot. Returns the usage row's id (release it if the action turns out not to count)
 * or the usage that refused it.
 */
export async function reserveMetered(
  store: Store,
  subject: string,
  kind: string,
  limit: number,
  now: Date,
): Promise<{ ok: true; id: number; used: number } | { ok: false; used: number; oldest: string | null }> {
  return immediate(store, async (tx) => {
    const usage = await meteredUsage(tx, subject, kind, now);
    if (usage.used >= limit) return { ok: false as const, used: usage.used, oldest: usage.oldest };
    return { ok: true as const, id: await insertUsage(tx, subject, kind, now.toISOString()), used: usage.used + 1 };
  });
}

/** Gives a reserved slot back: the action it was taken for did not count (a refused read). */
export async function releaseMetered(store: Store, id: number): Promise<void> {
  await deleteUsage(store, id);
}

/**
 * What a meter shows (GET /api/user/scan-meter): the counted actions in the rolling window that
 * ends at `now`, the limit, where the window starts, and when the oldest counted action leaves it
 * (the next slot to free up; null when nothing is counted). An unlimited tier shows nothing else.
 */
export type MeterReading =
  | { unlimited: true }
  | { unlimited: false; used: number; limit: number; remaining: number; windowHours: number; windowStart: string; nextFreeAt: string | null };

export async function readMeter(store: Store, subject: string, kind: string, limit: number | null, now: Date): Promise<MeterReading> {
  if (limit === null) return { unlimited: true };
  const usage = await meteredUsage(store, subject, kind, now);
  return {
    unlimited: false,
    used: usage.used,
    limit,
    remaining: Math.max(0, limit - usage.used),
    windowHours: METER_WINDOW_HOURS,
    windowStart: new Date(now.getTime() - DAY_MS).toISOString(),
    nextFreeAt: usage.oldest === null ? null : new Date(new Date(usage.oldest).getTime() + DAY_MS).toISOString(),
  };
}
