/**
 * prepareReplaySeed imports a replay's history on a worker thread (src/pipeline/import-worker.ts).
 * The worker exists only compiled, so this file drives dist/ (built by `npm test` before vitest):
 * the worker's import must leave the store exactly as the in-thread import does, say the same log
 * line, skip a file already imported without starting a worker, and fail loudly when it cannot write.
 */
import { execFileSync } from 'node:child_process';
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

describe('prepareReplaySeed (worker thread)', () => {
  it('writes the same rows and marker as the in-thread import, and says the same line', async () => {
    const onWorker = compiledDb.openStore(join(dir, 'worker.sqlite'));
    const inThread = openStore(join(dir, 'thread.sqlite'));
    try {
      const workerLog = collectingLogger();
      const results = await compiled.prepareReplaySeed(onWorker, REPLAY_DIR, seed, NOW, workerLog).write();
      const threadLog = collectingLogger();
      const expected = ensureReplaySeed(inThread, REPLAY_DIR, seed, NOW, threadLog);

      expect(results).toEqual(expected);
      expect(results.map((r) => r.written)).toEqual([23_822]);
      expect(workerLog.infos).toEqual(threadLog.infos);
      expect(workerLog.infos).toEqual(['imported 23822 nba player-games from history/nba-gamelogs-before-2025-11-04.csv']);
      expect(everyRow(onWorker, 'player_game_stats')).toEqual(everyRow(inThread, 'player_game_stats'));
      expect(everyRow(onWorker, 'kv_cache')).toEqual(everyRow(inThread, 'kv_cache'));

      // Imported once: the second call finds the marker and starts no worker.
      const again = await compiled.prepareReplaySeed(onWorker, REPLAY_DIR, seed, NOW, collectingLogger()).write();
      expect(again.map((r) => r.skipped)).toEqual([true]);
    } finally {
      onWorker.close();
      inThread.close();
    }
  });

  it('writes nothing until write() lets it (the run\u2019s own first writes go first)', async () => {
    const store = compiledDb.openStore(join(dir, 'gated.sqlite'));
    try {
      const prepared = compiled.prepareReplaySeed(store, REPLAY_DIR, seed, NOW, collectingLogger());
      // Long enough for the worker to load, open the store and (were it not gated) write.
      await new Promise((done) => setTimeout(done, 400));
      const games = () => store.sqlite.prepare('select count(*) from player_game_stats').pluck().get();
      expect(games()).toBe(0);
      // The caller can write meanwhile: the worker holds no lock.
      store.sqlite.prepare(`insert into kv_cache (key, value, updated_at) values ('probe', '1', '2025-11-04T00:00:00Z')`).run();
      await prepared.write();
      expect(games()).toBe(23_822);
    } finally {
      store.close();
    }
  });

  it('does not keep the process alive when nothing lets it write (a command that failed first)', () => {
    const path = join(dir, 'abandoned.sqlite');
    compiledDb.openStore(path).close();
    const script = `
      const { openStore } = await import(${JSON.stringify(pathToFileURL(resolve('dist/store/db.js')).href)});
      const { prepareReplaySeed } = await import(${JSON.stringify(pathToFileURL(DIST).href)});
      const store = openStore(${JSON.stringify(path)});
      prepareReplaySeed(store, 'data/replay', ${JSON.stringify(seed)}, new Date(${JSON.stringify(NOW.toISOString())}), { info() {}, warn() {} });
      console.log('prepared');`;
    const started = Date.now();
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(out.trim()).toBe('prepared');
    expect(Date.now() - started).toBeLessThan(20_000);
    const check = openStore(path);
    try {
      expect(check.sqlite.prepare('select count(*) from player_game_stats').pluck().get()).toBe(0);
    } finally {
      check.close();
    }
  });

  it('rejects with the worker’s error when the import cannot write, and marks nothing imported', async () => {
    const store = compiledDb.openStore(join(dir, 'broken.sqlite'));
    try {
      store.sqlite.exec('drop table player_game_stats');
      await expect(compiled.prepareReplaySeed(store, REPLAY_DIR, seed, NOW, collectingLogger()).write()).rejects.toThrow(/no such table: player_game_stats/);
      expect(store.sqlite.prepare(`select count(*) from kv_cache where key like 'import:gamelogs:%'`).pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });
});
