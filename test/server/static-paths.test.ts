/**
 * Routes whose path parameters are enums are also registered at their concrete paths
 * (static-paths.ts), so h3's router finds `/api/snapshot/nba` with one map lookup. A concrete
 * path is kept only where the router already picked that route with those params, so no answer
 * changes: these tests hold that rule on made-up route tables where it must drop paths, and on the
 * app's own table through a real server.
 */
import { request } from 'node:http';
import { createRouter, eventHandler, type H3Event } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute, type Route } from '../../src/server/route.js';
import { staticPathsOf } from '../../src/server/static-paths.js';
import { seedStore, startServer, type Running, type Seeded } from './_harness.js';

const route = (path: string, params?: z.ZodType, method: 'GET' | 'POST' = 'GET'): Route =>
  defineRoute({ method, path, summary: path, tag: 't', access: 'public', response: z.object({}), ...(params ? { params } : {}), handle: () => ({}) }) as Route;
const paths = (routes: Route[], extra: string[] = []) => staticPathsOf(routes, extra).map((s) => `${s.route.method} ${s.path} ${JSON.stringify(s.params)}`);

describe('staticPathsOf', () => {
  it('fills enum parameters, and only enum parameters', () => {
    const sport = z.object({ sport: z.enum(['nba', 'mlb']) });
    expect(paths([route('/s/:sport', sport), route('/free/:name', z.object({ name: z.string() })), route('/plain')])).toEqual(['GET /s/nba {"sport":"nba"}', 'GET /s/mlb {"sport":"mlb"}']);
    // Every combination of two enums; a value that is not a plain path segment is left out.
    const two = z.object({ a: z.enum(['x', 'y']), b: z.enum(['1', 'two words']) });
    expect(paths([route('/t/:a/:b', two)])).toEqual(['GET /t/x/1 {"a":"x","b":"1"}', 'GET /t/y/1 {"a":"y","b":"1"}']);
    expect(paths([route('/p/:sport', sport, 'POST')])).toEqual(['POST /p/nba {"sport":"nba"}', 'POST /p/mlb {"sport":"mlb"}']);
  });

  it('drops a concrete path the router answers with another route, or not at all', () => {
    const x = z.object({ x: z.enum(['all', 'b', 'z']) });
    const routes = [
      route('/s/:x', x),
      route('/s/all'), // a static route wins over the parameter
      route('/a/:x/c', x),
      route('/a/b/d'), // radix3 does not backtrack: /a/b/c is a 404 today, and must stay one
    ];
    expect(paths(routes, ['/s/z'])).toEqual(['GET /s/b {"x":"b"}', 'GET /a/all/c {"x":"all"}', 'GET /a/z/c {"x":"z"}']);
  });

  it('on the app, each concrete path is where h3 already found that route, with those params', async () => {
    const seeded = await seedStore();
    try {
      const api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, runSnapshot: async () => [] });
      await api.close();
      const routes = api.server.routes;
      const found = staticPathsOf(routes, ['/openapi.json']);
      expect(found.map((s) => s.path)).toEqual(expect.arrayContaining(['/api/snapshot/nba', '/api/snapshot/mlb', '/api/snapshot/wnba', '/api/snapshot/soccer', '/api/schedule/nba/lineups']));
      // A plain h3 router with the same table, asked directly.
      const router = createRouter({ preemptive: true });
      for (const r of routes) router[r.method === 'GET' ? 'get' : 'post'](r.path, eventHandler((e) => void (e.context['r'] = r)));
      for (const s of found) {
        const event = { path: s.path, method: s.route.method, context: {} as Record<string, unknown> } as unknown as H3Event;
        await router.handler(event);
        expect(event.context['r'], s.path).toBe(s.route);
        expect(event.context.params, s.path).toEqual(s.params);
      }
    } finally {
      seeded.cleanup();
    }
  }, 120_000);
});

describe('through the server', () => {
  let seeded: Seeded;
  let api: Running;
  beforeAll(async () => {
    seeded = await seedStore();
    api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, runSnapshot: async () => [] });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    seeded?.cleanup();
  });

  const call = (method: string, path: string) =>
    new Promise<{ status: number; statusMessage: string; text: string; etag: string | undefined }>((resolve, reject) => {
      const req = request(api.base + path, { method, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8'), etag: res.headers['etag'] as string | undefined }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  it('a concrete path and the same path spelled so the parameter walk finds it answer alike', async () => {
    const direct = await call('GET', '/api/snapshot/nba');
    for (const path of ['/api/snapshot/nb%61', '/api/snapshot/nba/']) {
      const walked = await call('GET', path);
      expect(walked.status, path).toBe(200);
      expect(walked.text, path).toBe(direct.text);
      expect(walked.etag, path).toBe(direct.etag);
    }
    expect((await call('GET', '/api/snapshot/wnba')).text).toBe('{"sport":"wnba","available":false,"tier":"free"}');
  });

  it('other methods on a concrete path are still 405, unknown sports still 400', async () => {
    const post = await call('POST', '/api/snapshot/nba');
    expect([post.status, JSON.parse(post.text)]).toEqual([405, { error: { code: 'METHOD_NOT_ALLOWED', message: 'Method POST is not allowed on this route (Allow: GET, HEAD, OPTIONS).' } }]);
    const mma = await call('GET', '/api/snapshot/mma');
    expect([mma.status, mma.statusMessage]).toEqual([400, 'Bad Request']);
  });
});
