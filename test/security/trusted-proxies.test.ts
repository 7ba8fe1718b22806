import { BlockList } from 'node:net';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { nearestUntrusted, normalizeAddress, proxySettingsWarning } from '../../src/server/client-address.js';
import { gradedRows } from '../../src/store/schema.js';
import { runCli } from '../helpers/cli.js';
import { seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';

/**
 * Behind the proxy (issue 34 item 5): from a TRUSTED_PROXIES peer every per-address limit and meter
 * keys on the nearest untrusted hop of X-Forwarded-For; from anyone else the header is ignored.
 * The test's own requests come from 127.0.0.1, so TRUSTED_PROXIES=127.0.0.1/32 makes the test the
 * proxy, and a server without it sees the test as a direct caller. The wall clock is pinned: every
 * window below is the same minute.
 */

const WALL = new Date('2026-11-27T20:00:00Z');
const STATS_PATH = '/api/team/IND';

let seeded: Seeded;
let behindProxy: Running;
let direct: Running;
let headerOnly: Running;
const warnings: string[] = [];

beforeAll(async () => {
  seeded = await seedStore();
  const start = (env: Record<string, string>) =>
    startServer({ store: seeded.store, config: loadConfig({ PROPGRADE_REPLAY: 'data/replay', ...env }), now: () => seeded.now, wallClock: () => WALL, log: { info() {}, warn: (m: string) => warnings.push(m) } });
  behindProxy = await start({ TRUSTED_PROXIES: '127.0.0.1/32' });
  direct = await start({});
  headerOnly = await start({ TRUSTED_PROXY_IP_HEADER: 'x-forwarded-for' });
}, 120_000);
afterAll(async () => {
  for (const s of [behindProxy, direct, headerOnly]) await s?.close();
  seeded?.cleanup();
});

const get = (on: Running, path: string, forwardedFor?: string) => fetch(on.base + path, { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });
/** 300 distinct client addresses in the benchmark range 198.18.0.0/15, none of them trusted. */
const client = (i: number) => `198.18.${i >> 8}.${i & 255}`;

async function statuses(on: Running, path: string, forwarded: (i: number) => string | undefined, n: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let i = 0; i < n; i += 1) {
    const res = await get(on, path, forwarded(i));
    await res.arrayBuffer();
    out.set(res.status, (out.get(res.status) ?? 0) + 1);
  }
  return out;
}

describe('TRUSTED_PROXIES=127.0.0.1/32: the stats budget keys on the forwarded client', () => {
  it('300 stats reads forwarded for 300 different clients: no 429', async () => {
    expect(await statuses(behindProxy, STATS_PATH, client, 300)).toEqual(new Map([[200, 300]]));
  }, 120_000);

  it('300 stats reads forwarded for one client: the first 60 pass, the other 240 are 429 with Retry-After', async () => {
    expect(await statuses(behindProxy, STATS_PATH, () => '203.0.113.50', 300)).toEqual(
      new Map([
        [200, 60],
        [429, 240],
      ]),
    );
    const over = await get(behindProxy, STATS_PATH, '203.0.113.50');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('60');
  }, 120_000);

  it('a spoofed left-most hop changes nothing: the nearest untrusted hop is the one the proxy saw', async () => {
    expect((await get(behindProxy, STATS_PATH, '1.2.3.4, 203.0.113.50')).status).toBe(429);
    // Trusted hops are skipped right to left: the client behind two of our proxies is still found.
    expect((await get(behindProxy, STATS_PATH, '203.0.113.51, 127.0.0.1')).status).toBe(200);
    // An IPv6 client, bracketed with a port as some proxies write it, is its own budget.
    expect((await get(behindProxy, STATS_PATH, '[2001:db8::7]:4431')).status).toBe(200);
  });
});

describe('without TRUSTED_PROXIES a forwarded header changes no budget', () => {
  it('300 stats reads each forwarded for a different client: 60 pass and 240 are 429, as from one address', async () => {
    expect(await statuses(direct, STATS_PATH, client, 300)).toEqual(
      new Map([
        [200, 60],
        [429, 240],
      ]),
    );
  }, 120_000);

  it('TRUSTED_PROXY_IP_HEADER alone is ignored, and the server says so at start', async () => {
    expect(await statuses(headerOnly, STATS_PATH, client, 61)).toEqual(
      new Map([
        [200, 60],
        [429, 1],
      ]),
    );
    expect(warnings.some((w) => w.includes('TRUSTED_PROXY_IP_HEADER') && w.includes('ignored without TRUSTED_PROXIES'))).toBe(true);
    expect(proxySettingsWarning(loadConfig({ TRUSTED_PROXY_IP_HEADER: 'x-real-ip', TRUSTED_PROXIES: '10.0.0.0/8' }))).toBeNull();
  });
});

describe('every per-address limit follows the same address', () => {
  const scanBody = () => {
    const r = seeded.store.db.select().from(gradedRows).where(and(eq(gradedRows.grade, 'A'), isNotNull(gradedRows.fairOdds))).orderBy(gradedRows.id).limit(1).get()!;
    return JSON.stringify({ player: r.player, stat: r.statType, line: r.line, direction: r.side });
  };
  const scan = (on: Running, forwardedFor: string) => fetch(`${on.base}/api/scan`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor }, body: scanBody() });

  it('the anonymous scan meter: 5 graded reads per forwarded client, another client has its own 5', async () => {
    const a: number[] = [];
    for (let i = 0; i < 6; i += 1) a.push((await scan(behindProxy, '203.0.113.60')).status);
    expect(a).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await scan(behindProxy, '203.0.113.61')).status).toBe(200);
    // Directly reached, the header names nobody: every caller is the socket address.
    const d: number[] = [];
    for (let i = 0; i < 6; i += 1) d.push((await scan(direct, `203.0.113.${70 + i}`)).status);
    expect(d).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('the upstream budget: 30 per minute per forwarded client', async () => {
    expect(await statuses(behindProxy, '/api/news/nba', () => '203.0.113.80', 31)).toEqual(
      new Map([
        [200, 30],
        [429, 1],
      ]),
    );
    expect((await get(behindProxy, '/api/news/nba', '203.0.113.81')).status).toBe(200);
  });
});

describe('the walk and the setting', () => {
  const list = new BlockList();
  list.addSubnet('10.0.0.0', 8, 'ipv4');
  list.addAddress('127.0.0.1', 'ipv4');
  list.addSubnet('fd00::', 8, 'ipv6');

  it('walks right to left skipping trusted hops, IPv4 and IPv6 alike', () => {
    expect(nearestUntrusted(list, '10.1.1.1', ['203.0.113.9', '10.2.2.2'])).toBe('203.0.113.9');
    expect(nearestUntrusted(list, 'fd00::1', ['2001:db8::1', 'fd12::5'])).toBe('2001:db8::1');
    expect(nearestUntrusted(list, '10.1.1.1', ['6.6.6.6', '2001:db8::2', '10.9.9.9'])).toBe('2001:db8::2');
    // Every hop trusted: the left-most trusted hop (nothing else is known); no header: the peer.
    expect(nearestUntrusted(list, '10.1.1.1', ['10.3.3.3', '127.0.0.1'])).toBe('10.3.3.3');
    expect(nearestUntrusted(list, '10.1.1.1', [])).toBe('10.1.1.1');
    // A hop that is not an address stops the walk at the trusted hop before it: no name is chosen by the caller.
    expect(nearestUntrusted(list, '10.1.1.1', ['203.0.113.9', 'unknown', '10.2.2.2'])).toBe('10.2.2.2');
  });

  it('normalizes mapped, bracketed and ported addresses; refuses names', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress(' 203.0.113.9:5123 ')).toBe('203.0.113.9');
    expect(normalizeAddress('[2001:DB8::1]:443')).toBe('2001:db8::1');
    expect(normalizeAddress('2001:db8::1')).toBe('2001:db8::1');
    for (const bad of ['example.com', '', '1.2.3', '999.1.1.1', '[1.2.3.4']) expect(normalizeAddress(bad), bad).toBeNull();
  });

  it('TRUSTED_PROXIES accepts addresses and CIDRs of both families; anything else fails at start, exit 2', async () => {
    expect(loadConfig({ TRUSTED_PROXIES: ' 127.0.0.1/32, ::1 , fd00::/8,10.0.0.0/8' }).TRUSTED_PROXIES).toEqual(['127.0.0.1/32', '::1', 'fd00::/8', '10.0.0.0/8']);
    expect(loadConfig({}).TRUSTED_PROXIES).toBeNull();
    for (const bad of ['10.0.0.0/33', '::1/129', 'proxy.internal', '10.0.0.0/8/1', '300.1.1.1', '10.0.0.0/x', '10.0.0.0/']) {
      const error = (() => {
        try {
          loadConfig({ TRUSTED_PROXIES: bad });
          return null;
        } catch (e) {
          return e;
        }
      })();
      expect(error, bad).toBeInstanceOf(AppError);
      expect((error as AppError).message, bad).toContain('TRUSTED_PROXIES');
    }
    const run = await runCli(['serve', '--port', '0'], { TRUSTED_PROXIES: '10.0.0.0/33', NO_COLOR: '1' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('TRUSTED_PROXIES');
  });
});
