import type { Env } from '../config.js';
import { AppError } from '../errors.js';
import type { GradedSport } from '../domain/sports.js';
import type { RunLogger } from '../feeds/sources.js';
import type { Transport } from '../feeds/transport/types.js';
import type { Store } from '../store/db.js';
import { replayOrigin } from '../store/repo/replay-origin.js';
import type { SnapshotRunner } from './context.js';

/** Why the server's snapshot run refuses a replayed store without a replay folder (the internal routes' 503, the cron's warning). */
export const REPLAYED_STORE_REFUSAL =
  "this store was replayed from recorded data (its newest snapshot came from a replay) and a replayed store never calls a provider: no snapshot was run and no request was made. Give the server the recording to run from (serve --replay <folder> or PROPGRADE_REPLAY, e.g. data/replay), or serve a live store";

/**
 * The server's snapshot runner: the snapshot job `propgrade snapshot` runs (src/jobs/snapshot.ts:
 * the same sources, injury and lineup feeds, credits and not_recorded rule), used by the internal
 * routes and the cron.
 * PROPGRADE_REPLAY makes it read a recorded folder instead of the live providers. Without it, a
 * store whose newest snapshot was replayed is refused (UNAVAILABLE_ON_REPLAY) before any source is
 * built, even with ODDS_API_KEY set: a replayed store never calls a provider. `now` is the
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
    const replayDir = config.PROPGRADE_REPLAY ?? null;
    // Before any source is built: a refused run makes no request at all.
    if (replayDir === null && (await replayOrigin(store)).replayed) throw new AppError('UNAVAILABLE_ON_REPLAY', REPLAYED_STORE_REFUSAL);
    const { runSnapshotJob } = await import('../jobs/snapshot.js');
    const at = now();
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
