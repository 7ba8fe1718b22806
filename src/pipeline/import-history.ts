import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PlayerGameStat } from '../domain/entities.js';
import type { GradedSport } from '../domain/sports.js';
import { scanCsvFile } from '../feeds/history/csv.js';
import { streamNbaGameLogsFile } from '../feeds/history/nba-gamelogs.js';
import type { Store } from '../store/db.js';
import { gameStatsWriter } from '../store/repo/game-stats.js';
import { kvGet, kvSet } from '../store/repo/kv.js';
import type { RunLogger } from './sources.js';

export interface ImportResult {
  file: string;
  sport: GradedSport;
  parsed: number;
  written: number;
  /** True when this exact file (by content hash) was imported before and nothing was done. */
  skipped: boolean;
}

/**
 * Game-log formats propgrade can import; each streams a real CSV layout as player-game lines
 * (`quoted`: the file holds a double quote, so it is parsed whole rather than split in chunks).
 */
type GameLogStreamer = (file: string, quoted: boolean, onRow: (row: PlayerGameStat, json?: { stats: string; extras: string }) => void) => string[];
const PARSERS: Partial<Record<GradedSport, GameLogStreamer>> = {
  nba: streamNbaGameLogsFile,
};

export function supportedGameLogSports(): GradedSport[] {
  return Object.keys(PARSERS) as GradedSport[];
}

/** A game-log file whose content (by hash) the store has not imported yet. */
export interface DueImport {
  sport: GradedSport;
  file: string;
  hash: string;
  quoted: boolean;
}

/** The file's scan when its import is due (or forced); null when this exact file was imported before. */
function dueImport(store: Store, sport: GradedSport, file: string, now: Date, force: boolean): DueImport | null {
  const { hash, quoted } = scanCsvFile(file);
  if (!force && kvGet(store.db, markerOf(sport, hash), now) !== null) return null;
  return { sport, file, hash, quoted };
}

const markerOf = (sport: GradedSport, hash: string) => `import:gamelogs:${sport}:${hash}`;

/**
 * Writes a due file's rows (upserts on sport, player, date, game), all in one transaction, then
 * marks its hash imported. The file is streamed record by record, so memory stays flat.
 */
export function writeGameLogs(store: Store, item: DueImport, now: Date): ImportResult {
  const stream = PARSERS[item.sport] as GameLogStreamer;
  const write = gameStatsWriter(store.db);
  let rows = 0;
  // IMMEDIATE: from a worker, the write lock is waited for (busy timeout) before any row is read.
  store.sqlite
    .transaction(() => {
      stream(item.file, item.quoted, (row, json) => {
        write(row, json);
        rows += 1;
      });
    })
    .immediate();
  kvSet(store.db, markerOf(item.sport, item.hash), { file: item.file, rows, importedAt: now.toISOString() }, now, null);
  return { file: item.file, sport: item.sport, parsed: rows, written: rows, skipped: false };
}

/**
 * Imports a game-log CSV into the per-player game table, idempotently: rows upsert on
 * (sport, player, date, game) and a file already imported (same content hash) is skipped.
 * The file is streamed: one pass hashes it in chunks, a second parses it record by record and
 * upserts each row as it is read, all rows in one transaction, so memory stays flat whatever
 * the file's size.
 */
export function importGameLogs(store: Store, sport: GradedSport, file: string, now: Date, options: { force?: boolean } = {}): ImportResult | null {
  if (!PARSERS[sport]) return null;
  const due = dueImport(store, sport, file, now, options.force ?? false);
  return due ? writeGameLogs(store, due, now) : { file, sport, parsed: 0, written: 0, skipped: true };
}

export interface ReplaySeed {
  gamelogs?: Array<{ sport: GradedSport; file: string }>;
}

/** A seed file due for import, named as the replay's manifest names it (for the log line). */
type DueSeed = DueImport & { named: string };

/** The seed files this store has not imported yet (a file without an importer is said, once). */
function dueSeeds(store: Store, replayDir: string, seed: ReplaySeed | undefined, now: Date, log: RunLogger): { due: DueSeed[]; skipped: ImportResult[] } {
  const due: DueSeed[] = [];
  const skipped: ImportResult[] = [];
  for (const item of seed?.gamelogs ?? []) {
    if (!PARSERS[item.sport]) {
      log.warn(`replay seed ${item.file}: no game-log importer for ${item.sport}`);
      continue;
    }
    const file = resolve(replayDir, item.file);
    const d = dueImport(store, item.sport, file, now, false);
    if (d) due.push({ ...d, named: item.file });
    else skipped.push({ file, sport: item.sport, parsed: 0, written: 0, skipped: true });
  }
  return { due, skipped };
}

const imported = (log: RunLogger, due: readonly DueSeed[], results: readonly ImportResult[]): ImportResult[] =>
  results.map((r, i) => {
    log.info(`imported ${r.written} ${r.sport} player-games from ${(due[i] as DueSeed).named}`);
    return r;
  });

/** A replay folder may carry the game history its recorded days need; import it once. */
export function ensureReplaySeed(store: Store, replayDir: string, seed: ReplaySeed | undefined, now: Date, log: RunLogger): ImportResult[] {
  const { due, skipped } = dueSeeds(store, replayDir, seed, now, log);
  return [...skipped, ...imported(log, due, due.map((d) => writeGameLogs(store, d, now)))];
}

/** What the import worker is given: the store file, the due files, the run's clock. */
export interface SeedJob {
  path: string;
  due: DueImport[];
  now: string;
}

/** What the worker posts back: its results, or why it could not write. */
export type SeedAnswer = { results: ImportResult[] } | { failure: string };

/** A replay's seed import, checked and made ready; `write` lets it write (once) and answers when it has. */
export interface SeedImport {
  write(): Promise<ImportResult[]>;
}

/**
 * ensureReplaySeed with the writing on a worker thread, so that a replay's first use (~24k lines
 * parsed and written, a quarter of a fresh snapshot process) overlaps the run's fetch and pricing
 * on another core. The files are checked here, at once; only a due import starts a worker, which
 * loads its modules and opens its own connection to the store file while the caller goes on, and
 * writes when `write` is called. The import holds the store's write lock until it commits: call
 * `write` once the caller's own writes are done, and await it before anything reads history.
 * Until then the worker does not keep the process alive. Without a compiled worker beside this
 * module (the TypeScript sources, under test) or for an in-memory store, `write` imports here,
 * synchronously, as ensureReplaySeed does.
 */
export function prepareReplaySeed(store: Store, replayDir: string, seed: ReplaySeed | undefined, now: Date, log: RunLogger): SeedImport {
  const { due, skipped } = dueSeeds(store, replayDir, seed, now, log);
  const file = new URL('./import-worker.js', import.meta.url);
  if (due.length === 0 || store.path === ':memory:' || !existsSync(file)) {
    let written: Promise<ImportResult[]> | null = null;
    return { write: () => (written ??= Promise.resolve([...skipped, ...imported(log, due, due.map((d) => writeGameLogs(store, d, now)))])) };
  }
  const job: SeedJob = { path: store.path, due: due.map(({ named: _, ...d }) => d), now: now.toISOString() };
  const worker = new Worker(file, { workerData: job });
  worker.unref();
  const answered = new Promise<ImportResult[]>((done, fail) => {
    let answer: SeedAnswer | null = null;
    worker.once('message', (a: SeedAnswer) => {
      answer = a;
      if ('results' in a) done([...skipped, ...imported(log, due, a.results)]);
      else fail(new Error(`history import failed: ${a.failure}`));
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (answer === null) fail(new Error(`the history import worker stopped (exit code ${code}) before it finished`));
    });
  });
  // Failing before `write` (its store would not open) is reported by `write`, not as an unhandled rejection.
  answered.catch(() => undefined);
  let released = false;
  return {
    write: () => {
      if (!released) {
        released = true;
        worker.ref();
        worker.postMessage('write');
      }
      return answered;
    },
  };
}
