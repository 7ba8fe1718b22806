/**
 * startReplaySeed imports a replay's history on a worker thread (src/pipeline/import-worker.ts).
 * The worker exists only compiled, so this file drives dist/ (built by `npm test` before vitest):
 * the worker's import must leave the store exactly as the in-thread import does, say the same log
 * line, skip a file already imported without starting a worker, and fail loudly when it cannot write.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReplayManifest } from '../../src/feeds/transport/replay.js';
import { ensureReplaySeed, type ReplaySeed } from '../../src/pipeline/import-history.js';
import { openStore, type Store } from '../../src/store/db.js';
import { collectingLogger, REPLAY_DIR } from '../helpers/replay-store.js';

const DIST = resolve('dist/pipeline/import-history.js');
type Compiled = typeof import('../../src/pipeline/import-history.js');
type CompiledDb = typeof import('../../src/store/db.js');

const NOW = new Date('2025-11-04T00:00:00Z');
const seed = readReplayManifest(REPLAY_DIR).seed as ReplaySeed;
let dir: string;
let compiled: Compiled;
let compiledDb: CompiledDb;

beforeAll(async () => {
  if (!existsSync(DIST)) throw new Error('dist/ is missing: run `npm run build` before this test');
  compiled = (await import(pathToFileURL(DIST).href)) as Compiled;
  compiledDb = (await import(pathToFileURL(resolve('dist/store/db.js')).href)) as CompiledDb;
  dir = mkdtempSync(join(tmpdir(), 'propgrade-seed-worker-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const everyRow = (store: Store, table: string) => store.sqlite.prepare(`select * from "${table}" order by rowid`).raw(true).all();

describe('startReplaySeed (worker thread)', () => {
  it('writes the same rows and marker as the in-thread import, and says the same line', async () => {
    const onWorker = compiledDb.openStore(join(dir, 'worker.sqlite'));
    const inThread = openStore(join(dir, 'thread.sqlite'));
    try {
      const workerLog = collectingLogger();
      const results = await compiled.startReplaySeed(onWorker, REPLAY_DIR, seed, NOW, workerLog);
      const threadLog = collectingLogger();
      const expected = ensureReplaySeed(inThread, REPLAY_DIR, seed, NOW, threadLog);

      expect(results).toEqual(expected);
      expect(results.map((r) => r.written)).toEqual([23_822]);
      expect(workerLog.infos).toEqual(threadLog.infos);
      expect(workerLog.infos).toEqual(['imported 23822 nba player-games from history/nba-gamelogs-before-2025-11-04.csv']);
      expect(everyRow(onWorker, 'player_game_stats')).toEqual(everyRow(inThread, 'player_game_stats'));
      expect(everyRow(onWorker, 'kv_cache')).toEqual(everyRow(inThread, 'kv_cache'));

      // Imported once: the second call finds the marker and starts no worker.
      const again = await compiled.startReplaySeed(onWorker, REPLAY_DIR, seed, NOW, collectingLogger());
      expect(again.map((r) => r.skipped)).toEqual([true]);
    } finally {
      onWorker.close();
      inThread.close();
    }
  });

  it('rejects with the worker’s error when the import cannot write, and marks nothing imported', async () => {
    const store = compiledDb.openStore(join(dir, 'broken.sqlite'));
    try {
      store.sqlite.exec('drop table player_game_stats');
      await expect(compiled.startReplaySeed(store, REPLAY_DIR, seed, NOW, collectingLogger())).rejects.toThrow(/no such table: player_game_stats/);
      expect(store.sqlite.prepare(`select count(*) from kv_cache where key like 'import:gamelogs:%'`).pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });
});
