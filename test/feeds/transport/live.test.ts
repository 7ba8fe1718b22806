import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchEventPropQuotes } from '../../../src/feeds/odds-api/fetch.js';
import { createLiveTransport, parseRetryAfter, type LiveTransportOptions } from '../../../src/feeds/transport/live.js';
import { createCollectingLogger } from '../../../src/feeds/transport/log.js';
import type { Transport } from '../../../src/feeds/transport/types.js';
import { startLocalServer, type LocalServer } from './local-server.js';

const FIXTURE = new URL('../../fixtures/odds-api/nba-event-odds-player-points-2024-02-22-CLE-ORL.json', import.meta.url);
const BODY = readFileSync(FIXTURE, 'utf8');
const EVENT_ID = 'f54c4a22568ce9dc33fb410d1b0e75e9';
const PATH = `/v4/sports/basketball_nba/events/${EVENT_ID}/odds`;
const SECRET = 'sk-live-0123456789abcdef';

let server: LocalServer | null = null;
let transport: (Transport & { close(): Promise<void> }) | null = null;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  transport = null;
  server = null;
});

function live(overrides: Partial<LiveTransportOptions> & { sleeps?: number[] } = {}) {
  const sleeps = overrides.sleeps ?? [];
  transport = createLiveTransport({
    timeoutMs: 400,
    retries: 2,
    concurrencyPerHost: 4,
    userAgent: 'propgrade-test',
    baseDelayMs: 100,
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  return transport;
}

function request(base: string) {
  return { provider: 'odds-api' as const, url: `${base}${PATH}?markets=player_points&regions=us`, secretQuery: { apiKey: SECRET }, accept: 'json' as const };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

describe('live transport against a loopback server', () => {
  it('sends gzip/user-agent/credentials on the wire, decodes a gzip body, and keeps the key out of the outcome', async () => {
    server = await startLocalServer({
      [PATH]: (req, res) => {
        const gzip = String(req.headers['accept-encoding'] ?? '').includes('gzip');
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          'x-requests-remaining': '497',
          'x-requests-used': '3',
          'x-requests-last': '1',
        });
        res.end(gzip ? gzipSync(BODY) : BODY);
      },
    });
    const outcome = await live().fetch(request(server.base));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.body).toBe(BODY);
    expect(outcome.source).toBe('live');
    expect(outcome.headers['content-encoding']).toBeUndefined();
    expect(outcome.headers['x-requests-remaining']).toBe('497');
    expect(server.headers[0]?.['accept-encoding']).toContain('gzip');
    expect(server.headers[0]?.['user-agent']).toBe('propgrade-test');
    expect(server.seen[0]).toContain(`apiKey=${SECRET}`);
    expect(JSON.stringify(outcome.headers)).not.toContain(SECRET);
  });

  it('timeout: a server that never answers ends as ok:false within the timeout budget, retried, key not in reason', async () => {
    server = await startLocalServer({ [PATH]: () => undefined });
    const { value, ms } = await timed(() => live({ timeoutMs: 300, retries: 1 }).fetch(request(server!.base)));
    expect(value.ok).toBe(false);
    if (value.ok) return;
    expect(value.status).toBeNull();
    expect(value.reason).toMatch(/^timeout after 300 ms: The Odds API \(http:\/\/127\.0\.0\.1:\d+\/v4\/sports\/basketball_nba/);
    expect(value.reason).toContain('after 2 attempts');
    expect(value.reason).not.toContain(SECRET);
    expect(server.hits(PATH)).toBe(2);
    // two 300 ms attempts, sleeps injected: well under 2 s
    expect(ms).toBeLessThan(2_000);
  });

  it('500: retried with exponential backoff, then fails with the status', async () => {
    server = await startLocalServer({ [PATH]: (_req, res) => res.writeHead(500).end('boom') });
    const sleeps: number[] = [];
    const outcome = await live({ retries: 2, sleeps }).fetch(request(server.base));
    expect(outcome).toMatchObject({ ok: false, status: 500 });
    if (outcome.ok) return;
    expect(outcome.reason).toMatch(/^HTTP 500 from .* \(after 3 attempts\)$/);
    expect(server.hits(PATH)).toBe(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('429 with Retry-After: waits what the header says (via injected sleep), then succeeds', async () => {
    server = await startLocalServer({
      [PATH]: (_req, res, hit) => {
        if (hit === 1) res.writeHead(429, { 'retry-after': '7' }).end('slow down');
        else res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
      },
    });
    const sleeps: number[] = [];
    const outcome = await live({ sleeps }).fetch(request(server.base));
    expect(outcome.ok).toBe(true);
    expect(sleeps).toEqual([7_000]);
    expect(server.hits(PATH)).toBe(2);
  });

  it('429 with an absurd Retry-After is capped; still 429 after the retries is a failure', async () => {
    server = await startLocalServer({ [PATH]: (_req, res) => res.writeHead(429, { 'retry-after': '86400' }).end() });
    const sleeps: number[] = [];
    const outcome = await live({ retries: 1, sleeps, maxRetryAfterMs: 30_000 }).fetch(request(server.base));
    expect(outcome).toMatchObject({ ok: false, status: 429 });
    expect(sleeps).toEqual([30_000]);
  });

  it('other 4xx are never retried', async () => {
    server = await startLocalServer({ [PATH]: (_req, res) => res.writeHead(401).end('{"message":"invalid key"}') });
    const sleeps: number[] = [];
    const outcome = await live({ sleeps }).fetch(request(server.base));
    expect(outcome).toMatchObject({ ok: false, status: 401 });
    expect(server.hits(PATH)).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('truncated body (Content-Length larger than sent, socket destroyed): ok:false after retries, nothing thrown', async () => {
    server = await startLocalServer({
      [PATH]: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) });
        res.write(BODY.slice(0, 500));
        setTimeout(() => res.socket?.destroy(), 10);
      },
    });
    const { value, ms } = await timed(() => live({ retries: 1 }).fetch(request(server!.base)));
    expect(value.ok).toBe(false);
    if (value.ok) return;
    expect(value.status).toBeNull();
    expect(value.reason).toMatch(/^network error/);
    expect(server.hits(PATH)).toBe(2);
    expect(ms).toBeLessThan(2_000);
  });

  it('a corrupt gzip body is a failure, not a throw', async () => {
    server = await startLocalServer({
      [PATH]: (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(BODY).subarray(0, 200)),
    });
    const outcome = await live({ retries: 0 }).fetch(request(server.base));
    expect(outcome.ok).toBe(false);
  });

  it('an unparseable URL is a failure, not a throw', async () => {
    const outcome = await live().fetch({ provider: 'odds-api', url: 'not a url' });
    expect(outcome).toEqual({ ok: false, status: null, reason: 'invalid url: [unparseable url]' });
  });

  it('p-limit holds concurrency per host', async () => {
    let inFlight = 0;
    let peak = 0;
    server = await startLocalServer({
      [PATH]: (_req, res) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          res.writeHead(200).end('[]');
        }, 40);
      },
    });
    const t = live({ concurrencyPerHost: 2 });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => t.fetch(request(server!.base))));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(peak).toBe(2);
  });
});

describe('bodies the adapter turns into empty + a warning', () => {
  const cases: Array<[string, (res: import('node:http').ServerResponse) => void, RegExp]> = [
    ['malformed JSON', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "f54c", "bookmakers": ['), /response is not JSON \(starts with "\{\\"id\\": \\"f54c/],
    ['HTML error page with 200', (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>'), /response is not JSON \(starts with "<!DOCTYPE html>/],
    ['empty body', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(''), /empty response body/],
    ['valid JSON of an unknown shape', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"maintenance"}'), /expected one event object with bookmakers, got an object with keys message/],
  ];

  for (const [name, reply, warning] of cases) {
    it(`${name}: no quotes, one warning, nothing thrown`, async () => {
      server = await startLocalServer({ [PATH]: (_req, res) => reply(res) });
      const log = createCollectingLogger();
      const result = await fetchEventPropQuotes(live(), 'basketball_nba', EVENT_ID, ['player_points'], {
        apiKey: SECRET,
        log,
        base: server.base,
        books: { regions: ['us'] },
      });
      expect(result.quotes).toEqual([]);
      expect(log.warnings.map((w) => w.msg).join('\n')).toMatch(warning);
      expect(JSON.stringify(log.warnings)).not.toContain(SECRET);
    });
  }

  it('truncated body through the adapter: quotes empty, error says unavailable', async () => {
    server = await startLocalServer({
      [PATH]: (_req, res) => {
        res.writeHead(200, { 'content-length': '100000' });
        res.write(BODY.slice(0, 300));
        setTimeout(() => res.socket?.destroy(), 10);
      },
    });
    const log = createCollectingLogger();
    const result = await fetchEventPropQuotes(live({ retries: 0 }), 'basketball_nba', EVENT_ID, ['player_points'], {
      apiKey: SECRET,
      log,
      base: server.base,
      books: { regions: ['us'] },
    });
    expect(result.quotes).toEqual([]);
    expect(result.error).toMatch(/^unavailable: network error/);
    expect(log.warnings).toHaveLength(1);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates; junk is null', () => {
    expect(parseRetryAfter('7')).toBe(7_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('2015-10-21T07:28:00Z'))).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
