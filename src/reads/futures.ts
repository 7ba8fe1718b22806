import { bestFutures, withPreviousPrices, type FuturesMarket } from '../domain/futures.js';
import { easternDate } from '../domain/time.js';
import { creditCost, fetchOutrights, FUTURES_KEYS, type BookSelection, type CreditHeaders } from '../feeds/odds-api/index.js';
import type { Store } from '../store/db.js';
import { kvGet, kvSet } from '../store/repo/kv.js';
import { CONTEXT_CACHE, freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, type ContextDeps } from '../feeds/context.js';

/**
 * Futures (spec: Futures; Behavior rule 8): Odds API outrights for mlb, nba, wnba, only when
 * FUTURES_ENABLED. One outrights call per sport per 12-hour TTL, outside the daily snapshot credit
 * budget but written to the futures credit log (`odds-api:futures-credits:<ET date>` in kv_cache).
 * The previous prices live inside the stored value, so a move survives restarts.
 */

export const FUTURES_SPORTS = ['mlb', 'nba', 'wnba'] as const;
export type FuturesSport = (typeof FUTURES_SPORTS)[number];

export interface FuturesValue {
  sport: FuturesSport;
  /** The newest book update in the answer (the provider's own stamp); the fetch time when books give none. */
  updatedAt: string;
  markets: FuturesMarket[];
}

export type FuturesView =
  | ({ sport: FuturesSport; available: true; updatedAt: string; markets: FuturesMarket[] } & Freshness)
  | { sport: FuturesSport; available: false; reason: string };

/** What the futures calls of an ET day cost (replayed calls cost nothing and are not logged). */
export interface FuturesCreditLog {
  date: string;
  calls: number;
  /** x-requests-last when the provider sent it, else the documented estimate (creditCost). */
  credits: number;
  /** The provider's x-requests-remaining after the latest call, when sent. */
  remaining: number | null;
  entries: Array<{ at: string; sport: FuturesSport; key: string; credits: number }>;
}

export const futuresCreditKey = (date: string) => `odds-api:futures-credits:${date}`;

export function readFuturesCredits(store: Store, date: string, now: Date): FuturesCreditLog | null {
  return kvGet<FuturesCreditLog>(store.db, futuresCreditKey(date), now);
}

function logCredits(store: Store, now: Date, sport: FuturesSport, key: string, cost: number, headers: CreditHeaders | null): void {
  const date = easternDate(now);
  const log = readFuturesCredits(store, date, now) ?? { date, calls: 0, credits: 0, remaining: null, entries: [] };
  const credits = headers?.last ?? cost;
  log.calls += 1;
  log.credits += credits;
  log.remaining = headers?.remaining ?? log.remaining;
  log.entries.push({ at: now.toISOString(), sport, key, credits });
  kvSet(store.db, futuresCreditKey(date), log, now, 8 * 86_400);
}

function booksOf(deps: ContextDeps): BookSelection {
  const c = deps.config;
  return c.ALLOWED_BOOKS ? { bookmakers: c.ALLOWED_BOOKS } : { regions: c.ODDS_API_REGIONS.split(',').map((r) => r.trim()).filter(Boolean) };
}

export async function readFutures(deps: ContextDeps, sport: FuturesSport, options: { refresh?: boolean } = {}): Promise<FuturesView> {
  if (!deps.config.FUTURES_ENABLED) return { sport, available: false, reason: 'futures are off: set FUTURES_ENABLED=1 to read them (one outrights call per sport per 12 hours)' };
  const key = FUTURES_KEYS[sport];
  if (key === null) return { sport, available: false, reason: `The Odds API lists no ${sport.toUpperCase()} championship futures key (absent from both recorded sports lists), so none is asked for` };
  const transport = deps.providers.odds;
  if (transport === null) return { sport, available: false, reason: `no futures source: ${deps.providers.oddsMissing ?? 'no Odds API transport'}` };
  const books = booksOf(deps);
  const read = await deps.cache.read<FuturesValue>(contextKey(deps.providers, 'futures', sport), CONTEXT_CACHE.futures, deps.now, {
    ...(options.refresh ? { refresh: true } : {}),
    load: async (previous) => {
      const log = loadLog(deps.log);
      const res = await fetchOutrights(transport, key, {
        books,
        log,
        ...(deps.providers.oddsApiKey ? { apiKey: deps.providers.oddsApiKey } : {}),
        ...(deps.providers.oddsBase ? { base: deps.providers.oddsBase } : {}),
      });
      if (deps.providers.source === 'live' && (res.error === null || res.credits !== null)) {
        logCredits(deps.store, deps.now, sport, key, creditCost({ endpoint: 'odds', markets: ['outrights'], books }), res.credits);
      }
      if (res.error !== null) return { ok: false, reason: `odds-api outrights ${key}: ${res.error}` };
      const markets = bestFutures(res.boards, deps.config.ALLOWED_BOOKS);
      if (markets.length === 0 || markets.every((m) => m.selections.length === 0)) return { ok: false, reason: `odds-api outrights ${key}: no priced selection in the answer` };
      const stamps = res.boards.map((b) => b.lastUpdate).filter((s): s is string => s !== null && !Number.isNaN(Date.parse(s)));
      const updatedAt = stamps.length > 0 ? new Date(Math.max(...stamps.map((s) => Date.parse(s)))).toISOString().replace('.000Z', 'Z') : deps.now.toISOString();
      return { ok: true, value: { sport, updatedAt, markets: withPreviousPrices(markets, previous?.value.markets ?? null) } };
    },
  });
  if (!read.ok) return { sport, available: false, reason: read.reason };
  return { sport, available: true, updatedAt: read.value.updatedAt, markets: read.value.markets, ...freshnessOf(read) };
}
