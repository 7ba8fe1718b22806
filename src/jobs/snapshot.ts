import { z } from 'zod';
import type { Env } from '../config.js';
import { GRADED_SPORTS, gradedSportSchema, type GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import { badInput } from '../errors.js';
import { gradedSportsIn } from '../feeds/odds-api/sport-keys.js';
import { readReplayManifest } from '../feeds/transport/replay.js';
import type { LiveTransportOptions } from '../feeds/transport/live.js';
import type { Transport } from '../feeds/transport/types.js';
import { recordedOddsClock } from './close-due.js';
import { ensureReplaySeed } from './import-history.js';
import { runSnapshot, type SnapshotSummary } from './snapshot-run.js';
import type { RunLogger } from '../feeds/sources.js';
import { buildOddsSource } from '../feeds/factory.js';
import type { Store } from '../store/db.js';
import { addCreditsSpent, creditsSpentToday } from '../store/repo/odds-credits.js';
import { rememberReplayFolder } from '../store/repo/replay-origin.js';

/**
 * The snapshot use case, one function for `propgrade snapshot` and for the server's internal routes
 * and cron (issue 28): the same sources (odds, and the injury and lineup feeds for the chips), the
 * day's Odds API credits carried in and recorded after a live run, each replayed sport at its own
 * recorded clock unless the clock was pinned, and a sport absent from a replayed recording left
 * `not_recorded` with its last snapshot standing.
 */
export interface SnapshotJobOptions {
  store: Store;
  config: Env;
  sports: readonly GradedSport[];
  /** The run's data clock (--now, PROPGRADE_NOW, a recording's time, else the wall clock). */
  now: Date;
  /** True when `now` was pinned (--now / PROPGRADE_NOW): every sport runs at it, not at its recorded clock. */
  pinned: boolean;
  replayDir: string | null;
  recordDir: string | null;
  log: RunLogger;
  /** Where a sport's feed warnings go while it runs (the CLI folds them into one line per sport); default `log`. */
  sportLog?: (sport: GradedSport) => { log: RunLogger; done(): void };
  /**
   * The wall clock: the Odds API's daily credit budget is money, counted by the real day even when
   * `now` is pinned to another. The system clock unless the caller injects one (the server, tests).
   */
  wallNow?: () => Date;
  /** The provider transport, when the caller injects one (tests); else the factory builds it from the config. */
  transport?: Transport;
  /** The live transport's patience and wall-clock timers (tests shorten them). */
  live?: Partial<LiveTransportOptions>;
  /** Said before the first use of a recording's seed history, which may take a while. */
  onSeedCheck?: () => void;
}

export async function runSnapshotJob(opts: SnapshotJobOptions): Promise<SnapshotSummary[]> {
  const { store, config, replayDir } = opts;
  const wall = opts.wallNow ? opts.wallNow() : new Date();
  const spentToday = await creditsSpentToday(store, wall);
  let current: RunLogger = opts.log;
  const log: RunLogger = { info: (m) => current.info(m), warn: (m) => current.warn(m) };
  // The transport reads `sourceOptions.now` at each request: a sport with its own recorded clock is read at it.
  const sourceOptions = { replayDir, recordDir: opts.recordDir, now: opts.now, log, creditsSpentToday: spentToday, ...(opts.transport ? { transport: opts.transport } : {}), ...(opts.live ? { live: opts.live } : {}) };
  const sources = await buildOddsSource(config, sourceOptions);
  try {
    const clocks = replayDir && !opts.pinned ? recordedClocks(replayDir) : {};
    // A replayed close is stamped when its odds were recorded, as the close run stamps it.
    const oddsRecordedAt = replayDir ? recordedOddsClock(replayDir) : undefined;
    if (replayDir) {
      // The store's context reads answer from this recording later (serve, news, live): never a provider.
      await rememberReplayFolder(store, replayDir, opts.now);
      opts.onSeedCheck?.();
      await ensureReplaySeed(store, replayDir, sources.seed, opts.now, opts.log, opts.sports);
    }
    const recorded = replayDir ? sportsInRecording(replayDir) : null;
    const summaries: SnapshotSummary[] = [];
    for (const sport of opts.sports) {
      if (recorded && !recorded.has(sport)) {
        summaries.push(notRecorded(sport, easternDate(opts.now), replayDir as string));
        continue;
      }
      const now = clocks[sport] ?? opts.now;
      sourceOptions.now = now;
      opts.log.info(`${sport}: snapshot run at ${now.toISOString()}`, { sport });
      const scoped = opts.sportLog?.(sport) ?? null;
      current = scoped?.log ?? opts.log;
      try {
        summaries.push(await runSnapshot(sport, { store, odds: sources.odds, status: sources.status, now, allowedBooks: config.ALLOWED_BOOKS, log, source: replayDir ? 'replay' : 'live', ...(oddsRecordedAt ? { oddsRecordedAt } : {}) }));
      } finally {
        current = opts.log;
        sourceOptions.now = opts.now;
        scoped?.done();
      }
    }
    // Replayed calls cost nothing; live ones count against the day's budget across runs.
    if (!replayDir) await addCreditsSpent(store, wall, sources.budget.state().spent - spentToday);
    return summaries;
  } finally {
    await sources.close();
  }
}

/** A replay manifest's per-sport recorded clocks (`clocks: {wnba: iso, ...}`); a sport without one runs at the run's clock. */
function recordedClocks(dir: string): Partial<Record<GradedSport, Date>> {
  const parsed = z.partialRecord(gradedSportSchema, z.iso.datetime({ offset: true })).safeParse(readReplayManifest(dir)['clocks'] ?? {});
  if (!parsed.success) throw badInput(`replay manifest ${dir}: clocks must map sports to ISO times`);
  return Object.fromEntries(Object.entries(parsed.data).map(([k, v]) => [k, new Date(v as string)]));
}

function sportsInRecording(dir: string): Set<GradedSport> {
  return gradedSportsIn(
    readReplayManifest(dir).entries.map((e) => e.key),
    GRADED_SPORTS,
  );
}

function notRecorded(sport: GradedSport, slateDate: string, dir: string): SnapshotSummary {
  return {
    sport,
    runId: 0,
    status: 'not_recorded',
    slateDate,
    snapshotId: null,
    events: 0,
    rows: 0,
    graded: 0,
    refused: 0,
    dropped: 0,
    newLocks: 0,
    moves: 0,
    ledgerInserted: 0,
    closingsCaptured: 0,
    message: `not in the recording ${dir}; its last snapshot stays`,
  };
}
