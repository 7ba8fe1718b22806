import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { loadConfig } from '../../src/config.js';
import { SERVER_TIMEOUTS, startApiServer } from '../../src/server/serve.js';
import { openStore } from '../../src/store/db.js';
import { rawExchange, seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';

/**
 * What the security review of issue 32 found already holding, kept as a suite with its figures
 * (docs/reliability.md "Security suite", "Cases that held"). Related coverage that stays where it
 * is: every route x token state (test/reliability/tier-leak.test.ts), the body caps at 1 MB + 1
 * (test/server/api.test.ts), the socket limits read back (test/server/serve.test.ts).
 */

const MB = 1024 * 1024;
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-site',
};

let seeded: Seeded;
let api: Running;
let desk: string;
let free: string;

beforeAll(async () => {
  seeded = await seedStore();
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => seeded.now });
  desk = (await createUser(seeded.store, { email: 'held-desk@example.test', tier: 'desk' }, seeded.now)).token;
  free = (await createUser(seeded.store, { email: 'held-free@example.test', tier: 'free' }, seeded.now)).token;
}, 120_000);

afterAll(async () => {
  await api?.server.close();
  await api?.close();
  seeded?.cleanup();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(api.base + path, { headers });

describe('security headers', () => {
  it('every answer carries them, errors included: 200, 304, 400, 401, 404, 405, 413', async () => {
    const ok = await get('/api/snapshot/nba');
    const answers = [
      ok,
      await get('/api/snapshot/nba', { 'if-none-match': ok.headers.get('etag')! }),
      await get('/api/snapshot/curling'),
      await fetch(`${api.base}/api/slips/parse`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }),
      await get('/no/such/route'),
      await fetch(`${api.base}/api/snapshot/nba`, { method: 'DELETE' }),
      await fetch(`${api.base}/api/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(MB + 1) }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 304, 400, 401, 404, 405, 413]);
    for (const r of answers) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(r.headers.get(name), `${r.status} ${name}`).toBe(value);
      expect(r.headers.get('x-powered-by'), String(r.status)).toBeNull();
      expect(r.headers.get('server'), String(r.status)).toBeNull();
    }
  });
});

describe('caching across tiers', () => {
  it('one URL: public without a token, private with one, Vary: Authorization on both; no 304 across tiers', async () => {
    const anon = await get('/api/snapshot/nba');
    const paid = await get('/api/snapshot/nba', { authorization: `Bearer ${desk}` });
    const freeTier = await get('/api/snapshot/nba', { authorization: `Bearer ${free}` });
    expect(anon.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(paid.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    // A free token's answer is free-shaped, and still private: a shared cache keys on the URL.
    expect(freeTier.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    for (const r of [anon, paid, freeTier]) expect((r.headers.get('vary') ?? '').toLowerCase()).toContain('authorization');
    const anonBody = await anon.text();
    const paidBody = await paid.text();
    // The paid tier's own field: the projection's view (docs/api.md); the market's p_win is free.
    expect(anonBody).not.toContain('"projection_prob"');
    expect(paidBody).toContain('"projection_prob"');
    expect(anon.headers.get('etag')).not.toBe(paid.headers.get('etag'));
    // A paid caller revalidating with the free answer's ETag gets the paid answer, not a 304.
    const revalidated = await get('/api/snapshot/nba', { authorization: `Bearer ${desk}`, 'if-none-match': anon.headers.get('etag')! });
    expect(revalidated.status).toBe(200);
    expect(await revalidated.text()).toBe(paidBody);
    // And the other way: the paid ETag never revalidates an anonymous request into the paid body.
    const back = await get('/api/snapshot/nba', { 'if-none-match': paid.headers.get('etag')! });
    expect(back.status).toBe(200);
    expect(await back.text()).toBe(anonBody);
  });
});

describe('body limits', () => {
  it('a 64 MB chunked JSON body is cut off at the 1 MB cap: 413 before the sender is done, RSS grows < 50 MB', { timeout: 60_000 }, async () => {
    const url = new URL(`${api.base}/api/scan`);
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    const total = 64 * MB;
    const result = await new Promise<{ status: number; body: string; sentWhenAnswered: number; ms: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        answered = true;
        const sentWhenAnswered = sent;
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, sentWhenAnswered, ms: performance.now() - started });
          req.destroy();
        });
      });
      req.on('error', (e) => (answered ? undefined : reject(e)));
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      pump();
    });
    const grew = process.memoryUsage.rss() - rssBefore;
    console.info(`body limits: 64 MB chunked -> ${result.status} after ${(result.sentWhenAnswered / MB).toFixed(1)} MB sent, ${result.ms.toFixed(0)} ms, RSS +${(grew / MB).toFixed(0)} MB`);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ error: { code: 'TOO_LARGE', message: 'request body exceeds 1048576 bytes' } });
    expect(result.sentWhenAnswered).toBeLessThan(total);
    expect(grew).toBeLessThan(50 * MB);
  });
});

describe('path traversal', () => {
  it('dot segments, encoded or not, reach no file: 4xx in the envelope, no file content', async () => {
    const paths = [
      '/../../../../etc/passwd',
      '/api/snapshot/..%2f..%2f..%2fetc%2fpasswd',
      '/api/snapshot/%2e%2e/%2e%2e/package.json',
      '/api/team/..%5c..%5cpackage.json',
      '/openapi.json/../../package.json',
      '/api/snapshot/nba%00.json',
      '/desk/..%252f..%252fpackage.json',
    ];
    for (const path of paths) {
      const { head, body } = await rawExchange(api.base, 'GET', path);
      const status = Number(head[0]!.split(' ')[1]);
      const text = body.toString('utf8');
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(status, path).toBeLessThan(500);
      expect(text, path).not.toMatch(/root:|"name":\s*"propgrade"|SQLite format|"devDependencies"/);
      expect(JSON.parse(text), path).toHaveProperty('error.code');
    }
  });
});

describe('prototype pollution', () => {
  const polluted = () => (({}) as Record<string, unknown>)['polluted'] !== undefined || Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted');

  it('__proto__ and constructor.prototype in JSON bodies and query strings change no prototype and never 500', async () => {
    const scan = { player: 'Pascal Siakam', stat: 'points', line: 20.5, direction: 'over' };
    const leg = { player: 'Pascal Siakam', stat: 'points', line: 26.5, side: 'under' };
    const leg2 = { player: 'Ben Sheppard', stat: 'points', line: 7.5, side: 'under' };
    const bodies: Array<[path: string, body: string, token?: string]> = [
      ['/api/scan', `{"__proto__":{"polluted":"yes"},${JSON.stringify(scan).slice(1)}`],
      ['/api/scan', JSON.stringify({ ...scan, constructor: { prototype: { polluted: 'yes' } } })],
      ['/api/parlay/grade', `{"legs":[{"__proto__":{"polluted":"yes"},${JSON.stringify(leg).slice(1)},${JSON.stringify(leg2)}]}`],
      ['/api/parlay/grade', JSON.stringify({ legs: [{ ...leg, constructor: { prototype: { polluted: 'yes' } } }, leg2] })],
      ['/api/preferences', '{"__proto__":{"polluted":"yes"},"sports":["nba"]}', desk],
      ['/api/preferences', '{"constructor":{"prototype":{"polluted":"yes"}}}', desk],
      ['/api/slips/parse', '{"__proto__":{"polluted":"yes"},"text":"x","book":"auto"}', desk],
    ];
    const statuses: number[] = [];
    for (const [path, body, token] of bodies) {
      const res = await fetch(api.base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body });
      const text = await res.text();
      statuses.push(res.status);
      expect(res.status, `${path} ${body}`).toBeLessThan(500);
      expect(text, path).not.toContain('polluted');
    }
    for (const query of ['?__proto__[polluted]=yes', '?constructor[prototype][polluted]=yes', '?__proto__.polluted=yes']) {
      const res = await get(`/api/ledger/model${query}`);
      expect(res.status, query).toBeLessThan(500);
      expect(await res.text(), query).not.toContain('polluted');
    }
    expect(polluted()).toBe(false);
    // A fresh request after all of them answers as before.
    expect((await get('/api/snapshot/summary')).status).toBe(200);
    console.info(`prototype pollution: body statuses ${statuses.join(', ')}; Object.prototype untouched`);
  });
});

describe('slow headers (slowloris) on `propgrade serve`', () => {
  it(`connections that never finish their headers are closed (headersTimeout ${SERVER_TIMEOUTS.headersMs} ms, checked every ${SERVER_TIMEOUTS.checkEveryMs} ms), while other requests are served`, { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-slowloris-'));
    const store = openStore(join(dir, 'pg.sqlite'));
    const running = await startApiServer({ store, config: loadConfig({}), port: 0, host: '127.0.0.1', cron: false, log: { info() {}, warn() {} } });
    const { hostname, port } = new URL(running.url);
    const SOCKETS = 20;
    const opened = performance.now();
    const timers: NodeJS.Timeout[] = [];
    try {
      // Each sends a request line and one header line, then one more header byte a second, forever.
      const closed = Array.from(
        { length: SOCKETS },
        () =>
          new Promise<{ ms: number; reply: string }>((resolve) => {
            let reply = '';
            const socket = connect(Number(port), hostname, () => {
              socket.write('GET /api/snapshot/summary HTTP/1.1\r\nHost: 127.0.0.1\r\n');
              timers.push(setInterval(() => socket.writable && socket.write('X'), 1000));
            });
            socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
            socket.on('error', () => undefined);
            socket.on('close', () => resolve({ ms: performance.now() - opened, reply }));
          }),
      );
      // Meanwhile an ordinary request is answered at once.
      const t0 = performance.now();
      const ok = await fetch(`${running.url.replace(/\/$/, '')}/api/snapshot/summary`);
      const normalMs = performance.now() - t0;
      expect(ok.status).toBe(200);
      expect(normalMs).toBeLessThan(2000);
      const results = await Promise.all(closed);
      const slowest = Math.max(...results.map((r) => r.ms));
      console.info(`slowloris: ${SOCKETS} sockets closed after ${(Math.min(...results.map((r) => r.ms)) / 1000).toFixed(1)}-${(slowest / 1000).toFixed(1)} s; a normal request meanwhile ${normalMs.toFixed(0)} ms`);
      // Node checks header deadlines every connectionsCheckingInterval: 30 s by default (before, these
      // closed at 30 s), 1 s on `propgrade serve`; closed by the deadline plus one check, and a margin for a loaded machine.
      expect(slowest).toBeLessThan(SERVER_TIMEOUTS.headersMs + SERVER_TIMEOUTS.checkEveryMs + 3_000);
      expect(Math.min(...results.map((r) => r.ms))).toBeGreaterThanOrEqual(SERVER_TIMEOUTS.headersMs - 500);
      for (const r of results) expect(r.reply === '' || r.reply.startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      for (const t of timers) clearInterval(t);
      await running.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
