import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startApiServer } from '../../src/server/serve.js';
import { REPLAYED_STORE_REFUSAL } from '../../src/server/snapshot-runner.js';
import { openStore } from '../../src/store/db.js';
import { quiet, seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';

/**
 * A replayed store never calls a provider (issue 40 item 8). Before, the internal snapshot route
 * and the in-process cron of a server over a replayed store called the Odds API whenever
 * ODDS_API_KEY was set (1 request per internal snapshot). Every provider's base URL here points at
 * a loopback stand-in that counts each request it receives and answers 503; the key is set.
 */

const KEY = 'k'.repeat(32);
const INTERNAL_KEY = 'internal-key-replayed-store-0123';
let seeded: Seeded;
let standin: Server;
let requests = 0;
let env: Record<string, string>;
const servers: Running[] = [];

beforeAll(async () => {
  seeded = await seedStore();
  standin = createServer((_req, res) => {
    requests += 1;
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"stand-in"}');
  });
  await new Promise<void>((resolve) => standin.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(standin.address() as AddressInfo).port}`;
  env = {
    ODDS_API_KEY: KEY,
    INTERNAL_API_KEY: INTERNAL_KEY,
    ODDS_API_BASE_URL: `${base}/odds-api`,
    ESPN_BASE_URL: `${base}/espn`,
    ESPN_WEB_BASE_URL: `${base}/espn-web`,
    MLB_STATSAPI_BASE_URL: `${base}/mlb-statsapi`,
    SAVANT_BASE_URL: `${base}/savant`,
  };
}, 120_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  await new Promise<void>((resolve) => standin?.close(() => resolve()));
  seeded?.cleanup();
});

async function start(store: Seeded['store'], extra: Record<string, string> = {}): Promise<Running> {
  const s = await startServer({ store, config: loadConfig({ ...env, ...extra }), now: () => seeded.now, log: quiet });
  servers.push(s);
  return s;
}

const snapshot = (on: Running, what: string) => fetch(`${on.base}/api/internal/snapshot/${what}`, { method: 'POST', headers: { 'x-internal-key': INTERNAL_KEY } });

describe('the internal snapshot route on a replayed store', () => {
  it('without a replay folder: 503 UNAVAILABLE_ON_REPLAY naming the fix, and no request leaves the server', async () => {
    const api = await start(seeded.store);
    for (const what of ['nba', 'all']) {
      const res = await snapshot(api, what);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('UNAVAILABLE_ON_REPLAY');
      expect(body.error.message).toBe(REPLAYED_STORE_REFUSAL);
      expect(body.error.message).toContain('--replay');
      expect(body.error.message).not.toContain('127.0.0.1');
    }
    expect(requests).toBe(0);
  });

  it('with a replay folder (PROPGRADE_REPLAY) the run goes ahead from the recording, still with no request', async () => {
    const api = await start(seeded.store, { PROPGRADE_REPLAY: 'data/replay' });
    const res = await snapshot(api, 'nba');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { runs: Array<{ sport: string; status: string }> };
    expect(body.runs.map((r) => r.sport)).toEqual(['nba']);
    expect(requests).toBe(0);
  }, 120_000);

  it('the stand-in does count: the same route on a live (empty) store calls it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-live-store-'));
    const live = openStore(join(dir, 'pg.sqlite'));
    try {
      const api = await start(live);
      const res = await snapshot(api, 'nba');
      await res.arrayBuffer();
      console.info(`replayed store: 0 provider requests from the internal route; a live store's same call: ${requests}`);
      expect(requests).toBeGreaterThan(0);
    } finally {
      requests = 0;
      await live.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the in-process cron (SNAPSHOT_CRON) on a replayed store', () => {
  it('fires at its hour, refuses with the same message, and makes no request', { timeout: 60_000 }, async () => {
    requests = 0;
    const warnings: string[] = [];
    // A wall clock that runs from a few milliseconds before 14:00 UTC, one of the cron hours.
    const from = Date.parse('2026-12-01T13:59:59.950Z');
    const t0 = Date.now();
    const running = await startApiServer({
      store: seeded.store,
      config: loadConfig(env),
      port: 0,
      host: '127.0.0.1',
      cron: true,
      log: { info() {}, warn: (m) => warnings.push(m) },
      now: () => seeded.now,
      wallClock: () => new Date(from + (Date.now() - t0)),
    });
    try {
      expect(running.cronNext?.toISOString()).toBe('2026-12-01T14:00:00.000Z');
      for (let i = 0; i < 3000 && warnings.length === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
      expect(warnings).toEqual([`cron snapshot failed: ${REPLAYED_STORE_REFUSAL}`]);
      expect(requests).toBe(0);
    } finally {
      // The server's close also closes the store it was handed: give it a second connection's worth.
      await closeKeepingStore(running);
    }
  });
});

/** Closes the server's socket and cron without closing the shared seeded store. */
async function closeKeepingStore(running: { close(): Promise<void> }): Promise<void> {
  const close = seeded.store.close.bind(seeded.store);
  seeded.store.close = async () => undefined;
  try {
    await running.close();
  } finally {
    seeded.store.close = close;
  }
}
