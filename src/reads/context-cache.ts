import type { Env } from '../config.js';
import { createLiveTransport, createRecordTransport, createReplayTransport, readReplayManifest } from '../feeds/transport/index.js';
import type { FeedLogger } from '../feeds/transport/log.js';
import type { Transport } from '../feeds/transport/types.js';
import type { Store } from '../store/db.js';
import { kvGetAsOf, kvSet } from '../store/repo/kv.js';
import type { RunLogger } from '../feeds/sources.js';

/**
 * The one cache of the context routes (live, news, futures, combat; docs/context.md): a TTL per
 * feature, single flight (concurrent readers of one key share one upstream promise) and
 * stale-on-error (an upstream failure serves the last good value with its age, or nothing).
 * Values live in kv_cache, so they survive restarts, and are read as of the caller's clock: a
 * value cached under a later clock is not served under an earlier one (kvGetAsOf).
 */

export interface CacheSpec {
  /** Seconds a value is fresh; after that the next read goes upstream. */
  ttlSeconds: number;
  /** Seconds past its fetch a value may still be served, marked stale, when upstream fails. */
  maxStaleSeconds: number;
}

/** TTLs from the seed's Limits table (live 90 s, news 15 min, futures 12 h) plus propgrade's combat choices. */
export const CONTEXT_CACHE = {
  live: { ttlSeconds: 90, maxStaleSeconds: 12 * 3600 },
  news: { ttlSeconds: 15 * 60, maxStaleSeconds: 3 * 86_400 },
  futures: { ttlSeconds: 12 * 3600, maxStaleSeconds: 7 * 86_400 },
  /** ESPN fight cards: a card changes slowly (bouts added or dropped, results); 15 minutes. */
  combatCards: { ttlSeconds: 15 * 60, maxStaleSeconds: 2 * 86_400 },
  /** Odds API MMA h2h/totals: one call prices every listed bout and costs credits; one hour. */
  combatOdds: { ttlSeconds: 3600, maxStaleSeconds: 2 * 86_400 },
} as const satisfies Record<string, CacheSpec>;

/** What a loader answers: a value, or why upstream had none. Loaders never throw (a throw counts as a failure). */
export type LoadResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A cached read: the value with its fetch time and age, or the reason there is none (the feature's hidden state). */
export type CacheRead<T> =
  | { ok: true; value: T; fetchedAt: string; ageSeconds: number; stale: boolean; staleReason: string | null; fromCache: boolean }
  | { ok: false; reason: string };

interface Stored<T> {
  v: 1;
  fetchedAt: string;
  value: T;
}

export interface CacheReadOptions<T> {
  /** Skip a fresh cached value and go upstream (a failure still falls back to the stale value). */
  refresh?: boolean;
  /** Receives the previous stored value (even an expired one), e.g. futures' previous prices. */
  load: (previous: { value: T; fetchedAt: string } | null) => Promise<LoadResult<T>>;
}

/** After a failed upstream load, readers of that key get the stale value (or the hidden state) for this long without a new call. */
export const FAILURE_BACKOFF_MS = 30_000;

export class ContextCache {
  private readonly inflight = new Map<string, Promise<CacheRead<unknown>>>();
  /** The last failure per key, on the wall clock: a provider that is down is not asked again on every request. */
  private readonly failures = new Map<string, { at: number; reason: string }>();
  /** Upstream loads started, per key (the load test reads it; so can a doctor). */
  readonly loads = new Map<string, number>();

  constructor(
    private readonly store: Store,
    /** Wall clock for the failure back-off (the read clock may be pinned to a replayed day). */
    private readonly wallClock: () => number = Date.now,
  ) {}

  /** The stored value as of `now`; an unreadable cache row counts as none (the read goes upstream). */
  private stored<T>(key: string, now: Date): Stored<T> | null {
    let raw: Stored<T> | null;
    try {
      raw = kvGetAsOf<Stored<T>>(this.store.db, key, now);
    } catch {
      return null;
    }
    return raw !== null && typeof raw === 'object' && raw.v === 1 && typeof raw.fetchedAt === 'string' ? raw : null;
  }

  async read<T>(key: string, spec: CacheSpec, now: Date, options: CacheReadOptions<T>): Promise<CacheRead<T>> {
    const previous = this.stored<T>(key, now);
    const age = previous ? ageSeconds(previous.fetchedAt, now) : null;
    if (previous && age !== null && age < spec.ttlSeconds && !options.refresh) {
      return { ok: true, value: previous.value, fetchedAt: previous.fetchedAt, ageSeconds: age, stale: false, staleReason: null, fromCache: true };
    }
    const running = this.inflight.get(key);
    if (running) return running as Promise<CacheRead<T>>;
    const failed = this.failures.get(key);
    if (failed && this.wallClock() - failed.at < FAILURE_BACKOFF_MS) return this.fallback(previous, spec, now, failed.reason);
    const task = this.load(key, spec, now, previous, options.load);
    this.inflight.set(key, task as Promise<CacheRead<unknown>>);
    try {
      return await task;
    } finally {
      this.inflight.delete(key);
    }
  }

  private async load<T>(key: string, spec: CacheSpec, now: Date, previous: Stored<T> | null, loader: CacheReadOptions<T>['load']): Promise<CacheRead<T>> {
    this.loads.set(key, (this.loads.get(key) ?? 0) + 1);
    let result: LoadResult<T>;
    try {
      result = await loader(previous ? { value: previous.value, fetchedAt: previous.fetchedAt } : null);
    } catch (err) {
      result = { ok: false, reason: `upstream read failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (result.ok) {
      this.failures.delete(key);
      const fetchedAt = now.toISOString();
      // Kept past the TTL (null expiry): the stale fallback and futures' previous prices need it.
      // A store that cannot be written still lets the fresh value through (it is just not cached).
      try {
        kvSet(this.store.db, key, { v: 1, fetchedAt, value: result.value } satisfies Stored<T>, now, null);
      } catch {
        /* not cached this time */
      }
      return { ok: true, value: result.value, fetchedAt, ageSeconds: 0, stale: false, staleReason: null, fromCache: false };
    }
    this.failures.set(key, { at: this.wallClock(), reason: result.reason });
    return this.fallback(previous, spec, now, result.reason);
  }

  /** The last good value marked stale with its age, or the hidden state with the reason. */
  private fallback<T>(previous: Stored<T> | null, spec: CacheSpec, now: Date, reason: string): CacheRead<T> {
    const age = previous ? ageSeconds(previous.fetchedAt, now) : null;
    if (previous && age !== null && age <= spec.maxStaleSeconds) {
      return { ok: true, value: previous.value, fetchedAt: previous.fetchedAt, ageSeconds: age, stale: true, staleReason: reason, fromCache: true };
    }
    return { ok: false, reason };
  }
}

function ageSeconds(fetchedAt: string, now: Date): number | null {
  const ms = now.getTime() - Date.parse(fetchedAt);
  return Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : null;
}

/** The freshness fields every context answer carries (wire: fetched_at, age_seconds, stale, stale_reason). */
export interface Freshness {
  fetchedAt: string;
  ageSeconds: number;
  stale: boolean;
  staleReason?: string;
}

export function freshnessOf(read: Extract<CacheRead<unknown>, { ok: true }>): Freshness {
  return { fetchedAt: read.fetchedAt, ageSeconds: read.ageSeconds, stale: read.stale, ...(read.staleReason ? { staleReason: read.staleReason } : {}) };
}

// ---- where the context routes read from ----

/**
 * The transports behind the context routes. ESPN and the MLB Stats API need no key, so without a
 * replay folder they are read live; The Odds API needs ODDS_API_KEY (or a replay folder), and
 * without one the odds-backed parts say so instead of calling.
 */
export interface ContextProviders {
  /** 'replay' answers from a recorded folder; its cache entries never mix with live ones. */
  source: 'live' | 'replay';
  keyless: Transport;
  /** null: no ODDS_API_KEY and no replay folder. */
  odds: Transport | null;
  oddsApiKey?: string;
  /** The Odds API base URL (tests point it at a loopback server). */
  oddsBase?: string;
  /** Why `odds` is null. */
  oddsMissing?: string;
  close(): Promise<void>;
}

/**
 * Live HTTP for a request path: one retry and a 10 s deadline, so a reader is never parked for
 * the snapshot runs' long backoff; the cache's stale fallback covers a failure.
 */
export const CONTEXT_LIVE = { timeoutMs: 10_000, retries: 1, concurrencyPerHost: 4, userAgent: 'propgrade/0.1.0' } as const;

export interface ProviderOptions {
  replayDir: string | null;
  recordDir?: string | null;
  /** The clock the replay selects recordings by and the recorder stamps them with. */
  now: () => Date;
  log?: FeedLogger;
}

export function contextProviders(config: Env, opts: ProviderOptions): ContextProviders {
  // As createTransport: --record wins over PROPGRADE_REPLAY (both as flags is refused by the CLI).
  const replayDir = opts.recordDir ? null : (opts.replayDir ?? config.PROPGRADE_REPLAY ?? null);
  const log = opts.log ?? { warn: () => {} };
  if (replayDir) {
    readReplayManifest(replayDir); // fail fast on a missing or invalid folder
    const replay = createReplayTransport(replayDir, { now: opts.now });
    return { source: 'replay', keyless: replay, odds: replay, close: async () => {} };
  }
  const live = createLiveTransport({ ...CONTEXT_LIVE });
  const transport = opts.recordDir ? createRecordTransport(live, opts.recordDir, { now: opts.now, log }) : live;
  const key = config.ODDS_API_KEY;
  return {
    source: 'live',
    keyless: transport,
    odds: key ? transport : null,
    ...(key ? { oddsApiKey: key } : { oddsMissing: 'ODDS_API_KEY is not set (or run with --replay data/replay)' }),
    close: () => transport.close?.() ?? Promise.resolve(),
  };
}

/** Everything a context read needs. */
export interface ContextDeps {
  store: Store;
  config: Env;
  cache: ContextCache;
  providers: ContextProviders;
  now: Date;
  log: RunLogger;
}

/** The cache key of a context value: the source keeps replayed values apart from live ones. */
export function contextKey(providers: Pick<ContextProviders, 'source'>, ...parts: string[]): string {
  return ['context', providers.source, ...parts].join(':');
}

/** Adapter warnings go to the run log; adapters only ever warn. */
export function feedLog(log: RunLogger): FeedLogger {
  return { warn: (message) => log.warn(message) };
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
