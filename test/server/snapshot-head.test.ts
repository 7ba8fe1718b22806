/**
 * The exact head of the snapshot route's answers: every header line, in the order written, with
 * its spelling and repeated lines (up to three `vary` lines; this server has a CORS origin, so
 * every answer varies on Origin), for the cases a poller, a browser through the proxy and a
 * refused request meet. Other tests read headers through node:http, which merges repeated lines
 * and drops the order; this one reads the bytes off the socket, so a change in how the head is
 * written (one `writeHead` with a list instead of `setHeader` calls, a path that skips a
 * middleware) cannot change what a client or a cache sees. `Date` is the only value replaced, and
 * each ETag is checked against the plain answer's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { rawExchange, seedStore, startServer, type Running, type Seeded } from './_harness.js';

const ORIGIN = 'https://app.example.test';
const PATH = '/api/snapshot/nba';
const SECURITY = ['x-content-type-options: nosniff', 'referrer-policy: no-referrer', 'x-frame-options: DENY', 'cross-origin-resource-policy: same-site'];
const CORS = [`access-control-allow-origin: ${ORIGIN}`, 'access-control-expose-headers: ETag, Retry-After, x-onboarding-required'];
const JSON_TYPE = 'content-type: application/json; charset=utf-8';

let seeded: Seeded;
let api: Running;
const tokens = { analyst: '', onboarding: '' };
/** The plain answer's ETag, e.g. `"rJ0H…"`: every other representation's is this one suffixed. */
let plainTag = '';

beforeAll(async () => {
  // Users created after the cutoff must onboard: the onboarding header shows in the head.
  seeded = await seedStore({ CORS_ORIGIN: ORIGIN, ONBOARDING_CUTOFF: '2025-11-01' });
  tokens.analyst = (await createUser(seeded.store, { email: 'analyst@example.test', tier: 'analyst' }, new Date('2025-10-01T00:00:00Z'))).token;
  tokens.onboarding = (await createUser(seeded.store, { email: 'new@example.test', tier: 'free' }, seeded.now)).token;
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, runSnapshot: async () => [] });
  plainTag = (await rawExchange(api.base, 'GET', PATH)).head.find((l) => l.startsWith('etag: '))!.slice('etag: '.length);
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

/** The head with the ETag value replaced by its relation to the plain answer's (`<plain>`, `<plain>-gz`, ...). */
async function head(method: string, path: string, headers: Record<string, string> = {}): Promise<string[]> {
  const { head } = await rawExchange(api.base, method, path, headers);
  return head.map((line) => (line.startsWith('etag: ') ? line.replace(plainTag.slice(0, -1), '"<plain>') : line));
}

describe('GET /api/snapshot/{sport}: the head, line for line', () => {
  it('anonymous, plain and gzip (what the poller and the bench get), twice each', async () => {
    for (let i = 0; i < 2; i++) {
      expect(await head('GET', PATH)).toEqual([
        'HTTP/1.1 200 OK',
        ...SECURITY,
        'vary: Origin',
        'vary: Authorization',
        'vary: Accept-Encoding',
        'cache-control: public, max-age=60',
        'etag: "<plain>"',
        JSON_TYPE,
        'content-length: 4889985',
        'Date: <date>',
        'Connection: close',
      ]);
      expect(await head('GET', PATH, { 'Accept-Encoding': 'gzip' })).toEqual([
        'HTTP/1.1 200 OK',
        ...SECURITY,
        'vary: Origin',
        'vary: Authorization',
        'vary: Accept-Encoding',
        'cache-control: public, max-age=60',
        'etag: "<plain>-gz"',
        JSON_TYPE,
        'content-encoding: gzip',
        'content-length: 235099',
        'Date: <date>',
        'Connection: close',
      ]);
    }
  });

  it('HEAD: the head GET would send, line for line, and no body (RFC 9110 9.3.2)', async () => {
    for (const headers of [{}, { 'Accept-Encoding': 'gzip' }, { 'If-None-Match': plainTag }] as Array<Record<string, string>>) {
      const get = await rawExchange(api.base, 'GET', PATH, headers);
      const onlyHead = await rawExchange(api.base, 'HEAD', PATH, headers);
      expect(onlyHead.head).toEqual(get.head);
      expect(onlyHead.body.length).toBe(0);
    }
    const get = await rawExchange(api.base, 'GET', PATH);
    expect(get.head[0]).toBe('HTTP/1.1 200 OK');
    expect(get.body.length).toBe(4889985);
  });

  it('a revalidation that holds the snapshot: 304 naming the held ETag', async () => {
    for (const held of [plainTag, `${plainTag.slice(0, -1)}-gz"`]) {
      const tag = held === plainTag ? '"<plain>"' : '"<plain>-gz"';
      for (let i = 0; i < 2; i++) {
        expect(await head('GET', PATH, { 'If-None-Match': held, 'Accept-Encoding': 'gzip' })).toEqual([
          'HTTP/1.1 304 Not Modified',
          ...SECURITY,
          'vary: Origin',
          'vary: Authorization',
          'vary: Accept-Encoding',
          'cache-control: public, max-age=60',
          `etag: ${tag}`,
          'Date: <date>',
          'Connection: close',
        ]);
      }
    }
  });

  it('with a token: private; an onboarding user through the CORS origin: CORS first, Vary: Origin, the onboarding header', async () => {
    const analyst = await head('GET', PATH, { Authorization: `Bearer ${tokens.analyst}`, 'Accept-Encoding': 'gzip' });
    // The analyst's rows carry the model fields: another body, its own ETag and length.
    expect(analyst.map((l) => l.replace(/^etag: "[\w-]{27}-gz"$/, 'etag: "<analyst>-gz"').replace(/^content-length: \d+$/, 'content-length: <n>'))).toEqual([
      'HTTP/1.1 200 OK',
      ...SECURITY,
      'vary: Origin',
      'vary: Authorization',
      'vary: Accept-Encoding',
      'cache-control: private, max-age=60',
      'etag: "<analyst>-gz"',
      JSON_TYPE,
      'content-encoding: gzip',
      'content-length: <n>',
      'Date: <date>',
      'Connection: close',
    ]);
    expect(await head('GET', PATH, { Authorization: `Bearer ${tokens.onboarding}`, Origin: ORIGIN, 'Accept-Encoding': 'gzip' })).toEqual([
      'HTTP/1.1 200 OK',
      ...SECURITY,
      ...CORS,
      'vary: Origin',
      'vary: Authorization',
      'vary: Accept-Encoding',
      'x-onboarding-required: /onboarding',
      'cache-control: private, max-age=60',
      'etag: "<plain>-gz"',
      JSON_TYPE,
      'content-encoding: gzip',
      'content-length: 235099',
      'Date: <date>',
      'Connection: close',
    ]);
    expect(await head('GET', PATH, { Origin: ORIGIN })).toEqual([
      'HTTP/1.1 200 OK',
      ...SECURITY,
      ...CORS,
      'vary: Origin',
      'vary: Authorization',
      'vary: Accept-Encoding',
      'cache-control: public, max-age=60',
      'etag: "<plain>"',
      JSON_TYPE,
      'content-length: 4889985',
      'Date: <date>',
      'Connection: close',
    ]);
  });

  it('a view in brotli; a sport with no snapshot (h3 sends the object)', async () => {
    const card = await head('GET', `${PATH}?view=card`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(card.map((l) => (l.startsWith('etag: ') ? l.replace(/"[\w-]{27}-br"$/, '"<card>-br"') : l))).toEqual([
      'HTTP/1.1 200 OK',
      ...SECURITY,
      'vary: Origin',
      'vary: Authorization',
      'vary: Accept-Encoding',
      'cache-control: public, max-age=60',
      'etag: "<card>-br"',
      JSON_TYPE,
      'content-encoding: br',
      'content-length: 5459',
      'Date: <date>',
      'Connection: close',
    ]);
    expect(await head('GET', '/api/snapshot/wnba')).toEqual([
      'HTTP/1.1 200 OK',
      ...SECURITY,
      'vary: Origin',
      'vary: Authorization',
      'cache-control: public, max-age=60',
      'content-type: application/json; charset=utf-8',
      'Date: <date>',
      'Connection: close',
      'Content-Length: 48',
    ]);
  });

  it('refusals, another method and a preflight: the envelope with no-store, security headers first', async () => {
    for (const path of ['/api/snapshot/mma', `${PATH}?view=nope`]) {
      const refused = await head('GET', path);
      expect(refused.slice(0, -1)).toEqual(['HTTP/1.1 400 Bad Request', ...SECURITY, 'vary: Origin', JSON_TYPE, 'cache-control: no-store', 'Date: <date>', 'Connection: close']);
      expect(refused.at(-1)).toMatch(/^Content-Length: \d+$/);
    }
    const post = await head('POST', PATH);
    expect(post.slice(0, -1)).toEqual(['HTTP/1.1 405 Method Not Allowed', ...SECURITY, 'vary: Origin', 'allow: GET, HEAD, OPTIONS', JSON_TYPE, 'cache-control: no-store', 'Date: <date>', 'Connection: close']);
    expect(post.at(-1)).toMatch(/^Content-Length: \d+$/);
    expect(await head('OPTIONS', PATH, { Origin: ORIGIN })).toEqual([
      'HTTP/1.1 204 No Content',
      ...SECURITY,
      'allow: GET, HEAD, OPTIONS',
      ...CORS,
      'vary: Origin',
      'access-control-allow-methods: GET, POST, OPTIONS',
      'access-control-allow-headers: Authorization, Content-Type, If-None-Match',
      'access-control-max-age: 600',
      'Date: <date>',
      'Connection: close',
    ]);
  });
});
