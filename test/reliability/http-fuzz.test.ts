import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createUser } from '../../src/accounts/users.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { replayLoopFiles } from '../helpers/replay-store.js';
import { quiet, startServer, type Running } from '../server/_harness.js';

/**
 * HTTP fuzz (issue 19, suite 2): property-based paths, queries, headers and bodies for every route
 * of the OpenAPI document, plus hostile cases (huge, deeply nested, unicode, wrong content types,
 * invalid JSON, SQL-ish and path-traversal strings). Every answer is < 500 (a 503 NOT_CONFIGURED of
 * an unconfigured platform aside), carries no stack trace or file path, errors use the envelope,
 * the server stays up and its memory stays bounded. `npm run test:reliability` sends >= 10,000
 * requests (RELIABILITY_FULL=1); `npm test` a fast subset.
 */

const REQUESTS = process.env.RELIABILITY_FULL ? 10_000 : 800;
const NOW = new Date('2025-11-05T17:10:00Z');
const LEAK = /\bat .+:\d+:\d+\)?|\/work\/|node_modules|\.ts:\d+|file:\/\//;

interface Op {
  method: string;
  path: string;
  params: string[];
  query: string[];
}

const hostile = fc.oneof(
  fc.constantFrom("' OR 1=1 --", '../../etc/passwd', '..%2f..%2fetc%2fpasswd', '%00', '<script>alert(1)</script>', '${7*7}', '\u202e\u0000', '🏀🔥', 'NaN', '-1e309'),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 2000, maxLength: 4000 }),
);

/** A JSON value nested `depth` levels deep. */
const nested = (depth: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = { a: [v] };
  return v;
};

const body = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => ({ type: 'application/json', text: JSON.stringify(v) })),
  fc.record({ player: hostile, stat: hostile, line: fc.oneof(fc.double(), hostile), direction: hostile }).map((v) => ({ type: 'application/json', text: JSON.stringify(v) })),
  fc.constantFrom('{', '{"player":', '[1,2', 'null', '""', '{"legs":[{}]}').map((text) => ({ type: 'application/json', text })),
  fc.constant({ type: 'application/json', text: JSON.stringify(nested(2000)) }),
  fc.constant({ type: 'application/json', text: JSON.stringify({ text: 'x'.repeat(300_000) }) }),
  fc.string({ maxLength: 200 }).map((text) => ({ type: 'text/plain', text })),
  fc.string({ maxLength: 200 }).map((text) => ({ type: 'application/x-www-form-urlencoded', text })),
  fc.string({ maxLength: 200 }).map((text) => ({ type: 'multipart/form-data; boundary=xyz', text: `--xyz\r\n${text}\r\n--xyz--` })),
);

describe(`HTTP fuzz: ${REQUESTS} generated requests over every OpenAPI route`, () => {
  let dir: string;
  let store: SqliteStore;
  let api: Running;
  let token: string;
  let ops: Op[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-fuzz-'));
    store = openStore((await replayLoopFiles(dir)).settled);
    token = (await createUser(store, { email: 'fuzz@example.test', tier: 'desk' }, NOW)).token;
    // The recorded folder answers the context routes, so no request waits on a network that is not there.
    api = await startServer({ store, config: loadConfig({ PROPGRADE_REPLAY: 'data/replay' }), now: () => NOW, log: quiet });
    const doc = (await (await fetch(`${api.base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      })),
    );
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never a 5xx, a stack trace or a file path; errors in the envelope; the server stays up', async () => {
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const rssBefore = process.memoryUsage().rss;
    const request = fc.record({
      op: fc.integer({ min: 0, max: ops.length - 1 }),
      param: hostile,
      query: fc.array(fc.tuple(fc.boolean(), hostile), { maxLength: 3 }),
      auth: fc.oneof(fc.constant(null), fc.constant('token'), hostile),
      body,
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const op = ops[r.op] as Op;
        const path = op.path.replace(/\{\w+\}/g, () => encodeURIComponent(r.param));
        const qs = r.query.map(([known, v], i) => `${encodeURIComponent(known && op.query[i % Math.max(1, op.query.length)] ? (op.query[i % op.query.length] as string) : `k${i}`)}=${encodeURIComponent(v)}`).join('&');
        const headers: Record<string, string> = {};
        if (r.auth === 'token') headers['authorization'] = `Bearer ${token}`;
        else if (r.auth !== null) headers['authorization'] = `Bearer ${r.auth.replace(/[^\x20-\x7e]/g, '')}`;
        const init: RequestInit = { method: op.method, headers };
        if (op.method === 'POST') {
          headers['content-type'] = r.body.type;
          init.body = r.body.text;
        }
        const res = await fetch(`${api.base}${path}${qs ? `?${qs}` : ''}`, init);
        const text = await res.text();
        sent += 1;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const what = `${op.method} ${op.path} -> ${res.status}`;
        if (res.status >= 500 && !(res.status === 503 && text.includes('NOT_CONFIGURED'))) problems.push(`${what}: ${text.slice(0, 200)}`);
        if (LEAK.test(text)) problems.push(`${what}: leaks ${LEAK.exec(text)?.[0]}`);
        if (res.status >= 400 && (res.headers.get('content-type') ?? '').includes('json')) {
          const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
          if (typeof parsed.error?.code !== 'string' || typeof parsed.error?.message !== 'string') problems.push(`${what}: not the error envelope`);
        }
        return true;
      }),
      { numRuns: REQUESTS, seed: 20261124 },
    );
    const alive = await fetch(`${api.base}/api/snapshot/summary`);
    const rssGrowthMb = Math.round((process.memoryUsage().rss - rssBefore) / 1048576);
    console.log(`http fuzz: ${sent} requests over ${ops.length} routes, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}, ${problems.length} problems, rss growth ${rssGrowthMb} MB`);
    expect(problems.slice(0, 20)).toEqual([]);
    expect(alive.status).toBe(200);
    expect(rssGrowthMb).toBeLessThan(300);
  }, 900_000);
});
