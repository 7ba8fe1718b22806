import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import type { GradedSport } from '../../src/domain/sports.js';
import { recordedOddsClock } from '../../src/jobs/close-due.js';
import { ensureReplaySeed, type ReplaySeed } from '../../src/jobs/import-history.js';
import { readReplayManifest } from '../../src/feeds/transport/replay.js';
import { runSettle } from '../../src/jobs/settle.js';
import { runSnapshot, type SnapshotSummary } from '../../src/jobs/snapshot-run.js';
import type { RunLogger } from '../../src/feeds/sources.js';
import { buildOddsSource, buildResultsSource } from '../../src/feeds/factory.js';
import { openStore, type SqliteStore, type Store } from '../../src/store/db.js';

/** The bundled replay of real recorded data (2025-11-04 and 2025-11-05 NBA slates). */
export const REPLAY_DIR = 'data/replay';

export interface CollectingLogger extends RunLogger {
  infos: string[];
  warnings: string[];
}

export function collectingLogger(): CollectingLogger {
  const infos: string[] = [];
  const warnings: string[] = [];
  return { infos, warnings, info: (m) => infos.push(m), warn: (m) => warnings.push(m) };
}

/**
 * A fresh SQLite file in a temp dir; `cleanup` removes it. Stays synchronous: SqliteStore.close()
 * closes the connection before it returns its promise, so the file can go straight after.
 */
export function tempStore(): { store: SqliteStore; path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-test-'));
  const path = join(dir, 'pg.sqlite');
  const store = openStore(path);
  return {
    store,
    path,
    cleanup: () => {
      void store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let template: Promise<string> | null = null;

/** The seeded template file, imported once per test file (concurrent callers share the one import). */
function seedTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-template-'));
    const path = join(dir, 'seed.sqlite');
    const store = openStore(path);
    await ensureReplaySeed(store, REPLAY_DIR, readReplayManifest(REPLAY_DIR).seed as ReplaySeed, new Date('2025-11-04T00:00:00Z'), collectingLogger(), ['nba']);
    store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    await store.close();
    return path;
  })();
  return template;
}

/**
 * A temp store that already holds the replay's seed history (23.8k real player-games).
 * The import runs once per test file into a template that each test copies.
 */
export async function seededStore(): Promise<{ store: SqliteStore; path: string; cleanup(): void }> {
  const templatePath = await seedTemplate();
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-test-'));
  const path = join(dir, 'pg.sqlite');
  copyFileSync(templatePath, path);
  const store = openStore(path);
  return {
    store,
    path,
    cleanup: () => {
      void store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the real snapshot pipeline over the bundled replay at a recorded clock time, as `snapshot --replay` does (closes stamped when recorded). */
export async function snapshotAt(store: Store, sport: GradedSport, iso: string, log: RunLogger = collectingLogger()): Promise<SnapshotSummary> {
  const now = new Date(iso);
  const sources = await buildOddsSource(loadConfig({}), { replayDir: REPLAY_DIR, recordDir: null, now, log });
  await ensureReplaySeed(store, REPLAY_DIR, sources.seed, now, log, [sport]);
  try {
    return await runSnapshot(sport, { store, odds: sources.odds, now, allowedBooks: null, log, source: 'replay', oddsRecordedAt: recordedOddsClock(REPLAY_DIR) });
  } finally {
    await sources.close();
  }
}

export async function resultsAt(iso: string, log: RunLogger = collectingLogger()) {
  return buildResultsSource(loadConfig({}), { replayDir: REPLAY_DIR, recordDir: null, now: new Date(iso), log });
}

/** A store file at `path` that already holds the replay's seed history (a copy of the template). */
export async function seededStoreFile(path: string): Promise<void> {
  const seeded = await seededStore();
  seeded.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  copyFileSync(seeded.path, path);
  seeded.cleanup();
}

/**
 * The README's replay loop as store files in `dir`: `presettle` holds the two 2025-11-05 snapshots
 * (15:05 and 17:05), `settled` the same after the next morning's settle.
 */
export async function replayLoopFiles(dir: string): Promise<{ presettle: string; settled: string }> {
  const presettle = join(dir, 'presettle.sqlite');
  const settled = join(dir, 'settled.sqlite');
  const seeded = await seededStore();
  try {
    await snapshotAt(seeded.store, 'nba', '2025-11-05T15:05:00Z');
    await snapshotAt(seeded.store, 'nba', '2025-11-05T17:05:00Z');
    seeded.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(seeded.path, presettle);
    const sources = await resultsAt('2025-11-06T12:00:00Z');
    await runSettle('nba', { store: seeded.store, results: sources.results, now: new Date('2025-11-06T12:00:00Z'), log: collectingLogger() });
    await sources.close();
    seeded.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(seeded.path, settled);
  } finally {
    seeded.cleanup();
  }
  return { presettle, settled };
}

/**
 * A store file at `path` holding every recorded sport and the NBA loop, through the CLI as a user runs
 * it: the 15:05 NBA snapshot, `snapshot all` at each sport's own clock, the next morning's NBA settle.
 * Returns each command's exit code and stderr, so a test can say which step failed.
 */
export async function everySportLoopFile(path: string, cli: (argv: string[]) => Promise<{ code: number; stderr: string }>): Promise<void> {
  await seededStoreFile(path);
  for (const argv of [
    ['snapshot', 'nba', '--replay', REPLAY_DIR, '--now', '2025-11-05T15:05:00Z', '--quiet'],
    ['snapshot', 'all', '--replay', REPLAY_DIR, '--quiet'],
    ['settle', 'nba', '--replay', REPLAY_DIR, '--now', '2025-11-06T12:00:00Z'],
  ]) {
    const r = await cli(argv);
    if (r.code !== 0) throw new Error(`${argv.join(' ')} exited ${r.code}: ${r.stderr}`);
  }
}
