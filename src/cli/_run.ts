import type { Store } from '../store/db.js';
import type { RunLogger } from '../feeds/sources.js';
import type { CliContext } from './_context.js';

export interface RunEnvironment {
  store: Store;
  /** The data clock: the named sport's (options.sport), else the newest snapshot's on a replayed store. */
  now: Date;
  /** Each sport's data clock: on a replayed store each sport reads as of its own newest snapshot. */
  forSport: (sport: string) => Date;
  /** Says the clock of one sport on stderr, for a read that learns its sport late (clockNoteLater). */
  sayClock: (sport: string) => void;
  /** True when the sports are read on different clocks (a replayed store without --now). */
  perSportClocks: boolean;
  /**
   * The instant a read of outcomes stands at (docs/ledger.md "As of a time"): the data clock when it
   * is --now, PROPGRADE_NOW or the system's; null on a replayed store read on its own clock, which
   * reads the recording whole (its settle included).
   */
  asOf: Date | null;
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
 * snapshot's time when it came from a replay (each sport its own: `sport` names the one read, and
 * `forSport` gives the others), otherwise the system clock with staleness stated.
 */
export async function openRunEnvironment(
  ctx: CliContext,
  options: { needsReplayClock?: boolean; readClock?: boolean; sport?: string | undefined; clockNoteLater?: boolean; creates?: boolean } = {},
): Promise<RunEnvironment> {
  const { openStoreAt, DEFAULT_DB_PATH } = await import('../store/db.js');
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
  // Only the commands that fill a store may make one (snapshot, import, backfill): a read of a mistyped --db is refused by name.
  const store = await openStoreAt(ctx.dbPath() ?? DEFAULT_DB_PATH, { create: options.creates ?? false });
  let forSport: ((sport: string) => Date) | null = null;
  let sayClock = (_sport: string): void => {};
  let perSportClocks = false;
  if (!now && options.readClock) {
    const { readClock } = await import('../reads/read-clock.js');
    const clock = await readClock(store, null, new Date(), ctx.config.SNAPSHOT_EXPECTED_INTERVAL, options.sport ?? null);
    if (clock.note && !options.clockNoteLater) log.info(clock.note);
    now = clock.now;
    forSport = clock.forSport;
    perSportClocks = clock.source === 'replay_snapshot';
    sayClock = (sport) => {
      const note = clock.noteFor(sport);
      if (note) log.info(note);
    };
  }
  const at = now ?? new Date();
  return {
    store,
    now: at,
    forSport: forSport ?? (() => at),
    sayClock,
    perSportClocks,
    asOf: perSportClocks ? null : at,
    replayDir,
    log,
    close: () => store.close(),
  };
}

/**
 * Runs `fn` on the store named by --db / PROPGRADE_DB (else the default), then closes it. Only a
 * command that makes the store's first rows (`users add`) passes `creates`.
 */
export async function withStore<T>(ctx: CliContext, fn: (store: Store) => T | Promise<T>, options: { creates?: boolean } = {}): Promise<T> {
  const { openStoreAt, DEFAULT_DB_PATH } = await import('../store/db.js');
  const store = await openStoreAt(ctx.dbPath() ?? DEFAULT_DB_PATH, { create: options.creates ?? false });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
