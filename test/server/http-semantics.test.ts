import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { rawExchange, rawGet, seedStore, startServer, type Running, type Seeded } from './_harness.js';

/**
 * HTTP as RFC 9110 says (issue 27 item 3), on a real loopback server over the bundled NBA replay:
 * 401 challenges, Allow on 405 and OPTIONS, standard reason phrases with the message left in the
 * envelope, and every JSON or HTML answer of 1 KB or more compressed by negotiation.
 */

const KEY = 'k'.repeat(32);
let seeded: Seeded;
let api: Running;
let token: string;

beforeAll(async () => {
  seeded = await seedStore({ INTERNAL_API_KEY: KEY, DESK_ALLOWLIST: 'desk@example.test' });
  token = (await createUser(seeded.store, { email: 'desk@example.test', tier: 'desk' }, new Date('2025-10-01T00:00:00Z'))).token;
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => new Date('2026-11-27T20:00:00Z'), runSnapshot: async () => [] });
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

const line = (head: string[], name: string) => head.find((l) => l.toLowerCase().startsWith(`${name}: `))?.slice(name.length + 2);

describe('401 carries WWW-Authenticate (RFC 9110 11.6.1, RFC 6750 3)', () => {
  it('no token: the bare bearer challenge; a token that does not resolve: invalid_token', async () => {
    for (const path of ['/api/me', '/desk', '/api/user/scan-meter']) {
      const none = await rawExchange(api.base, 'GET', path);
      expect(none.head[0], path).toBe('HTTP/1.1 401 Unauthorized');
      expect(line(none.head, 'www-authenticate'), path).toBe('Bearer realm="propgrade"');
      const bad = await rawExchange(api.base, 'GET', path, { Authorization: 'Bearer pg_unknown' });
      expect(line(bad.head, 'www-authenticate'), path).toBe('Bearer realm="propgrade", error="invalid_token", error_description="the token is unknown, revoked or malformed"');
      // The message stays in the envelope.
      expect(JSON.parse(bad.body.toString()).error.code).toBe('UNAUTHORIZED');
    }
    const slip = await fetch(`${api.base}/api/slips/parse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"x"}' });
    expect([slip.status, slip.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="propgrade"']);
  });

  it('the internal routes name their own key header', async () => {
    const r = await rawExchange(api.base, 'POST', '/api/internal/snapshot/nba');
    expect(r.head[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(line(r.head, 'www-authenticate')).toBe('InternalKey realm="propgrade-internal", header="x-internal-key"');
  });

  it('a valid token gets no challenge', async () => {
    const r = await rawExchange(api.base, 'GET', '/api/me', { Authorization: `Bearer ${token}` });
    expect(r.head[0]).toBe('HTTP/1.1 200 OK');
    expect(line(r.head, 'www-authenticate')).toBeUndefined();
  });
});

describe('Allow on 405 and OPTIONS; standard reason phrases', () => {
  it('a known path with another method: 405 Method Not Allowed with Allow, the detail in the envelope', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/api/snapshot/nba', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/api/team/IND', 'GET, HEAD, OPTIONS'],
      ['GET', '/api/scan', 'POST, OPTIONS'],
      ['PUT', '/api/preferences', 'GET, HEAD, POST, OPTIONS'],
      ['POST', '/openapi.json', 'GET, HEAD, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const r = await rawExchange(api.base, method, path);
      expect(r.head[0], `${method} ${path}`).toBe('HTTP/1.1 405 Method Not Allowed');
      expect(line(r.head, 'allow'), `${method} ${path}`).toBe(allow);
      expect(JSON.parse(r.body.toString()).error).toEqual({ code: 'METHOD_NOT_ALLOWED', message: `Method ${method} is not allowed on this route (Allow: ${allow}).` });
    }
  });

  it('a plain OPTIONS: 204 with Allow; an unknown path: 404; OPTIONS * names every method', async () => {
    const known = await rawExchange(api.base, 'OPTIONS', '/api/preferences');
    expect(known.head[0]).toBe('HTTP/1.1 204 No Content');
    expect(line(known.head, 'allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(line((await rawExchange(api.base, 'OPTIONS', '/api/snapshot/nba')).head, 'allow')).toBe('GET, HEAD, OPTIONS');
    const unknown = await rawExchange(api.base, 'OPTIONS', '/api/nope');
    expect(unknown.head[0]).toBe('HTTP/1.1 404 Not Found');
    expect(JSON.parse(unknown.body.toString()).error.code).toBe('NOT_FOUND');
    const star = await rawExchange(api.base, 'OPTIONS', '*');
    expect(star.head[0]).toBe('HTTP/1.1 204 No Content');
    expect(line(star.head, 'allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('every error status line is the standard phrase, and h3 prints no warning for a path it cannot put in a status line', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      const cases: Array<[string, string, string]> = [
        ['GET', '/api/snapshot/mma', 'HTTP/1.1 400 Bad Request'],
        ['GET', '/caf%C3%A9', 'HTTP/1.1 404 Not Found'],
        ['PUT', '/api/team/%C3%A9', 'HTTP/1.1 405 Method Not Allowed'],
        ['GET', '/api/nope', 'HTTP/1.1 404 Not Found'],
      ];
      for (const [method, path, status] of cases) {
        const r = await rawExchange(api.base, method, path);
        expect(r.head[0], `${method} ${path}`).toBe(status);
        expect(JSON.parse(r.body.toString()).error.message.length).toBeGreaterThan(0);
      }
      expect(JSON.parse((await rawExchange(api.base, 'GET', '/caf%C3%A9')).body.toString()).error.message).toBe('Cannot find any route matching /café.');
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe('answers of 1 KB or more are compressed by negotiation', () => {
  const decode = (coding: string | undefined, body: Buffer) => (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body);

  it('the team hub, the OpenAPI document and the desk page: br, gzip or plain as negotiated, the same bytes decoded', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    for (const [path, headers, type] of [
      ['/api/team/IND', {}, 'application/json; charset=utf-8'],
      ['/openapi.json', {}, 'application/json; charset=utf-8'],
      ['/desk', auth, 'text/html; charset=utf-8'],
    ] as const) {
      const plain = await rawGet(api.base, path, headers);
      expect(plain.status, path).toBe(200);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.headers['vary'], path).toContain('Accept-Encoding');
      expect(plain.headers['content-type'], path).toBe(type);
      expect(plain.body.length, path).toBeGreaterThanOrEqual(1024);
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip', 'gzip'],
        ['identity', undefined],
        ['gzip;q=0', undefined],
      ] as const) {
        const r = await rawGet(api.base, path, { ...headers, 'Accept-Encoding': accept });
        expect(r.headers['content-encoding'], `${path} ${accept}`).toBe(coding);
        expect(r.headers['vary'], `${path} ${accept}`).toContain('Accept-Encoding');
        expect(Number(r.headers['content-length']), `${path} ${accept}`).toBe(r.body.length);
        if (path !== '/desk') expect(decode(coding, r.body).equals(plain.body), `${path} ${accept}`).toBe(true);
        if (coding) expect(r.body.length, `${path} ${accept}`).toBeLessThan(plain.body.length / 3);
      }
    }
  });

  it('a HEAD says what its GET would (the encoding and Vary), with no body', async () => {
    const get = await rawExchange(api.base, 'GET', '/api/team/IND', { 'Accept-Encoding': 'gzip' });
    const head = await rawExchange(api.base, 'HEAD', '/api/team/IND', { 'Accept-Encoding': 'gzip' });
    expect(head.head).toEqual(get.head.filter((l) => !l.startsWith('Content-Length: ')));
    expect(head.body.length).toBe(0);
  });

  it('a small answer stays as it was: plain, no Vary on Accept-Encoding', async () => {
    const r = await rawGet(api.base, '/api/snapshot/summary', { 'Accept-Encoding': 'gzip, br' });
    expect(r.body.length).toBeLessThan(1024);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['vary'] ?? '').not.toContain('Accept-Encoding');
    expect(JSON.parse(r.body.toString()).ran).toBe(true);
  });
});
