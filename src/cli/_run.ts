import type { Store } from '../store/db.js';
import type { RunLogger } from '../feeds/sources.js';
import type { CliContext } from './_context.js';

export interface RunEnvironment {
  store: Store;
  now: Date;
  replayDir: string | null;
  log: RunLogger;
  close(): Promise<void>;
}

export function stderrLogger(ctx: CliContext): RunLogger {
  return {
    info: (m, fields) => ctx.progress(m, fields),
    warn: (m, fields) => ctx.warn(m, fields),
  };
}

/**
 * Opens the store and resolves the run's clock: --now/PROPGRADE_NOW; else a replay folder's recorded
 * clock when one is given; else the read-clock rule (src/reads/read-clock.ts): the newest
 * snapshot's time when it came from a replay, otherwise the system clock with staleness stated.
 */
export async function openRunEnvironment(ctx: CliContext, options: { needsReplayClock?: boolean; readClock?: boolean } = {}): Promise<RunEnvironment> {
  const { openStore, DEFAULT_DB_PATH } = await import('../store/db.js');
  const replayDir = ctx.options.replay ?? ctx.config.PROPGRADE_REPLAY ?? null;
  let now = ctx.explicitNow();
  const log = stderrLogger(ctx);
  if (!now && replayDir && (options.needsReplayClock ?? true)) {
    const { readReplayManifest } = await import('../feeds/transport/replay.js');
    const manifest = readReplayManifest(replayDir);
    if (manifest.defaultNow) {
      now = new Date(manifest.defaultNow);
      log.info(`replaying ${replayDir} as of ${manifest.defaultNow} (pass --now to choose another recorded time)`);
    }
  }
  const store = openStore(ctx.dbPath() ?? DEFAULT_DB_PATH);
  if (!now && options.readClock) {
    const { readClock } = await import('../reads/read-clock.js');
    const clock = readClock(store, null, new Date(), ctx.config.SNAPSHOT_EXPECTED_INTERVAL);
    if (clock.note) log.info(clock.note);
    now = clock.now;
  }
  return {
    store,
    now: now ?? new Date(),
    replayDir,
    log,
    close: async () => store.close(),
  };
}

/** Runs `fn` on the store named by --db / PROPGRADE_DB (else the default), then closes it. */
export async function withStore<T>(ctx: CliContext, fn: (store: Store) => T): Promise<T> {
  const { openStore, DEFAULT_DB_PATH } = await import('../store/db.js');
  const store = openStore(ctx.dbPath() ?? DEFAULT_DB_PATH);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}
