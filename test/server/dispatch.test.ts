/**
 * The app's listener dispatches a GET at a plain path (`/api/snapshot/nba`, `/openapi.json`, ...)
 * without h3's promise chain (dispatch.ts). It must answer exactly as h3's own listener does over
 * the same app: these tests send the same raw requests to both, on one app instance, and compare
 * every byte of the answers (the Date value aside): routes that end the answer themselves, routes
 * whose value h3 sends, refusals thrown before and inside the handler, tokens, CORS, 304s.
 */
import type { RequestListener, Server } from 'node:http';
import { toNodeListener } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { createApp, type ServerApp } from '../../src/server/app.js';
import { isPlainPath } from '../../src/server/paths.js';
import { staticPathsOf } from '../../src/server/static-paths.js';
import { listenOnLoopback, rawExchange, seedStore, type Seeded } from './_harness.js';

const ORIGIN = 'https://app.example.test';
let seeded: Seeded;
let app: ServerApp;
const servers: Server[] = [];
let dispatched = '';
let h3Only = '';
const tokens = { analyst: '', onboarding: '' };

const listen = (listener: RequestListener) => listenOnLoopback(listener, servers);

beforeAll(async () => {
  seeded = await seedStore({ CORS_ORIGIN: ORIGIN, ONBOARDING_CUTOFF: '2025-11-01', INTERNAL_API_KEY: 'k'.repeat(24) });
  tokens.analyst = (await createUser(seeded.store, { email: 'analyst@example.test', tier: 'analyst' }, new Date('2025-10-01T00:00:00Z'))).token;
  tokens.onboarding = (await createUser(seeded.store, { email: 'new@example.test', tier: 'desk' }, seeded.now)).token;
  // No rate limit trips between the two listeners' copies of a request.
  app = createApp({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => seeded.now, runSnapshot: async () => [], limits: { statsPerWindow: 1_000_000 } });
  dispatched = await listen(app.listener);
  h3Only = await listen(toNodeListener(app.app));
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  seeded?.cleanup();
});

/** Each request to both listeners; returns how many answers were compared. */
async function sameAnswers(requests: Array<[method: string, path: string, headers?: Record<string, string>]>): Promise<number> {
  for (const [method, path, headers] of requests) {
    const a = await rawExchange(dispatched, method, path, headers);
    const b = await rawExchange(h3Only, method, path, headers);
    expect(a.head, `${method} ${path} ${JSON.stringify(headers ?? {})}`).toEqual(b.head);
    expect(a.body.equals(b.body), `${method} ${path} ${JSON.stringify(headers ?? {})}: body`).toBe(true);
  }
  return requests.length;
}

/** Every plain path the app answers GET at: routes, the concrete paths of enum routes, the OpenAPI document. */
function plainGetPaths(): string[] {
  const routes = app.routes.filter((r) => r.method === 'GET' && isPlainPath(r.path)).map((r) => r.path);
  const concrete = staticPathsOf(app.routes, ['/openapi.json']).filter((s) => s.route.method === 'GET').map((s) => s.path);
  return [...new Set([...routes, ...concrete, '/openapi.json'])];
}

describe('the synchronous dispatch answers as h3 does', () => {
  it('every plain GET path of the app, with and without a token, CORS origin, encodings', async () => {
    const plain = plainGetPaths();
    expect(plain).toEqual(expect.arrayContaining(['/api/snapshot/nba', '/api/snapshot/summary', '/openapi.json', '/desk', '/api/me']));
    const variants: Array<Record<string, string> | undefined> = [
      undefined,
      { 'Accept-Encoding': 'gzip, deflate, br' },
      { Authorization: `Bearer ${tokens.analyst}`, 'Accept-Encoding': 'gzip' },
      { Authorization: `Bearer ${tokens.onboarding}`, Origin: ORIGIN },
      { Authorization: 'Bearer pg_unknown' },
      { Origin: 'https://elsewhere.example.test' },
    ];
    const n = await sameAnswers(plain.flatMap((path) => variants.map((h): [string, string, Record<string, string> | undefined] => ['GET', path, h])));
    expect(n).toBeGreaterThan(100);
  }, 120_000);

  it('HEAD at every plain GET path: the head GET sends there (its computed length aside), and no body', async () => {
    const plain = plainGetPaths();
    for (const path of plain) {
      for (const headers of [undefined, { Authorization: `Bearer ${tokens.analyst}`, 'Accept-Encoding': 'gzip' }]) {
        const get = await rawExchange(dispatched, 'GET', path, headers);
        const head = await rawExchange(dispatched, 'HEAD', path, headers);
        // node:http computes a Content-Length only from a body it sends; a HEAD answer may omit
        // that field (RFC 9110 9.3.2). A length the route sets itself is sent for HEAD too.
        const computedLength = get.head.filter((l) => !l.startsWith('Content-Length: '));
        expect([get.head, computedLength], `HEAD ${path} ${JSON.stringify(headers ?? {})}`).toContainEqual(head.head);
        expect(head.body.length, `HEAD ${path}: body`).toBe(0);
      }
    }
  }, 120_000);

  it('the snapshot route: views, refusals in the query, 304s, repeated', async () => {
    const tag = (await rawExchange(dispatched, 'GET', '/api/snapshot/nba')).head.find((l) => l.startsWith('etag: '))!.slice(6);
    const requests: Array<[string, string, Record<string, string>?]> = [];
    for (let i = 0; i < 2; i++) {
      for (const query of ['', '?', '?view=full', '?view=card', '?player=Jalen%20Brunson', '?min_grade=A+', '?main=1', '?view=nope', '?stat=nope', '?player=', '?game=none']) {
        requests.push(['GET', `/api/snapshot/nba${query}`], ['GET', `/api/snapshot/nba${query}`, { 'Accept-Encoding': 'gzip' }], ['GET', `/api/snapshot/wnba${query}`, { 'Accept-Encoding': 'br' }]);
      }
      requests.push(['GET', '/api/snapshot/nba', { 'If-None-Match': tag }], ['GET', '/api/snapshot/nba', { 'If-None-Match': `W/${tag.slice(0, -1)}-gz", "x"`, 'Accept-Encoding': 'gzip' }], ['GET', '/api/snapshot/nba', { 'If-None-Match': '*' }]);
    }
    await sameAnswers(requests);
  }, 120_000);

  it('what the dispatch leaves to h3: other methods, paths it must decode or walk, unknown paths', async () => {
    await sameAnswers([
      ['HEAD', '/api/snapshot/nba'],
      ['POST', '/api/snapshot/nba'],
      ['OPTIONS', '/api/snapshot/nba', { Origin: ORIGIN }],
      ['GET', '/api/snapshot/nb%61'],
      ['GET', '/api/snapshot/nba/'],
      ['GET', '/api/snapshot/mma'],
      ['GET', '/api/team/NYK'],
      ['GET', '/api/user/scan-meter'],
      ['GET', '/nope'],
      ['GET', '/'],
      ['POST', '/api/internal/snapshot/nba'],
    ]);
  }, 120_000);
});
