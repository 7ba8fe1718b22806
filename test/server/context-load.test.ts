import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp as createH3App, createRouter, toNodeListener } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLiveTransport } from '../../src/feeds/transport/index.js';
import type { Transport } from '../../src/feeds/transport/types.js';
import { ContextCache } from '../../src/store/cache.js';
import { CONTEXT_LIVE, type ContextProviders } from '../../src/feeds/factory.js';
import { readFuturesCredits } from '../../src/reads/futures.js';
import { DEFAULT_LIMITS, type ServerDeps } from '../../src/server/context.js';
import { createRateLimiter } from '../../src/server/rate-limit.js';
import { contextRoutes } from '../../src/server/routes/context.js';
import { tempStore } from '../helpers/replay-store.js';

/**
 * Load test: 200 concurrent requests on a real loopback server (the context routes' own handlers)
 * whose providers are a real loopback upstream (node:http, reached through the live undici
 * transport), answering with the real MLB World Series outrights and the real ESPN NBA news.
 * Per TTL window exactly one upstream call is made, however many readers arrive at once.
 */

const WS = readFileSync('test/fixtures/odds-api/mlb-world-series-winner-outrights-2021-11.json', 'utf8');
const NEWS = readFileSync('test/fixtures/espn/nba-news-2026-05-23.json', 'utf8');
const CONCURRENCY = 200;

interface Upstream {
  base: string;
  hits: Record<string, number>;
  close(): Promise<void>;
}

/** The provider stand-in: counts each path and answers slowly enough that every reader overlaps the first call. */
async function startUpstream(): Promise<Upstream> {
  const hits: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    setTimeout(() => {
      if (path.endsWith('/baseball_mlb_world_series_winner/odds')) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-requests-last': '1', 'x-requests-remaining': '19999' }).end(WS);
      } else if (path.endsWith('/basketball/nba/news')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(NEWS);
      } else res.writeHead(404).end();
    }, 150);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** ESPN's absolute URLs, sent to the loopback upstream instead (the real live transport underneath). */
function rewriting(live: Transport, upstream: string): Transport {
  return { kind: 'live', fetch: (req) => live.fetch({ ...req, url: req.url.replace('https://site.api.espn.com', upstream) }), close: () => live.close?.() ?? Promise.resolve() };
}

describe('load: one upstream call per TTL under 200 concurrent requests', () => {
  let upstream: Upstream;
  let http: Server;
  let base: string;
  let clock = new Date('2026-05-23T20:00:00Z');
  let cleanup: () => void;
  let deps: ServerDeps;
  let cache: ContextCache;

  beforeAll(async () => {
    upstream = await startUpstream();
    const t = tempStore();
    cleanup = t.cleanup;
    // The per-caller upstream budget would refuse most of the 200 (test/security/upstream-rationing.test.ts holds it).
    deps = { store: t.store, config: loadConfig({ FUTURES_ENABLED: '1', ODDS_API_KEY: 'load-test-key' }), now: () => clock, wallNow: () => clock, runSnapshots: async () => [], limits: { ...DEFAULT_LIMITS, upstreamPerWindow: 100_000 }, limiter: createRateLimiter() };
    const live = createLiveTransport({ ...CONTEXT_LIVE, concurrencyPerHost: 8 });
    const transport = rewriting(live, upstream.base);
    const providers: ContextProviders = { source: 'live', keyless: transport, odds: transport, oddsApiKey: 'load-test-key', oddsBase: upstream.base, close: () => live.close() };
    cache = new ContextCache(t.store);
    const app = createH3App();
    const router = createRouter();
    for (const route of contextRoutes(deps, { providers: () => providers, cache })) router.get(route.path, route.handler(deps));
    app.use(router);
    http = createServer(toNodeListener(app));
    http.maxConnections = 1000;
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', 511, r));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => http.close(() => r()));
    await upstream.close();
    cleanup();
  });

  async function burst(path: string): Promise<Array<{ status: number; body: Record<string, unknown> }>> {
    return Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        const res = await fetch(base + path);
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      }),
    );
  }

  it('futures (12 h TTL): 200 at once share one Odds API call; a second window makes exactly one more', async () => {
    const key = '/v4/sports/baseball_mlb_world_series_winner/odds';
    const windows: Array<{ at: string; requests: number; upstream: number }> = [];
    const start = clock;
    for (const offsetHours of [0, 6, 11.99, 12, 18]) {
      clock = new Date(start.getTime() + offsetHours * 3_600_000);
      const before = upstream.hits[key] ?? 0;
      const answers = await burst('/api/futures/mlb');
      expect(answers.every((a) => a.status === 200 && a.body['available'] === true)).toBe(true);
      expect(new Set(answers.map((a) => JSON.stringify(a.body['markets']))).size).toBe(1);
      windows.push({ at: `+${offsetHours} h`, requests: CONCURRENCY, upstream: (upstream.hits[key] ?? 0) - before });
    }
    // TTL windows: [0 h, 12 h) and [12 h, 24 h). One call opens each; every other read is the cache.
    expect(windows.map((w) => w.upstream)).toEqual([1, 0, 0, 1, 0]);
    expect(upstream.hits[key]).toBe(2);
    // The credit log is per ET day: the first window's call on 05-23, the second's (08:00 UTC) on 05-24.
    expect(await readFuturesCredits(deps.store, '2026-05-23', clock)).toMatchObject({ calls: 1, credits: 1 });
    expect(await readFuturesCredits(deps.store, '2026-05-24', clock)).toMatchObject({ calls: 1, credits: 1, remaining: 19999 });
    console.log(`load (futures, 12 h TTL): ${windows.map((w) => `${w.at}: ${w.requests} concurrent -> ${w.upstream} upstream`).join('; ')}; total ${CONCURRENCY * windows.length} requests, ${upstream.hits[key]} upstream calls = 1 per TTL window`);
  }, 60_000);

  it('news (15 min TTL): the same through the ESPN path', async () => {
    const key = '/apis/site/v2/sports/basketball/nba/news';
    const start = new Date('2026-05-24T08:00:00Z');
    const counts: number[] = [];
    for (const offsetMinutes of [0, 14, 15, 29.9, 30]) {
      clock = new Date(start.getTime() + offsetMinutes * 60_000);
      const before = upstream.hits[key] ?? 0;
      const answers = await burst('/api/news/nba');
      expect(answers.every((a) => a.status === 200 && a.body['available'] === true && a.body['count'] === 5)).toBe(true);
      counts.push((upstream.hits[key] ?? 0) - before);
    }
    expect(counts).toEqual([1, 0, 1, 0, 1]);
    console.log(`load (news, 15 min TTL): bursts of ${CONCURRENCY} at +0, +14, +15, +29.9, +30 min -> upstream calls ${counts.join(', ')}`);
  }, 60_000);
});
