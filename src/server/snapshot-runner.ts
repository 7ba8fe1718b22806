import type { Env } from '../config.js';
import type { GradedSport } from '../domain/sports.js';
import type { RunLogger } from '../feeds/sources.js';
import type { Transport } from '../feeds/transport/types.js';
import type { Store } from '../store/db.js';
import type { SnapshotRunner } from './context.js';

/**
 * The server's snapshot runner: the snapshot job `propgrade snapshot` runs (src/jobs/snapshot.ts:
 * the same sources, injury and lineup feeds, credits and not_recorded rule), used by the internal
 * routes and the cron.
 * PROPGRADE_REPLAY makes it read a recorded folder instead of the live providers. `now` is the
 * data clock of the runs; `wallNow` decides the billing sweep after them (after-snapshot.ts).
 */
export function createSnapshotRunner(
  store: Store,
  config: Env,
  now: () => Date,
  log: RunLogger,
  wallNow: () => Date = () => new Date(),
  /** A provider transport per run (tests inject one); by default the factory builds it from the config. */
  transportPerRun?: () => Transport,
): SnapshotRunner {
  return async (sports: readonly GradedSport[]) => {
    const { runSnapshotJob } = await import('../jobs/snapshot.js');
    const at = now();
    const replayDir = config.PROPGRADE_REPLAY ?? null;
    // The run's clock is decided (snapshotRunClock): every sport runs at it.
    const out = await runSnapshotJob({ store, config, sports, now: at, pinned: true, replayDir, recordDir: null, log, wallNow, ...(transportPerRun ? { transport: transportPerRun() } : {}) });
    // The same after-run steps as the CLI: graces swept, the desk pack announced once a day.
    const { afterSnapshotRuns, afterSnapshotLine } = await import('../jobs/after-snapshot.js');
    log.info(afterSnapshotLine(await afterSnapshotRuns(store, config, at, log, { replay: replayDir !== null, wallNow: wallNow() })));
    return out;
  };
}

/**
 * The data clock of the server's own snapshot runs: an explicit pin (--now / PROPGRADE_NOW) when
 * given; a run over a recording at the server's data clock (the recording's time); a live run at
 * the wall clock, never at the time a replayed store is read as of.
 */
export function snapshotRunClock(config: Pick<Env, 'PROPGRADE_REPLAY'>, dataNow: () => Date, wallNow: () => Date, explicit?: () => Date): () => Date {
  if (explicit) return explicit;
  return config.PROPGRADE_REPLAY ? dataNow : wallNow;
}
