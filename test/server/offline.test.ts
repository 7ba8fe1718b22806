import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLiveTransport } from '../../src/feeds/transport/live.js';
import { redactUrl } from '../../src/feeds/transport/replay-key.js';
import type { Transport } from '../../src/feeds/transport/types.js';
import { runSnapshotJob } from '../../src/jobs/snapshot.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { kvDelete } from '../../src/store/repo/kv.js';
import { readCalls, type ContractCall } from './_contract-calls.js';
import { quiet, REPLAY_NOW, startServer, type Running } from './_harness.js';
import { forbiddenTransport, guardNetwork, type NetworkGuard } from '../helpers/no-network.js';

/**
 * Issue 33 item 6: a replayed `serve` makes no outbound request, and no body carries an upstream
 * URL, host name, resolver error or file path. The store is graded by the real snapshot job over
 * data/replay (which remembers the folder); the server is started as `propgrade serve` starts it
 * on that store (no PROPGRADE_REPLAY, the data clock at the newest snapshot), with a provider
 * transport that records every call (the test fails on any) and a guard on every socket.
 * Then the same routes on a live store whose providers fail: the body says why in public words,
 * the server log carries the detail.
 */

const ROWS = {
  graded: { player: 'Jalen Brunson', stat: 'points', line: 27.5, side: 'over' as const },
  refused: { player: 'Jalen Brunson', stat: 'points', line: 27.5, side: 'over' as const },
};
const GETS: ContractCall[] = readCalls(ROWS, REPLAY_NOW).filter((c) => c.method === 'GET');
/** The routes that can reach a provider (docs/context.md, docs/stats.md). */
const CONTEXT_OPS = /^GET \/api\/(live|news|futures|combat|fight|stats)\//;
/** The providers' API hosts (a news item's own article link to www.espn.com is content, not an upstream). */
const HOSTS = /api\.espn\.com|statsapi\.mlb\.com|baseballsavant|the-odds-api/i;
const RESOLVER = /ENOTFOUND|getaddrinfo|EAI_AGAIN|ECONNREFUSED/;

let dir: string;
let store: SqliteStore;
let guard: NetworkGuard;

async function get(base: string, call: ContractCall): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(base + call.path, { headers: call.headers ?? {} });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* an HTML page */
  }
  return { status: res.status, text, json };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-offline-'));
  store = openStore(join(dir, 'pg.sqlite'));
  const [nba] = await runSnapshotJob({ store, config: loadConfig({}), sports: ['nba'], now: REPLAY_NOW, pinned: false, replayDir: 'data/replay', recordDir: null, log: quiet });
  expect(nba?.status).toBe('ok');
  guard = guardNetwork();
}, 180_000);
afterAll(async () => {
  guard?.restore();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a replayed serve calls no provider', () => {
  let api: Running;
  let upstream: ReturnType<typeof forbiddenTransport>;
  const warnings: string[] = [];

  beforeAll(async () => {
    upstream = forbiddenTransport();
    // As `serve` on this store: no PROPGRADE_REPLAY, the read clock at the newest (replayed) snapshot.
    api = await startServer({ store, config: loadConfig({ FUTURES_ENABLED: '1', ODDS_API_KEY: 'never-used' }), now: () => REPLAY_NOW, log: { info() {}, warn: (m) => warnings.push(m) }, transport: upstream, limits: { statsPerWindow: 100_000 } });
  });
  afterAll(() => api?.close());

  it('every GET route of /openapi.json, with real values: no call, no socket, no upstream host or resolver text in a body', async () => {
    const doc = (await get(api.base, { op: 'GET /openapi.json', method: 'GET', path: '/openapi.json' })).json as { paths: Record<string, Record<string, unknown>> };
    const getOps = Object.entries(doc.paths).flatMap(([p, methods]) => ('get' in methods ? [`GET ${p}`] : []));
    expect(getOps.filter((op) => !GETS.some((c) => c.op === op))).toEqual([]);
    for (const call of GETS) {
      const r = await get(api.base, call);
      expect(r.status, call.path).toBeLessThan(500);
      expect(upstream.calls.map((c) => c.url), call.path).toEqual([]);
      if (CONTEXT_OPS.test(call.op)) {
        expect(HOSTS.exec(r.text)?.[0], call.path).toBeUndefined();
        expect(RESOLVER.exec(r.text)?.[0], call.path).toBeUndefined();
      }
    }
    expect(guard.attempts).toEqual([]);
  }, 120_000);

  it('news answers from the recording the store was graded from; live at the store clock says its box scores are not recorded yet', async () => {
    const news = await get(api.base, { op: '', method: 'GET', path: '/api/news/mlb' });
    expect(news.status).toBe(200);
    expect(news.json).toMatchObject({ sport: 'mlb', available: true });
    expect(news.json.items.length).toBeGreaterThan(0);
    const live = await get(api.base, { op: '', method: 'GET', path: '/api/live/nba?date=2025-11-05' });
    expect(live.status).toBe(200);
    expect(live.json).toMatchObject({ sport: 'nba', date: '2025-11-05', available: false });
    expect(live.json.reason).toBe('no ESPN nba scoreboard for 2025-11-05: not recorded yet (only recordings after 2025-11-05T17:05:00.000Z)');
    expect(live.text).not.toMatch(/http/);
    expect(upstream.calls).toEqual([]);
    expect(guard.attempts).toEqual([]);
  });

  it('served the morning after (serve --now), live tracks the recorded box scores', async () => {
    const after = await startServer({ store, config: loadConfig({}), now: () => new Date('2025-11-06T12:00:00Z'), log: quiet, transport: upstream });
    try {
      const live = await get(after.base, { op: '', method: 'GET', path: '/api/live/nba?date=2025-11-05' });
      expect(live.json).toMatchObject({ available: true, tracking: true });
      expect(live.json.rows.length).toBeGreaterThan(0);
    } finally {
      await after.close();
    }
    expect(upstream.calls).toEqual([]);
  });

  it('a replayed store whose recording is not known: 503 UNAVAILABLE_ON_REPLAY on the provider routes, the store-backed reads as before, still no call', async () => {
    await kvDelete(store, 'meta:replay-folder');
    const blind = await startServer({ store, config: loadConfig({ FUTURES_ENABLED: '1' }), now: () => REPLAY_NOW, log: quiet, transport: upstream, limits: { statsPerWindow: 100_000 } });
    try {
      for (const path of ['/api/news/mlb', '/api/live/nba?date=2025-11-05', '/api/futures/mlb', '/api/combat/2025-09-27', '/api/fight/401801745', '/api/stats/game/716896?sport=mlb', '/api/stats/pitcher/Carlos%20Rod%C3%B3n/arsenal?season=2022', '/api/stats/lineup?sport=mlb&date=2025-11-05', '/api/stats/depth?team=ATL&sport=mlb']) {
        const r = await get(blind.base, { op: '', method: 'GET', path });
        expect(r.status, path).toBe(503);
        expect(r.json.error.code, path).toBe('UNAVAILABLE_ON_REPLAY');
        expect(r.json.error.message, path).toMatch(/unavailable on a replayed store: .*--replay <folder>/);
      }
      const stored = await get(blind.base, { op: '', method: 'GET', path: '/api/stats/game/2025-11-03:NY' });
      expect(stored.status).toBe(200);
      expect(stored.json.available).toBe(true);
    } finally {
      await blind.close();
    }
    expect(upstream.calls).toEqual([]);
    expect(guard.attempts).toEqual([]);
  });
});

describe('a live store whose providers fail: public words in the body, the detail in the log', () => {
  let live: SqliteStore;
  let liveDir: string;
  const servers: Server[] = [];

  beforeAll(async () => {
    liveDir = mkdtempSync(join(tmpdir(), 'pg-offline-live-'));
    live = openStore(join(liveDir, 'pg.sqlite'));
    await runSnapshotJob({ store: live, config: loadConfig({}), sports: ['nba'], now: REPLAY_NOW, pinned: false, replayDir: 'data/replay', recordDir: null, log: quiet });
    // The same graded day, as a live run would have stored it: the store is not replayed.
    live.sqlite.exec("UPDATE snapshots SET source = 'live'");
  }, 180_000);
  afterAll(async () => {
    for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
    await live?.close();
    rmSync(liveDir, { recursive: true, force: true });
  });

  /** Every context route's body: no URL, host, resolver text, loopback address or file path; the log lines collected. */
  async function sweep(transport: Transport, env: Record<string, string> = {}): Promise<{ warnings: string[]; bodies: string[] }> {
    const warnings: string[] = [];
    const api = await startServer({ store: live, config: loadConfig({ FUTURES_ENABLED: '1', ODDS_API_KEY: 'test-key', ...env }), now: () => REPLAY_NOW, log: { info() {}, warn: (m) => warnings.push(m) }, transport, limits: { statsPerWindow: 100_000 } });
    const bodies: string[] = [];
    try {
      for (const call of GETS.filter((c) => CONTEXT_OPS.test(c.op))) {
        const r = await get(api.base, call);
        expect(r.status, call.path).toBeLessThan(500);
        // No URL of any scheme ('HTTP 500' is a status, and says so).
        expect(/http/.exec(r.text) ? r.text : '', call.path).toBe('');
        expect(HOSTS.exec(r.text)?.[0], call.path).toBeUndefined();
        expect(RESOLVER.exec(r.text)?.[0], call.path).toBeUndefined();
        expect(/127\.0\.0\.1|localhost|\/tmp\/|\/work\/|manifest\.json/.exec(r.text)?.[0], call.path).toBeUndefined();
        bodies.push(r.text);
      }
    } finally {
      await api.close();
    }
    return { warnings, bodies };
  }

  it('a resolver failure (the live transport’s own words): hidden with "could not be reached"; the log names the host and the error', async () => {
    const dns: Transport = {
      kind: 'live',
      async fetch(req) {
        const host = new URL(req.url).hostname;
        return { ok: false, status: null, reason: `network error ENOTFOUND: getaddrinfo ENOTFOUND ${host} (${redactUrl(req.url)}) (after 2 attempts)` };
      },
    };
    const { warnings, bodies } = await sweep(dns);
    expect(bodies.some((b) => b.includes('the provider could not be reached'))).toBe(true);
    expect(warnings.some((w) => w.includes('getaddrinfo ENOTFOUND site.api.espn.com') && w.includes('https://site.api.espn.com/'))).toBe(true);
    expect(warnings.some((w) => w.includes('statsapi.mlb.com'))).toBe(true);
    expect(warnings.some((w) => w.includes('baseballsavant.mlb.com'))).toBe(true);
    expect(warnings.some((w) => w.includes('api.the-odds-api.com'))).toBe(true);
  }, 120_000);

  it('HTTP 500 from a loopback stand-in through the real live transport: "answered HTTP 500" in the body, the URL in the log', async () => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('upstream exploded');
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const real = createLiveTransport({ timeoutMs: 5_000, retries: 0, concurrencyPerHost: 4, userAgent: 'propgrade-test' });
    const standIn: Transport = { kind: 'live', fetch: (req) => real.fetch({ ...req, url: req.url.replace(/^https:\/\/[^/]+/, base) }), close: () => real.close() };
    try {
      const { warnings, bodies } = await sweep(standIn);
      expect(hits.length).toBeGreaterThan(0);
      expect(bodies.some((b) => b.includes('the provider answered HTTP 500'))).toBe(true);
      // The log names the provider and the address it was sent to (live.ts).
      expect(warnings.some((w) => w.includes('HTTP 500 from ') && w.includes(`${base}/`))).toBe(true);
    } finally {
      await real.close();
    }
  }, 120_000);

  it('a wrong PROPGRADE_REPLAY: the body says the folder could not be read, the path is in the log only', async () => {
    const wrong = resolve(liveDir, 'no-such-replay');
    const { warnings, bodies } = await sweep(forbiddenTransport(), { PROPGRADE_REPLAY: wrong });
    expect(bodies.some((b) => b.includes('the replay folder (PROPGRADE_REPLAY) could not be read'))).toBe(true);
    expect(bodies.every((b) => !b.includes('no-such-replay'))).toBe(true);
    expect(warnings.some((w) => w.includes(wrong))).toBe(true);
  }, 120_000);
});
