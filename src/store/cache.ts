import type { Freshness } from '../domain/freshness.js';
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
  | { ok: true; value: T; fetchedAt: string; ageSeconds: number; stale: boolean; staleReason: string | null; fromCache: boolean; replay?: ReplayStamp }
  | { ok: false; reason: string };

/** A replayed value's stamp: when its recording was made (null: the manifest gives no time), read as of the data clock. */
export interface ReplayStamp {
  recordedAt: string | null;
  readAsOf: string;
}

/**
 * Runs a load and says when the recording it read was made (feeds/context.ts recordingTracker over
 * the replay transport); handed in by a replayed read so the store floor needs no feed.
 */
export type RecordingTracker = <R>(load: () => Promise<R>) => Promise<{ result: R; recordedAt: string | null }>;

interface Stored<T> {
  v: 1;
  fetchedAt: string;
  value: T;
  /** A value loaded from a replay: its recording's time (absent on a live value). */
  recordedAt?: string | null;
}

export interface CacheReadOptions<T> {
  /** Skip a fresh cached value and go upstream (a failure still falls back to the stale value). */
  refresh?: boolean;
  /** Receives the previous stored value (even an expired one), e.g. futures' previous prices. */
  load: (previous: { value: T; fetchedAt: string } | null) => Promise<LoadResult<T>>;
  /** A replayed read: the load's recording time is kept with the value and every read of it says it. */
  recording?: RecordingTracker;
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
    const stored = await this.stored<T>(key, now);
    // A replayed read takes no value without its recording's time (one cached before it was kept): it reads the recording again.
    const previous = options.recording && stored && stored.recordedAt === undefined ? null : stored;
    const age = previous ? ageSeconds(previous.fetchedAt, now) : null;
    if (previous && age !== null && age < spec.ttlSeconds && !options.refresh) {
      return { ok: true, value: previous.value, fetchedAt: previous.fetchedAt, ageSeconds: age, stale: false, staleReason: null, fromCache: true, ...stampOf(previous, now) };
    }
    const running = this.inflight.get(key);
    if (running) return running as Promise<CacheRead<T>>;
    const failed = this.failures.get(key);
    if (failed && this.wallClock() - failed.at < FAILURE_BACKOFF_MS) return this.fallback(previous, spec, now, failed.reason);
    const task = this.load(key, spec, now, previous, options);
    this.inflight.set(key, task as Promise<CacheRead<unknown>>);
    try {
      return await task;
    } finally {
      this.inflight.delete(key);
    }
  }

  private async load<T>(key: string, spec: CacheSpec, now: Date, previous: Stored<T> | null, options: CacheReadOptions<T>): Promise<CacheRead<T>> {
    this.loads.set(key, (this.loads.get(key) ?? 0) + 1);
    let result: LoadResult<T>;
    let recordedAt: string | null | undefined;
    try {
      const load = () => options.load(previous ? { value: previous.value, fetchedAt: previous.fetchedAt } : null);
      if (options.recording) ({ result, recordedAt } = await options.recording(load));
      else result = await load();
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
        await kvSet(this.store, key, { v: 1, fetchedAt, value: result.value, ...(recordedAt !== undefined ? { recordedAt } : {}) } satisfies Stored<T>, now, null);
      } catch {
        /* not cached this time */
      }
      const replay = recordedAt !== undefined ? { replay: { recordedAt, readAsOf: now.toISOString() } } : {};
      return { ok: true, value: result.value, fetchedAt, ageSeconds: 0, stale: false, staleReason: null, fromCache: false, ...replay };
    }
    this.failures.set(key, { at: this.wallClock(), reason: result.reason });
    return this.fallback(previous, spec, now, result.reason);
  }

  /** The last good value marked stale with its age, or the hidden state with the reason. */
  private fallback<T>(previous: Stored<T> | null, spec: CacheSpec, now: Date, reason: string): CacheRead<T> {
    const age = previous ? ageSeconds(previous.fetchedAt, now) : null;
    if (previous && age !== null && age <= spec.maxStaleSeconds) {
      return { ok: true, value: previous.value, fetchedAt: previous.fetchedAt, ageSeconds: age, stale: true, staleReason: reason, fromCache: true, ...stampOf(previous, now) };
    }
    return { ok: false, reason };
  }
}

function ageSeconds(fetchedAt: string, now: Date): number | null {
  const ms = now.getTime() - Date.parse(fetchedAt);
  return Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : null;
}

function stampOf(stored: Stored<unknown>, now: Date): { replay?: ReplayStamp } {
  return stored.recordedAt !== undefined ? { replay: { recordedAt: stored.recordedAt, readAsOf: now.toISOString() } } : {};
}

/** The freshness fields every context answer carries (domain/freshness.ts; wire: answers-context `fresh`). */
export type { Freshness };

/** A live read: fetched_at and its age; a replayed one: replay, recorded_at and as_of (no age). */
export function freshnessOf(read: Pick<Extract<CacheRead<unknown>, { ok: true }>, 'fetchedAt' | 'ageSeconds' | 'stale' | 'staleReason' | 'replay'>): Freshness {
  const stale = { stale: read.stale, ...(read.staleReason ? { staleReason: read.staleReason } : {}) };
  if (read.replay) return { replay: true, recordedAt: read.replay.recordedAt, readAsOf: read.replay.readAsOf, ...stale };
  return { fetchedAt: read.fetchedAt, ageSeconds: read.ageSeconds, ...stale };
}
