import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { readClock } from '../../src/reads/read-clock.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { quiet, startServer, type Running } from './_harness.js';

/** An MLB route's date window is read on the MLB clock of a replayed store, not on the newest (NBA) snapshot's. */
let dir: string;
let store: SqliteStore;
let api: Running;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-sport-window-'));
  const db = join(dir, 'pg.sqlite');
  expect((await runCli(['--db', db, 'snapshot', 'mlb', '--replay', 'data/replay', '--quiet'])).code).toBe(0);
  expect((await runCli(['--db', db, 'snapshot', 'nba', '--replay', 'data/replay', '--quiet'])).code).toBe(0);
  store = openStore(db);
  const clock = await readClock(store, null, new Date('2026-11-27T12:00:00Z'), 180);
  api = await startServer({ store, config: loadConfig({ PROPGRADE_REPLAY: 'data/replay' }), now: (sport?: string) => (sport ? clock.forSport(sport) : clock.now), wallClock: () => new Date('2026-11-27T12:00:00Z'), log: quiet });
}, 120_000);

afterAll(async () => {
  await api?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('date windows on the sport’s own clock', () => {
  it('lineup 2025-08-16 is inside the MLB clock’s window (81 days before the NBA snapshot, outside its 30)', async () => {
    const inside = await fetch(`${api.base}/api/stats/lineup?sport=mlb&date=2025-08-16`);
    expect(inside.status).not.toBe(400);
    // 2025-07-01 is 46 days before the MLB clock: outside the window on that clock too.
    const outside = await fetch(`${api.base}/api/stats/lineup?sport=mlb&date=2025-07-01`);
    expect(outside.status).toBe(400);
  });
});
