import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { callerOfAddress } from '../../src/server/client-address.js';
import { createRateLimiter } from '../../src/server/rate-limit.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { startServer, type Running } from '../server/_harness.js';

/**
 * Rate limits that fit the deployment (issue 40 item 5). An IPv6 caller is its /64: a host is
 * handed a whole /64 and can send from any of its 2^64 addresses, and one address has many
 * spellings. Expiry is O(1): a new caller never walks the live windows. The server's requests come
 * from 127.0.0.1 with TRUSTED_PROXIES=127.0.0.1/32, so X-Forwarded-For names the caller; the wall
 * clock is pinned, so every request below falls in one window.
 */

const WALL = new Date('2026-12-01T12:00:00Z');
const STATS_PATH = '/api/players/search?q=brunson';

let dir: string;
let store: SqliteStore;
let api: Running;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-ratekeys-'));
  store = openStore(join(dir, 'pg.sqlite'));
  api = await startServer({ store, config: loadConfig({ TRUSTED_PROXIES: '127.0.0.1/32' }), now: () => WALL, wallClock: () => WALL });
});
afterAll(async () => {
  await api?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function statuses(forwardedFor: (i: number) => string, n: number): Promise<Record<number, number>> {
  const out: Record<number, number> = {};
  for (let i = 0; i < n; i += 1) {
    const res = await fetch(api.base + STATS_PATH, { headers: { 'x-forwarded-for': forwardedFor(i) } });
    await res.arrayBuffer();
    out[res.status] = (out[res.status] ?? 0) + 1;
  }
  return out;
}

describe('the caller of an address', () => {
  it('an IPv6 address is its /64, however it is written; IPv4 stays per address; IPv4-mapped IPv6 is IPv4', () => {
    expect(callerOfAddress('2001:0db8::77')).toBe('2001:db8:0:0::/64');
    expect(callerOfAddress('2001:db8::77')).toBe('2001:db8:0:0::/64');
    expect(callerOfAddress('2001:DB8:0:0:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:0::/64');
    expect(callerOfAddress('2001:db8:0:1::77')).toBe('2001:db8:0:1::/64');
    expect(callerOfAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(callerOfAddress('::1')).toBe('0:0:0:0::/64');
    expect(callerOfAddress('198.51.100.7')).toBe('198.51.100.7');
    expect(callerOfAddress('198.51.100.8')).toBe('198.51.100.8');
    expect(callerOfAddress('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(callerOfAddress('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(callerOfAddress('unknown')).toBe('unknown');
  });

  it('any two addresses in one /64 are one caller, and addresses in two /64s are two (fast-check)', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n });
    const write = (g: number[], pad: boolean) => g.map((x) => (pad ? x.toString(16).padStart(4, '0') : x.toString(16))).join(':');
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), fc.boolean(), (prefix, a, b, pad) => {
        fc.pre(!(prefix[0] === 0 && prefix[1] === 0 && prefix[2] === 0 && prefix[3] === 0));
        expect(callerOfAddress(write([...prefix, ...a], pad))).toBe(callerOfAddress(write([...prefix, ...b], !pad)));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), (p, q, rest) => {
        fc.pre(p.join() !== q.join());
        expect(callerOfAddress(write([...p, ...rest], false))).not.toBe(callerOfAddress(write([...q, ...rest], false)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('IPv6 callers on the server (stats limit, 60 per 60 s)', () => {
  it('70 reads from 70 addresses of one /64: 60 pass, 10 are 429', async () => {
    // Before: each address was its own caller, 70 of 70 passed.
    expect(await statuses((i) => `2001:db8:40:5::${(i + 1).toString(16)}`, 70)).toEqual({ 200: 60, 429: 10 });
    // Another /64 has its own budget.
    expect(await statuses(() => '2001:db8:40:6::1', 1)).toEqual({ 200: 1 });
  });

  it('two spellings of one address are one caller (2001:0db8::77 and 2001:db8::77)', async () => {
    expect(await statuses((i) => (i % 2 === 0 ? '2001:0db8::77' : '[2001:db8::77]:443'), 61)).toEqual({ 200: 60, 429: 1 });
  });

  it('IPv4 stays per address, and an IPv4-mapped IPv6 address counts as its IPv4 address', async () => {
    expect(await statuses((i) => (i % 2 === 0 ? '198.51.100.7' : '::ffff:198.51.100.7'), 61)).toEqual({ 200: 60, 429: 1 });
    expect(await statuses(() => '198.51.100.8', 1)).toEqual({ 200: 1 });
  });
});

describe('O(1) expiry', () => {
  it('past 10,000 live windows a new caller looks at one window, and expired windows are each dropped once', () => {
    const limiter = createRateLimiter();
    const t0 = WALL.getTime();
    // 20,000 callers, one a millisecond: all live at the end.
    for (let i = 0; i < 20_000; i += 1) expect(limiter.hit(`ip:c${i}`, 60, 60, new Date(t0 + i)).ok).toBe(true);
    expect(limiter.stats().windows).toBe(20_000);
    const before = limiter.stats().examined;
    // Before: each new caller past 10,000 windows swept the whole map (20,000 entries here).
    expect(limiter.hit('ip:new', 60, 60, new Date(t0 + 20_000)).ok).toBe(true);
    expect(limiter.stats().examined - before).toBe(1);
    // 60 s on, the first 5,000 windows have ended: the next hit drops them (each looked at once) and
    // stops at the first live one.
    const mid = limiter.stats().examined;
    expect(limiter.hit('ip:c0', 60, 60, new Date(t0 + 64_999)).ok).toBe(true);
    expect(limiter.stats().examined - mid).toBe(5_001);
    expect(limiter.stats().windows).toBe(20_001 - 5_000 + 1);
    // Amortized: over a whole run the sweeps look at no more entries than hits plus windows opened.
    let hits = 20_002;
    for (let i = 0; i < 20_000; i += 1) {
      limiter.hit(`ip:d${i}`, 60, 60, new Date(t0 + 90_000 + i * 10));
      hits += 1;
    }
    expect(limiter.stats().examined).toBeLessThanOrEqual(hits + 20_001 + 1 + 20_000);
    expect(limiter.stats().windows).toBeLessThan(20_000);
  });

  it('a window still counts and answers Retry-After on the wall clock passed in', () => {
    const limiter = createRateLimiter();
    const at = (s: number) => new Date(WALL.getTime() + s * 1000);
    for (let i = 0; i < 3; i += 1) expect(limiter.hit('k', 3, 60, at(0)).ok).toBe(true);
    expect(limiter.hit('k', 3, 60, at(45))).toEqual({ ok: false, retryAfter: 15 });
    expect(limiter.hit('k', 3, 60, at(60))).toEqual({ ok: true });
    // Two window lengths live side by side; each expires on its own.
    expect(limiter.hit('short', 1, 1, at(60)).ok).toBe(true);
    expect(limiter.hit('short', 1, 1, at(60.5)).ok).toBe(false);
    expect(limiter.hit('short', 1, 1, at(61)).ok).toBe(true);
  });
});
