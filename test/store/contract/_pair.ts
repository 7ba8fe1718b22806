import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { SqliteStore, Store } from '../../../src/store/db.js';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore, openStoreAt } from '../../../src/store/db.js';
import { copyStore } from '../../../src/store/copy.js';
import { copyOn, type EngineStore } from '../../helpers/engines.js';
import { testPgAdminUrl } from '../../helpers/pg.js';
import { replayLoopFiles } from '../../helpers/replay-store.js';

/**
 * The store contract suites' fixture (issue 35): the README loop's files (two NBA snapshots on
 * 2025-11-05, then the next morning's settle) copied onto both engines, so every read can be asked
 * of both and the answers compared, and checked against the raw SQLite rows.
 */
export interface LoopPair {
  sqlite: SqliteStore;
  pg: Store;
  /** The SQLite side's connection, for raw figures. */
  raw: Database.Database;
  /** The pre-settle file's stores (only when asked for). */
  pre: { sqlite: SqliteStore; pg: Store; raw: Database.Database } | null;
  cleanup(): Promise<void>;
}

/** Time the loop build and two PostgreSQL copies may take on a loaded 2-core machine. */
export const SETUP_TIMEOUT = 180_000;

export async function loopPair(options: { presettle?: boolean } = {}): Promise<LoopPair> {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-contract-'));
  const files = await replayLoopFiles(dir);
  const opened: EngineStore[] = [];
  const open = async (path: string) => {
    const [s, p] = await Promise.all([copyOn('sqlite', path), icuCopyOn(path)]);
    opened.push(s, p);
    const sqlite = s.store as SqliteStore;
    return { sqlite, pg: p.store, raw: sqlite.sqlite };
  };
  const settled = await open(files.settled);
  const pre = options.presettle ? await open(files.presettle) : null;
  return {
    ...settled,
    pre,
    cleanup: async () => {
      for (const o of opened) await o.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: testPgAdminUrl(), application_name: 'propgrade-tests' });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * As copyOn('postgres', ...) (the copy is `db copy`'s own code), but into a database whose default
 * collation is ICU en-US, not the test cluster's C.UTF-8: there text compares by locale ('al horford'
 * after 'alex caruso', case folded), so every read that must order or compare text as SQLite does
 * (by bytes) is tested where the two differ, as on a server created with a locale default.
 */
async function icuCopyOn(sqlitePath: string): Promise<EngineStore> {
  const name = `propgrade_t_${process.pid}_${randomBytes(6).toString('hex')}`;
  await admin(`create database "${name}" template template0 locale_provider icu icu_locale 'en-US' locale 'C.UTF-8'`);
  const url = new URL(testPgAdminUrl());
  url.pathname = `/${name}`;
  const store = await openStoreAt(url.toString());
  const source = openStore(sqlitePath);
  try {
    await copyStore(source, store);
  } finally {
    await source.close();
  }
  return {
    engine: 'postgres',
    store,
    target: url.toString(),
    cleanup: async () => {
      await store.close();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}

/** Asks both engines the same read; asserts the answers deep-equal (order included) and returns SQLite's. */
export async function same<T>(pair: { sqlite: Store; pg: Store }, read: (store: Store) => Promise<T>): Promise<T> {
  const a = await read(pair.sqlite);
  const b = await read(pair.pg);
  expect(b).toStrictEqual(a);
  return a;
}

/** As `same`, for a read that promises no order: both answers compared sorted (by their JSON). */
export async function sameUnordered<T>(pair: { sqlite: Store; pg: Store }, read: (store: Store) => Promise<T[]>): Promise<T[]> {
  const a = await read(pair.sqlite);
  const b = await read(pair.pg);
  const sorted = (xs: T[]) => [...xs].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : JSON.stringify(x) > JSON.stringify(y) ? 1 : 0));
  expect(sorted(b)).toStrictEqual(sorted(a));
  return a;
}

/** One value of a raw SQLite query (the first column of its first row). */
export function rawValue<T = number>(raw: Database.Database, text: string, ...args: unknown[]): T {
  return raw.prepare(text).pluck().get(...args) as T;
}

/** The first column of every row of a raw SQLite query. */
export function rawColumn<T = string>(raw: Database.Database, text: string, ...args: unknown[]): T[] {
  return raw.prepare(text).pluck().all(...args) as T[];
}
