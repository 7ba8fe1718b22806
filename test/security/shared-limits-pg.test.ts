import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { pruneStore } from '../../src/server/upkeep.js';
import { openStoreAt, type Store } from '../../src/store/db.js';
import { seedStoreOn, startServer, type Running, type SeededOn } from '../server/_harness.js';
import { raw } from '../store/contract/writes-helpers.js';

/**
 * Issue 40 item 5 on PostgreSQL: two servers, each with its own pool, on one database. Before, each
 * process kept its own limits in memory, so N servers allowed N times each (two servers: 120 stats
 * reads a minute from one caller instead of 60). Now the stats limit and the upstream budget count in
 * the store (kv_cache rows `limit:...`, one per caller and window) and the meters were already
 * there: one caller gets one limit across both servers, and the window rows go with the other
 * expired rows. The wall clock is pinned, so every request falls in one window.
 */

const WALL = new Date('2026-12-06T12:00:30Z');
const WINDOW_END = new Date('2026-12-06T12:01:00Z');

let seeded: SeededOn;
let second: Store;
let a: Running;
let b: Running;

beforeAll(async () => {
  seeded = await seedStoreOn('postgres');
  second = await openStoreAt(seeded.target);
  const config = loadConfig({ PROPGRADE_REPLAY: 'data/replay', TRUSTED_PROXIES: '127.0.0.1/32' });
  a = await startServer({ store: seeded.store, config, now: () => seeded.now, wallClock: () => WALL });
  b = await startServer({ store: second, config, now: () => seeded.now, wallClock: () => WALL });
}, 180_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await second?.close();
  await seeded?.cleanup();
});

async function send(on: Running, path: string, client: string, init: RequestInit = {}): Promise<{ status: number; retryAfter: string | null }> {
  const res = await fetch(on.base + path, { ...init, headers: { 'x-forwarded-for': client, ...(init.headers as Record<string, string> | undefined) } });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after') };
}

/** `n` requests from one client, alternating between the two servers; the statuses counted. */
async function alternate(path: string, client: string, n: number, init: RequestInit = {}): Promise<Record<number, number>> {
  const out: Record<number, number> = {};
  for (let i = 0; i < n; i += 1) {
    const { status } = await send(i % 2 === 0 ? a : b, path, client, init);
    out[status] = (out[status] ?? 0) + 1;
  }
  return out;
}

describe('two servers on one PostgreSQL database share each caller’s limits', () => {
  it('stats reads: 60 across both servers, then 429 on either (Retry-After to the window end); another caller has its own', async () => {
    expect(await alternate('/api/stats/cascade?player=Joel%20Embiid', '198.51.100.10', 80)).toEqual({ 200: 60, 429: 20 });
    const refused = await send(b, '/api/team/IND', '198.51.100.10');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe(String((WINDOW_END.getTime() - WALL.getTime()) / 1000));
    expect((await send(a, '/api/team/IND', '198.51.100.11')).status).toBe(200);
  }, 120_000);

  it('the upstream budget: 30 across both servers', async () => {
    expect(await alternate('/api/news/nba', '198.51.100.20', 40)).toEqual({ 200: 30, 429: 10 });
  }, 120_000);

  it('the anonymous scan meter (already in the store): 5 graded scans across both servers', async () => {
    const body = JSON.stringify({ player: 'Jalen Brunson', stat: 'points', line: 25.5, direction: 'over' });
    expect(await alternate('/api/scan', '198.51.100.30', 8, { method: 'POST', body, headers: { 'content-type': 'application/json' } })).toEqual({ 200: 5, 429: 3 });
  }, 120_000);

  it('one window row per caller, scope and window; the prune pass deletes them once the window has ended', async () => {
    const rows = await raw(seeded.store, "select key, cast(value as text) as value, expires_at as e from kv_cache where key like 'limit:%' order by key");
    // The stats budget of three callers, the upstream budget of one; the refused requests past each limit did not add to the count beyond the first refusal per server.
    expect(rows.map((r) => String(r['key']).replace(/:\d+$/, ''))).toEqual([
      'limit:stats:ip:198.51.100.10:60',
      'limit:stats:ip:198.51.100.11:60',
      'limit:upstream:ip:198.51.100.20:60',
    ]);
    expect(rows.every((r) => r['e'] === WINDOW_END.toISOString())).toBe(true);
    expect(Number(rows[0]!['value'])).toBeLessThanOrEqual(62);
    const still = await pruneStore(seeded.store, { wall: new Date(WINDOW_END.getTime() - 1), data: seeded.now });
    expect(still.windows).toBe(0);
    const pass = await pruneStore(second, { wall: WINDOW_END, data: seeded.now });
    expect(pass.windows).toBe(3);
    expect(await raw(seeded.store, "select key from kv_cache where key like 'limit:%'")).toEqual([]);
  }, 120_000);
});
