import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { acquireRunLock } from '../../src/store/repo/run-lock.js';
import { openStore } from '../../src/store/db.js';
import { addCreditsSpent } from '../../src/store/repo/odds-credits.js';
import { quiet, seedStore, startServer, type Running, type Seeded } from './_harness.js';

const KEY = 'health-internal-key-0123456789';
const WALL = new Date('2026-11-27T12:00:00Z');
let seeded: Seeded;
let api: Running;

beforeAll(async () => {
  seeded = await seedStore({ INTERNAL_API_KEY: KEY, ODDS_API_DAILY_BUDGET: '500' });
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => WALL, log: quiet });
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

describe('GET /healthz and /readyz', () => {
  it('healthz answers 200 without touching the store, never cached', async () => {
    const res = await fetch(`${api.base}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('readyz on the replayed store: 200, nba ready as of its own snapshot, the rest never run', async () => {
    const res = await fetch(`${api.base}/readyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, any>;
    expect(body['ready']).toBe(true);
    expect(body['migrations']).toEqual({ current: true, pending: [] });
    const nba = body['sports'].find((s: any) => s.sport === 'nba');
    // The seeded store holds the 17:05 snapshot of the bundled day (test/server/_harness.ts).
    expect(nba).toMatchObject({ state: 'replayed', newest_snapshot_at: '2025-11-05T17:05:00.000Z', age_minutes: 0, clock: 'replay_snapshot' });
    expect(body['sports'].filter((s: any) => s.state === 'never_run').map((s: any) => s.sport).sort()).toEqual(['mlb', 'soccer', 'wnba']);
    expect(body).not.toHaveProperty('credits');
  });

  it('credits and the lock holder’s host only with the internal key', async () => {
    await addCreditsSpent(seeded.store, WALL, 114);
    const lock = await acquireRunLock(seeded.store, 'snapshot:nba', 'pid:4242@runner-host', () => WALL);
    try {
      const open = (await (await fetch(`${api.base}/readyz`)).json()) as Record<string, any>;
      expect(open['locks']).toEqual([{ name: 'snapshot:nba', owner: 'pid:4242', since: WALL.toISOString(), lease_until: '2026-11-27T12:30:00.000Z', expired: false }]);
      expect(JSON.stringify(open)).not.toContain('runner-host');
      const operator = (await (await fetch(`${api.base}/readyz`, { headers: { 'x-internal-key': KEY } })).json()) as Record<string, any>;
      expect(operator['credits']).toEqual({ spent_today: 114, daily_budget: 500, left_today: 386 });
      expect(operator['locks'][0].owner).toBe('pid:4242@runner-host');
    } finally {
      if ('release' in lock) await lock.release();
    }
  });
});

describe('readyz when not ready', () => {
  it('a store with no snapshot: 503 in the error envelope, the reason in details', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-ready-'));
    const store = openStore(join(dir, 'empty.sqlite'));
    const empty = await startServer({ store, config: loadConfig({}), wallClock: () => WALL, log: quiet });
    try {
      const res = await fetch(`${empty.base}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as Record<string, any>;
      expect(body['error']['code']).toBe('UNAVAILABLE');
      expect(body['error']['details']['reasons']).toEqual(['no snapshot stored yet: run `propgrade snapshot all`']);
    } finally {
      await empty.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a live store whose newest snapshot is past 3x the interval on the wall clock: 503 naming the sport', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-ready-'));
    const store = openStore(join(dir, 'live.sqlite'));
    store.sqlite.prepare("insert into snapshots (sport, taken_at, slate_date, graded_count, row_count, source) values ('nba', '2026-11-27T02:00:00.000Z', '2026-11-26', 10, 12, 'live')").run();
    const live = await startServer({ store, config: loadConfig({ SNAPSHOT_EXPECTED_INTERVAL: '180' }), wallClock: () => WALL, log: quiet });
    try {
      const res = await fetch(`${live.base}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as Record<string, any>;
      // 02:00 to 12:00 is 600 min, past 3 x 180.
      expect(body['error']['details']['reasons']).toEqual(['nba: newest snapshot 600 min old, past 3x the expected 180 min']);
    } finally {
      await live.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
