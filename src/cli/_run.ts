import type { Store } from '../store/db.js';
import type { RunLogger } from '../pipeline/sources.js';
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
    info: (m) => ctx.progress(m),
    warn: (m) => ctx.progress(ctx.c.yellow(`warning: ${m}`)),
  };
}

/**
 * Opens the store and resolves the clock for commands that only read the store. A replay
 * folder's recorded clock is the default `now` so bundled data reads as of its recording.
 */
export async function openRunEnvironment(ctx: CliContext, options: { needsReplayClock?: boolean } = {}): Promise<RunEnvironment> {
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
  return {
    store,
    now: now ?? new Date(),
    replayDir,
    log,
    close: async () => store.close(),
  };
}
