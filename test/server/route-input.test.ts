/**
 * defineRoute reads a route's path and query synchronously (input.ts), where h3's
 * getValidatedRouterParams / getValidatedQuery went through an await. The refusals must stay what
 * they were on the wire: status 400 with h3's reason phrase "Validation Error", the envelope naming
 * the field, no cache headers; a JSON body still goes through its own reader (400 "Bad Request").
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStore, startServer, type Running, type Seeded } from './_harness.js';

interface Reply {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  text: string;
}

let seeded: Seeded;
let api: Running;

function call(method: string, path: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(api.base + path, { method, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  seeded = await seedStore();
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now });
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

describe('path and query refusals keep their answer', () => {
  it('a bad path parameter: 400 Validation Error, the field named, no cache headers', async () => {
    const r = await call('GET', '/api/snapshot/mma');
    expect([r.status, r.statusMessage]).toEqual([400, 'Validation Error']);
    expect(JSON.parse(r.text)).toEqual({ error: { code: 'BAD_INPUT', message: "invalid path: sport: 'mma' is not one of mlb, nba, wnba, soccer" } });
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['vary']).toBeUndefined();
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a bad query parameter: 400 Validation Error, the field named', async () => {
    const r = await call('GET', '/api/snapshot/nba?stat=nope');
    expect([r.status, r.statusMessage]).toEqual([400, 'Validation Error']);
    expect(JSON.parse(r.text)).toEqual({ error: { code: 'BAD_INPUT', message: "invalid query: stat: unknown stat 'nope'" } });
    const params = await call('GET', '/api/snapshot/nba?min_grade=Z');
    expect([params.status, params.statusMessage]).toEqual([400, 'Validation Error']);
    expect((JSON.parse(params.text) as { error: { message: string } }).error.message).toMatch(/^invalid query: min_grade/);
  });

  it('a percent-encoded path parameter is decoded before validation', async () => {
    const r = await call('GET', '/api/snapshot/nb%61');
    expect(r.status).toBe(200);
    expect((JSON.parse(r.text) as { sport: string }).sport).toBe('nba');
  });

  it('a bad JSON body is refused by the body reader: 400 Bad Request', async () => {
    const r = await call('POST', '/api/parlay/grade', '{x');
    expect([r.status, r.statusMessage]).toEqual([400, 'Bad Request']);
    expect(JSON.parse(r.text)).toEqual({ error: { code: 'BAD_INPUT', message: 'invalid body: not valid JSON' } });
  });
});
