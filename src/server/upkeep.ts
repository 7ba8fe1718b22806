import { METER_WINDOW_HOURS } from '../accounts/meter.js';
import { STATS_CACHE } from '../reads/stats-common.js';
import { CONTEXT_CACHE } from '../store/cache.js';
import type { Store } from '../store/db.js';
import { pruneExpiredKv, pruneUnexpiringKv, pruneUsageBefore } from '../store/repo/prune.js';
import { WINDOW_KEY_PREFIX } from '../store/repo/rate-windows.js';
import type { SnapshotCache } from './snapshot-cache.js';

/**
 * What `serve` does besides answering (issue 40): it keeps the store bounded (expired rows and
 * meter rows outside their window deleted on a schedule) and prepares each new snapshot's bodies
 * as soon as it sees the snapshot, whoever wrote it, instead of on the first request.
 */

/** Rows one prune statement deletes, and statements per kind of row in one pass: a pass deletes at most 10,000 rows of each kind. */
export const PRUNE_BATCH = 500;
export const PRUNE_BATCHES_PER_PASS = 20;
/** How often serve prunes, and looks for a snapshot written by another process (the CLI, another server's cron). */
export const PRUNE_EVERY_MS = 60_000;
export const PREPARE_EVERY_MS = 5_000;

/**
 * The longest a context cache row without an expiry can still be served: its stale fallback
 * (store/cache.ts CacheSpec.maxStaleSeconds), the longest of every feature's. Past it on both clocks
 * no reader will take it.
 */
export const CACHE_HORIZON_SECONDS = Math.max(...[...Object.values(CONTEXT_CACHE), ...Object.values(STATS_CACHE)].map((s) => s.maxStaleSeconds));
const METER_WINDOW_MS = METER_WINDOW_HOURS * 3600 * 1000;

export interface PruneCounts {
  /** Cache rows past their expiry (team hub, founder count, credit logs). */
  expired: number;
  /** Request windows (shared limits) that have ended. */
  windows: number;
  /** Context cache rows past every feature's stale horizon. */
  stale: number;
  /** Metered usage outside its rolling window. */
  usage: number;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Repeats `step` (one bounded delete) while it comes back full, at most PRUNE_BATCHES_PER_PASS times, with the loop free between statements. */
async function drain(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < PRUNE_BATCHES_PER_PASS; i += 1) {
    const n = await step();
    total += n;
    if (n < PRUNE_BATCH) break;
    await yieldToLoop();
  }
  return total;
}

/**
 * One prune pass. Clocks: a cache row's expiry may have been written on either clock (the team hub
 * on the data clock, the credit logs on the wall clock), so a row goes once it has expired on both:
 * a replayed store, whose data clock stands still, keeps the values it still serves (their number
 * is bounded by the dates and ids its windows accept). Request windows and meters live on the wall
 * clock alone and go by it.
 */
export async function pruneStore(store: Store, clocks: { wall: Date; data: Date }): Promise<PruneCounts> {
  const both = new Date(Math.min(clocks.wall.getTime(), clocks.data.getTime()));
  const wall = clocks.wall.toISOString();
  const windows = await drain(() => pruneExpiredKv(store, wall, PRUNE_BATCH, WINDOW_KEY_PREFIX));
  const expired = await drain(() => pruneExpiredKv(store, both.toISOString(), PRUNE_BATCH));
  const horizon = new Date(both.getTime() - CACHE_HORIZON_SECONDS * 1000).toISOString();
  const stale = await drain(() => pruneUnexpiringKv(store, 'context:', horizon, PRUNE_BATCH));
  const usage = await drain(() => pruneUsageBefore(store, new Date(clocks.wall.getTime() - METER_WINDOW_MS).toISOString(), PRUNE_BATCH));
  return { expired, windows, stale, usage };
}

export interface Upkeep {
  /** Stops the timers and waits for a pass under way (the store is closed next). */
  stop(): Promise<void>;
}

/** Starts serve's timers: a prune pass every PRUNE_EVERY_MS, a look for new snapshots every PREPARE_EVERY_MS (and one of each at once). */
export function startUpkeep(options: {
  store: Store;
  snapshotCache: SnapshotCache;
  wallClock: () => Date;
  now: () => Date;
  log: { warn(message: string): void };
  pruneEveryMs?: number;
  prepareEveryMs?: number;
}): Upkeep {
  const { store, snapshotCache, log } = options;
  const warn = (what: string) => (e: unknown) => log.warn(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
  /** One run of a task at a time: a tick that finds the last run still going does nothing. */
  const task = (run: () => Promise<unknown>, what: string) => {
    let running: Promise<void> | null = null;
    return {
      tick: () => {
        running ??= run()
          .then(() => undefined, warn(what))
          .finally(() => {
            running = null;
          });
      },
      settled: () => running ?? Promise.resolve(),
    };
  };
  const prune = task(() => pruneStore(store, { wall: options.wallClock(), data: options.now() }), 'prune pass');
  const prepare = task(() => snapshotCache.prepare(), 'preparing the snapshot bodies');
  const timers = [setInterval(prune.tick, options.pruneEveryMs ?? PRUNE_EVERY_MS), setInterval(prepare.tick, options.prepareEveryMs ?? PREPARE_EVERY_MS)];
  for (const t of timers) t.unref();
  const first = setImmediate(() => {
    prepare.tick();
    prune.tick();
  });
  return {
    stop: async () => {
      clearImmediate(first);
      for (const t of timers) clearInterval(t);
      await Promise.all([prune.settled(), prepare.settled()]);
    },
  };
}
