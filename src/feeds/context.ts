import type { Env } from '../config.js';
import { ContextCache } from '../store/cache.js';
import type { Store } from '../store/db.js';
import { contextProviders, feedLog, type ContextProviders } from './factory.js';
import type { RunLogger } from './sources.js';
import type { FeedLogger } from './transport/log.js';

/**
 * What a context read model (live, news, futures, combat, stats) is handed: the store, the one
 * cache over it (store/cache.ts), the providers the factory built, the read's clock and its log.
 */
/** Everything a context read needs. */
export interface ContextDeps {
  store: Store;
  config: Env;
  cache: ContextCache;
  providers: ContextProviders;
  /** The data clock: what the data says (a replay's time, --now). */
  now: Date;
  /**
   * The wall clock: the Odds API's daily credit budget is money, counted by the real day even when
   * the data clock is pinned. The system clock unless the caller injects one (the server, tests).
   */
  wallNow?: () => Date;
  log: RunLogger;
}

/** The wall-clock time of a context read (see ContextDeps.wallNow). */
export function wallTime(deps: Pick<ContextDeps, 'wallNow'>): Date {
  return deps.wallNow ? deps.wallNow() : new Date();
}

/** The cache key of a context value: the source keeps replayed values apart from live ones. */
export function contextKey(providers: Pick<ContextProviders, 'source'>, ...parts: string[]): string {
  return ['context', providers.source, ...parts].join(':');
}

/**
 * A feed logger for one upstream load that also remembers why the feeds failed, so a hidden
 * state can say it ("not recorded: ...", "HTTP 503") instead of a bare "unavailable".
 */
export function loadLog(log: RunLogger): FeedLogger & { why(fallback: string): string } {
  const reasons: string[] = [];
  return {
    warn(message, detail) {
      log.warn(message);
      const d = detail as { reason?: unknown; status?: unknown } | undefined;
      const reason = typeof d?.reason === 'string' ? d.reason : typeof d?.status === 'number' ? `HTTP ${d.status}` : null;
      reasons.push(reason ? `${message} (${reason})` : message);
    },
    why(fallback) {
      return reasons.length === 0 ? fallback : `${fallback}: ${reasons[0]}`;
    },
  };
}

/** A one-shot reader's context (the CLI views): providers over the run's clock, a fresh cache on the store. */
export function openContextDeps(opts: { store: Store; config: Env; now: Date; replayDir: string | null; recordDir: string | null; log: RunLogger }): ContextDeps & { close(): Promise<void> } {
  const providers = contextProviders(opts.config, { replayDir: opts.replayDir, recordDir: opts.recordDir, now: () => opts.now, log: feedLog(opts.log) });
  return { store: opts.store, config: opts.config, cache: new ContextCache(opts.store), providers, now: opts.now, log: opts.log, close: () => providers.close() };
}
