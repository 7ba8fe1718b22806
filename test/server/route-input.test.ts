/**
 * defineRoute reads a route's path and query synchronously (input.ts), where h3's
 * getValidatedRouterParams / getValidatedQuery went through an await. The refusals must stay what
 * they were on the wire: status 400 with the standard reason phrase "Bad Request" (RFC 9110; h3's
 * "Validation Error" no longer reaches the status line), the envelope naming the field, no cache
 * headers; a JSON body still goes through its own reader.
 * A route whose input is a pure function of its URL (inputPerUrl) parses each URL once.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import type { H3Event } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptPerUrl } from '../../src/server/input.js';
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
  it('a bad path parameter: 400 Bad Request, the field named, no cache headers', async () => {
    const r = await call('GET', '/api/snapshot/mma');
    expect([r.status, r.statusMessage]).toEqual([400, 'Bad Request']);
    expect(JSON.parse(r.text)).toEqual({ error: { code: 'BAD_INPUT', message: "invalid path: sport: 'mma' is not one of mlb, nba, wnba, soccer" } });
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['vary']).toBeUndefined();
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a bad query parameter: 400 Bad Request, the field named', async () => {
    const r = await call('GET', '/api/snapshot/nba?stat=nope');
    expect([r.status, r.statusMessage]).toEqual([400, 'Bad Request']);
    expect(JSON.parse(r.text)).toEqual({ error: { code: 'BAD_INPUT', message: "invalid query: stat: unknown stat 'nope'" } });
    const params = await call('GET', '/api/snapshot/nba?min_grade=Z');
    expect([params.status, params.statusMessage]).toEqual([400, 'Bad Request']);
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

describe('keptPerUrl', () => {
  const event = (path: string) => ({ path }) as unknown as H3Event;

  it('parses a URL once, shares the frozen result, and never keeps a refusal', () => {
    const reads: string[] = [];
    const read = keptPerUrl((e) => {
      reads.push(e.path);
      if (e.path.includes('bad')) throw new Error('refused');
      return { params: { sport: 'nba' }, query: { list: ['a'], view: e.path } };
    });
    const first = read(event('/api/snapshot/nba?view=card'));
    const again = read(event('/api/snapshot/nba?view=card'));
    expect(again).toBe(first);
    expect(reads).toEqual(['/api/snapshot/nba?view=card']);
    expect(Object.isFrozen(first) && Object.isFrozen(first.params) && Object.isFrozen(first.query) && Object.isFrozen(first.query.list)).toBe(true);
    expect(() => {
      (first.query as { view: string }).view = 'full';
    }).toThrow(TypeError);
    for (let i = 0; i < 2; i++) expect(() => read(event('/api/snapshot/nba?bad=1'))).toThrow('refused');
    expect(reads.filter((p) => p.includes('bad'))).toHaveLength(2);
  });

  it('keeps at most 256 URLs, dropping the oldest, and no URL longer than 1,024 characters', () => {
    let reads = 0;
    const read = keptPerUrl(() => ({ n: ++reads }));
    for (let i = 0; i <= 256; i++) read(event(`/u?i=${i}`));
    expect(reads).toBe(257);
    read(event('/u?i=256'));
    expect(reads).toBe(257);
    read(event('/u?i=0'));
    expect(reads).toBe(258);
    const long = `/u?${'x'.repeat(1100)}`;
    read(event(long));
    read(event(long));
    expect(reads).toBe(260);
  });
});

describe('the snapshot route parses each URL once', () => {
  it('the same URL answers the same bytes again, and so do its refusals', async () => {
    for (const path of ['/api/snapshot/nba', '/api/snapshot/nba?view=card', '/api/snapshot/nba?player=Jalen%20Brunson&main=true']) {
      const first = await call('GET', path);
      expect(first.status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const again = await call('GET', path);
        expect(again.status).toBe(200);
        expect(again.text).toBe(first.text);
        expect(again.headers['etag']).toBe(first.headers['etag']);
      }
    }
    for (let i = 0; i < 3; i++) {
      const r = await call('GET', '/api/snapshot/nba?stat=nope');
      expect([r.status, r.statusMessage]).toEqual([400, 'Bad Request']);
    }
  });
});
