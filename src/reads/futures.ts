import { bestFutures, withPreviousPrices, type FuturesMarket } from '../domain/futures.js';
import { creditCost, fetchOutrights, FUTURES_KEYS } from '../feeds/odds-api/index.js';
import { logFuturesCredits } from '../store/repo/odds-credits.js';
import { CONTEXT_CACHE, freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, replayTracking, requireUpstream, wallTime, type ContextDeps } from '../feeds/context.js';
import { publicReason } from '../feeds/public-reason.js';
import { bookSelection } from '../feeds/factory.js';

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

/** The futures credit log lives with the other Odds API credit books (store/repo/odds-credits.ts). */
export { futuresCreditKey, readFuturesCredits, type FuturesCreditLog } from '../store/repo/odds-credits.js';


export async function readFutures(deps: ContextDeps, sport: FuturesSport, options: { refresh?: boolean } = {}): Promise<FuturesView> {
  if (!deps.config.FUTURES_ENABLED) return { sport, available: false, reason: 'futures are off: set FUTURES_ENABLED=1 to read them (one outrights call per sport per 12 hours)' };
  const key = FUTURES_KEYS[sport];
  if (key === null) return { sport, available: false, reason: `The Odds API lists no ${sport.toUpperCase()} championship futures key (absent from both recorded sports lists), so none is asked for` };
  requireUpstream(deps, 'futures');
  const transport = deps.providers.odds;
  if (transport === null) return { sport, available: false, reason: `no futures source: ${deps.providers.oddsMissing ?? 'no Odds API transport'}` };
  const books = bookSelection(deps.config);
  const read = await deps.cache.read<FuturesValue>(contextKey(deps.providers, 'futures', sport), CONTEXT_CACHE.futures, deps.now, {
    ...replayTracking(deps),
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
        const cost = creditCost({ endpoint: 'odds', markets: ['outrights'], books });
        await logFuturesCredits(deps.store, wallTime(deps), { sport, key, credits: res.credits?.last ?? cost, remaining: res.credits?.remaining ?? null });
      }
      if (res.error !== null) return { ok: false, reason: `odds-api outrights ${key}: ${publicReason(res.error)}` };
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
