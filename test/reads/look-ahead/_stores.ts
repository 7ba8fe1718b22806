import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect, it } from 'vitest';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config.js';
import type { ContextDeps } from '../../../src/feeds/context.js';
import { silentLogger } from '../../../src/feeds/sources.js';
import { createReplayTransport } from '../../../src/feeds/transport/index.js';
import { ContextCache } from '../../../src/store/cache.js';
import { openStore, type SqliteStore } from '../../../src/store/db.js';
import { toWire } from '../../../src/wire.js';
import { REPLAY_DIR, seededStore } from '../../helpers/replay-store.js';

/** A read's context on a store at a data clock, over the bundled replay (never a provider). */
export function contextDeps(store: SqliteStore, now: Date): ContextDeps {
  const replay = createReplayTransport(REPLAY_DIR, { now: () => now });
  return { store, config: loadConfig({}), cache: new ContextCache(store), providers: { source: 'replay', keyless: replay, odds: replay, close: async () => {} }, now, log: silentLogger };
}

/**
 * Three stores for a look-ahead check: `before` (the store at its clock), `after` (the same plus
 * only the real player lines dated `from` or later that the settled store holds: the games played
 * after the clock) and `settled` (the store after the settle itself).
 */
export function withGamesFrom(dir: string, files: { presettle: string; settled: string }, from: string): { before: SqliteStore; after: SqliteStore; settled: SqliteStore; inserted: number } {
  const withGames = join(dir, 'with-games.sqlite');
  copyFileSync(files.presettle, withGames);
  const after = openStore(withGames);
  after.sqlite.exec(`ATTACH DATABASE '${files.settled.replace(/'/g, "''")}' AS s`);
  const cols = (after.sqlite.prepare('select name from pragma_table_info(?)').all('player_game_stats') as Array<{ name: string }>).map((c) => `"${c.name}"`).filter((c) => c !== '"id"');
  const inserted = after.sqlite.prepare(`insert or ignore into player_game_stats (${cols.join(', ')}) select ${cols.join(', ')} from s.player_game_stats where date >= ?`).run(from).changes;
  after.sqlite.exec('DETACH DATABASE s');
  return { before: openStore(files.presettle), after, settled: openStore(files.settled), inserted };
}

/** The answer as a caller sees it (the wire form), so a Date and its ISO text compare alike. */
export const wireOf = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** One read model asked one question on a store. */
export type Read = (store: SqliteStore) => Promise<unknown>;

/** The answer as the wire would carry it (toWire, then JSON). */
export const seenOf = (v: unknown): unknown => wireOf(toWire(v));

/**
 * One case per read: its answer on `before` (the store at its clock) is not empty and equals its
 * answer on the other store (the night's games, or the settle, added). `stores` is called inside
 * each case, after the file's beforeAll has opened them.
 */
export function sameAnswerCases(reads: ReadonlyArray<[string, Read]>, what: string, stores: () => { before: SqliteStore; other: SqliteStore }): void {
  for (const [name, read] of reads) {
    it(`${name}: the same answer with ${what} in the store`, async () => {
      const { before, other } = stores();
      const without = seenOf(await read(before));
      expect(without).not.toBeNull();
      expect(seenOf(await read(other))).toEqual(without);
    }, 60_000);
  }
}

/** Closes the three look-ahead stores and removes their folder. */
export async function closeStores(dir: string, stores: ReadonlyArray<SqliteStore | undefined>): Promise<void> {
  for (const s of stores) await s?.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Two copies of the README loop's seeded store in a new folder: `early` after `first` ran on it,
 * `both` after `then` ran too (a look-ahead check reads `both` at an early clock and compares it
 * with `early`). Close them with closeStores(dir, [early, both]).
 */
export async function earlyAndBoth(
  name: string,
  first: (store: SqliteStore) => Promise<void>,
  then: (store: SqliteStore) => Promise<void>,
): Promise<{ dir: string; early: SqliteStore; both: SqliteStore; bothFile: string }> {
  const dir = mkdtempSync(join(tmpdir(), `propgrade-look-ahead-${name}-`));
  const earlyFile = join(dir, 'early.sqlite');
  const bothFile = join(dir, 'both.sqlite');
  const seeded = await seededStore();
  try {
    await first(seeded.store);
    seeded.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(seeded.path, earlyFile);
    await then(seeded.store);
    seeded.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(seeded.path, bothFile);
  } finally {
    seeded.cleanup();
  }
  return { dir, early: openStore(earlyFile), both: openStore(bothFile), bothFile };
}
