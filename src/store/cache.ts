import type { Store } from './db.js';
import { kvGetAsOf, kvSet } from './repo/kv.js';

/**
 * The one cache of the read models that go upstream (live, news, futures, combat, stats;
 * docs/context.md): a TTL per feature, single flight (concurrent readers of one key share one
 * upstream promise) and stale-on-error (an upstream failure serves the last good value with its
 * age, or nothing).
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
  private async stored<T>(key: string, now: Date): Promise<Stored<T> | null> {
    let raw: Stored<T> | null;
    try {
      raw = await kvGetAsOf<Stored<T>>(this.store, key, now);
    } catch {
      return null;
    }
    return raw !== null && typeof raw === 'object' && raw.v === 1 && typeof raw.fetchedAt === 'string' ? raw : null;
  }

  async read<T>(key: string, spec: CacheSpec, now: Date, options: CacheReadOptions<T>): Promise<CacheRead<T>> {
    const previous = await this.stored<T>(key, now);
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
      // The error's text may carry an upstream URL or a path: a reason is public, so only its kind is kept.
      result = { ok: false, reason: `upstream read failed (${err instanceof Error ? err.name : 'error'})` };
    }
    if (result.ok) {
      this.failures.delete(key);
      const fetchedAt = now.toISOString();
      // Kept past the TTL (null expiry): the stale fallback and futures' previous prices need it.
      // A store that cannot be written still lets the fresh value through (it is just not cached).
      try {
        await kvSet(this.store, key, { v: 1, fetchedAt, value: result.value } satisfies Stored<T>, now, null);
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
