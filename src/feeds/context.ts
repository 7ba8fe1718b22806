import { resolve } from 'node:path';
import type { Env } from '../config.js';
import { AppError } from '../errors.js';
import { ContextCache, type RecordingTracker } from '../store/cache.js';
import type { Store } from '../store/db.js';
import { replayOrigin } from '../store/repo/replay-origin.js';
import { contextProviders, feedLog, type ContextProviders } from './factory.js';
import { classifyFailure, publicReason, scrubPublic } from './public-reason.js';
import type { RunLogger } from './sources.js';
import type { FeedLogger } from './transport/log.js';
import { loadReplayManifest } from './transport/replay.js';
import type { Transport } from './transport/types.js';

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
   * Each sport's data clock, for a read that learns its sport late (stats player): on a replayed
   * store each sport reads as of its own newest snapshot. Absent: `now` for every sport.
   */
  forSport?: (sport: string) => Date;
  /**
   * The wall clock: the Odds API's daily credit budget is money, counted by the real day even when
   * the data clock is pinned. The system clock unless the caller injects one (the server, tests).
   */
  wallNow?: () => Date;
  log: RunLogger;
}

/**
 * The cache option of a replayed read: its load's recording time is kept with the value, so the
 * answer says when it was recorded (domain/freshness.ts). Live reads get nothing: their fetch time
 * and age are real.
 */
export function replayTracking(deps: Pick<ContextDeps, 'providers'>): { recording?: RecordingTracker } {
  return deps.providers.recording ? { recording: deps.providers.recording } : {};
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
 * state can say it ("not in the recording", "the provider answered HTTP 503") instead of a bare
 * "unavailable". The answer gets the public phrase (feeds/public-reason.ts): never the upstream
 * URL, host or resolver text, which go to the log with the warning.
 */
export function loadLog(log: RunLogger): FeedLogger & { why(fallback: string): string } {
  const reasons: string[] = [];
  return {
    warn(message, detail) {
      const d = detail as { reason?: unknown; status?: unknown } | undefined;
      const reason = typeof d?.reason === 'string' ? d.reason : typeof d?.status === 'number' ? `HTTP ${d.status}` : null;
      log.warn(reason ? `${message} (${reason})` : message);
      // A transport's failure is classified; an adapter's own sentence ('unknown columns') is kept, scrubbed.
      reasons.push(reason ? publicReason(`${message} ${reason}`) : (classifyFailure(message) ?? scrubPublic(message)));
    },
    why(fallback) {
      return reasons.length === 0 ? fallback : `${fallback}: ${reasons[0]}`;
    },
  };
}

/** The error of a provider-backed read on a replayed store that has no recording to answer from (503). */
export function unavailableOnReplay(feature: string, why: string): AppError {
  return new AppError('UNAVAILABLE_ON_REPLAY', `${feature} is unavailable on a replayed store: ${why}`);
}

/**
 * Called by a read before it asks a provider: a replayed store without its recording never calls
 * out, so the read answers UNAVAILABLE_ON_REPLAY (503) instead.
 */
export function requireUpstream(deps: Pick<ContextDeps, 'providers'>, feature: string): void {
  if (deps.providers.offline !== undefined) throw unavailableOnReplay(feature, deps.providers.offline);
}

/** Where the context reads of a store answer from (issue 33; README "The clock"). */
export type ContextSource = { kind: 'replay'; dir: string; origin: 'flag' | 'env' | 'store' } | { kind: 'offline'; why: string } | { kind: 'live' };

export const NO_RECORDING =
  'its snapshots were replayed from a recording this process cannot read; serve or run it with --replay <folder> (or PROPGRADE_REPLAY), e.g. --replay data/replay';

/**
 * 1. --record: live (and recorded); 2. --replay or PROPGRADE_REPLAY: that folder; 3. a store whose
 * newest snapshot was replayed: the folder its snapshot job remembered, when it still reads, else
 * offline (no provider is ever called for a replayed store); 4. live.
 */
export async function contextSourceFor(store: Store, config: Env, opts: { replayDir: string | null; recordDir: string | null }): Promise<ContextSource> {
  if (opts.recordDir) return { kind: 'live' };
  if (opts.replayDir) return { kind: 'replay', dir: opts.replayDir, origin: 'flag' };
  if (config.PROPGRADE_REPLAY) return { kind: 'replay', dir: config.PROPGRADE_REPLAY, origin: 'env' };
  const origin = await replayOrigin(store);
  if (!origin.replayed) return { kind: 'live' };
  if (origin.folder !== null && loadReplayManifest(origin.folder).ok) return { kind: 'replay', dir: origin.folder, origin: 'store' };
  return { kind: 'offline', why: NO_RECORDING };
}

/** The providers of a context source; `live` replaces the network transport (tests). Throws BAD_INPUT on an unreadable --replay/PROPGRADE_REPLAY folder. */
export function providersFor(config: Env, source: ContextSource, opts: { recordDir: string | null; now: () => Date; log?: FeedLogger; live?: Transport }): ContextProviders {
  const common = { now: opts.now, ...(opts.log ? { log: opts.log } : {}), ...(opts.live ? { live: opts.live } : {}) };
  if (source.kind === 'offline') return contextProviders(config, { replayDir: null, offline: source.why, ...common });
  if (source.kind === 'replay') return contextProviders(config, { replayDir: resolve(source.dir), ...common });
  // Live (PROPGRADE_REPLAY is unset here, or --record wins over it as in createTransport).
  return contextProviders(config, { replayDir: null, recordDir: opts.recordDir, ...common });
}

/**
 * A one-shot reader's context (the CLI views): providers over the run's clock (contextSourceFor:
 * a replayed store reads its recording, never a provider), a fresh cache on the store.
 */
export async function openContextDeps(opts: { store: Store; config: Env; now: Date; replayDir: string | null; recordDir: string | null; log: RunLogger; live?: Transport }): Promise<ContextDeps & { close(): Promise<void> }> {
  const source = await contextSourceFor(opts.store, opts.config, { replayDir: opts.replayDir, recordDir: opts.recordDir });
  if (source.kind === 'replay' && source.origin === 'store') opts.log.info(`context reads answer from the recording this store was replayed from: ${source.dir}`);
  const providers = providersFor(opts.config, source, { recordDir: opts.recordDir, now: () => opts.now, log: feedLog(opts.log), ...(opts.live ? { live: opts.live } : {}) });
  return { store: opts.store, config: opts.config, cache: new ContextCache(opts.store), providers, now: opts.now, log: opts.log, close: () => providers.close() };
}
