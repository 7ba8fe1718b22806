import { easternDate } from '../../domain/time.js';
import type { Store } from '../db.js';
import { kvGet, kvSet } from './kv.js';
import { immediate } from './tx.js';

/**
 * The Odds API credit books, one module for every writer (issue 28): the daily count the snapshot
 * runs and the combat odds spend against ODDS_API_DAILY_BUDGET (`odds-api:credits:<ET date>`), and
 * the futures log kept outside that budget (`odds-api:futures-credits:<ET date>`). Both live in
 * kv_cache. Replayed calls cost nothing: callers record live spending only.
 */

/** Days a daily count is kept (a run near midnight ET still finds yesterday's). */
const DAILY_TTL_SECONDS = 3 * 86_400;
/** Days a futures log is kept (a week of 12-hour refreshes). */
const FUTURES_TTL_SECONDS = 8 * 86_400;

export const dailyCreditKey = (date: string) => `odds-api:credits:${date}`;

/** Credits spent on the ET day of `now` by earlier runs. No record means none spent today: a real zero. */
export async function creditsSpentToday(store: Store, now: Date): Promise<number> {
  return (await kvGet<number>(store, dailyCreditKey(easternDate(now)), now)) ?? 0;
}

/**
 * Adds a run's spending to the day's count and returns the new total. Read and write happen in one
 * exclusive transaction (joining the caller's when there is one), so two runs (a cron snapshot and a
 * combat read, in one process or two) cannot lose each other's credits.
 */
export async function addCreditsSpent(store: Store, now: Date, credits: number): Promise<number> {
  return immediate(store, async (tx) => {
    const total = (await creditsSpentToday(tx, now)) + credits;
    await kvSet(tx, dailyCreditKey(easternDate(now)), total, now, DAILY_TTL_SECONDS);
    return total;
  });
}

/** What the futures calls of an ET day cost (replayed calls cost nothing and are not logged). */
export interface FuturesCreditLog {
  date: string;
  calls: number;
  /** x-requests-last when the provider sent it, else the documented estimate (creditCost). */
  credits: number;
  /** The provider's x-requests-remaining after the latest call, when sent. */
  remaining: number | null;
  entries: Array<{ at: string; sport: string; key: string; credits: number }>;
}

export const futuresCreditKey = (date: string) => `odds-api:futures-credits:${date}`;

export async function readFuturesCredits(store: Store, date: string, now: Date): Promise<FuturesCreditLog | null> {
  return kvGet<FuturesCreditLog>(store, futuresCreditKey(date), now);
}

/**
 * One futures call: `credits` is what it cost, `remaining` the provider's quota after it (null when
 * not sent). Read and write in one exclusive transaction, so concurrent calls lose no entry.
 */
export async function logFuturesCredits(store: Store, now: Date, call: { sport: string; key: string; credits: number; remaining: number | null }): Promise<void> {
  await immediate(store, async (tx) => {
    const date = easternDate(now);
    const log = (await readFuturesCredits(tx, date, now)) ?? { date, calls: 0, credits: 0, remaining: null, entries: [] };
    log.calls += 1;
    log.credits += call.credits;
    log.remaining = call.remaining ?? log.remaining;
    log.entries.push({ at: now.toISOString(), sport: call.sport, key: call.key, credits: call.credits });
    await kvSet(tx, futuresCreditKey(date), log, now, FUTURES_TTL_SECONDS);
  });
}
