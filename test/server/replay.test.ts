/**
 * Kept answers (replay.ts): the snapshot route's anonymous answers are written again, head and
 * body, while the snapshot cache still hands out the same entry. A replayed answer must be the
 * route's own answer byte for byte, a request whose answer depends on more than the URL,
 * Accept-Encoding and If-None-Match must never get one, and a new snapshot must be served on the
 * very next request (snapshot-latest.test.ts holds that through the same listener).
 */
import type { RequestListener, Server } from 'node:http';
import { join } from 'node:path';
import { createEvent, toNodeListener } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSnapshot } from '../../src/jobs/snapshot-run.js';
import { buildOddsSource } from '../../src/feeds/factory.js';
import { createApp, type ServerApp } from '../../src/server/app.js';
import { Replays } from '../../src/server/replay.js';
import { requestLogLine, withRequestLog } from '../../src/server/serve.js';
import { openStore } from '../../src/store/db.js';
import { listenOnLoopback, quiet, rawExchange, seedStore, type Seeded } from './_harness.js';

const ORIGIN = 'https://app.example.test';
let seeded: Seeded;
let app: ServerApp;
const servers: Server[] = [];
let base = '';
let h3Only = '';

const listen = (listener: RequestListener) => listenOnLoopback(listener, servers);

beforeAll(async () => {
  seeded = await seedStore({ CORS_ORIGIN: ORIGIN });
  app = createApp({ store: seeded.store, config: seeded.config, now: () => seeded.now, runSnapshot: async () => [] });
  base = await listen(app.listener);
  // h3's own listener over the same app: never asks the kept answers.
  h3Only = await listen(toNodeListener(app.app));
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  seeded?.cleanup();
});

const snapshotId = (body: Buffer) => (JSON.parse(body.toString('utf8')) as { snapshot: { id: number } }).snapshot.id;

describe('the snapshot route through the app', () => {
  it('an anonymous poll is answered from the kept answer, byte for byte what the route answers', async () => {
    const etag = (await rawExchange(base, 'GET', '/api/snapshot/nba')).head.find((l) => l.startsWith('etag: '))!.slice(6);
    const requests: Array<[string, Record<string, string>]> = [
      ['/api/snapshot/nba', {}],
      ['/api/snapshot/nba', { 'Accept-Encoding': 'gzip' }],
      ['/api/snapshot/nba', { 'Accept-Encoding': 'gzip', 'If-None-Match': etag }],
      ['/api/snapshot/nba?view=card', { 'Accept-Encoding': 'gzip, deflate, br' }],
      ['/api/snapshot/nba?player=Jalen%20Brunson&main=1', { 'Accept-Encoding': 'br', 'If-None-Match': '"x"' }],
    ];
    for (const [path, headers] of requests) {
      const first = await rawExchange(base, 'GET', path, headers);
      const before = app.replays.hits();
      const again = await rawExchange(base, 'GET', path, headers);
      expect(app.replays.hits(), path).toBe(before + 1);
      const route = await rawExchange(h3Only, 'GET', path, headers);
      for (const answer of [again, route]) {
        expect(answer.head, path).toEqual(first.head);
        expect(answer.body.equals(first.body), path).toBe(true);
      }
    }
  });

  it('the request log (serve.ts wraps this listener) logs and counts a replayed answer like any other', async () => {
    const lines: string[] = [];
    let served = 0;
    const logged = await listen(withRequestLog(app.listener, (r) => lines.push(requestLogLine(r)), () => (served += 1)));
    const hits = app.replays.hits();
    for (let i = 0; i < 3; i++) await rawExchange(logged, 'GET', '/api/snapshot/nba?view=card', { 'Accept-Encoding': 'gzip' });
    expect(app.replays.hits()).toBeGreaterThanOrEqual(hits + 2);
    expect(served).toBe(3);
    expect(lines.map((l) => l.replace(/ \d+ ms$/, ' <n> ms'))).toEqual(Array(3).fill('GET /api/snapshot/nba?view 200 <n> ms'));
  });

  it('never for a token, an Origin, another method, a path h3 must decode, another header value', async () => {
    await rawExchange(base, 'GET', '/api/snapshot/nba', { 'Accept-Encoding': 'gzip' });
    const before = app.replays.hits();
    const kept = app.replays.size();
    const cases: Array<[string, string, Record<string, string>]> = [
      ['GET', '/api/snapshot/nba', { 'Accept-Encoding': 'gzip', Authorization: 'Bearer pg_unknown' }],
      ['GET', '/api/snapshot/nba', { 'Accept-Encoding': 'gzip', Authorization: '' }],
      ['GET', '/api/snapshot/nba', { 'Accept-Encoding': 'gzip', Origin: ORIGIN }],
      ['GET', '/api/snapshot/nba', { 'Accept-Encoding': 'gzip', Origin: 'https://elsewhere.example.test' }],
      ['HEAD', '/api/snapshot/nba', { 'Accept-Encoding': 'gzip' }],
      ['GET', '/api/snapshot/nb%61', { 'Accept-Encoding': 'gzip' }],
      ['GET', '/api/snapshot/nba/', { 'Accept-Encoding': 'gzip' }],
      ['GET', '/api/snapshot/nba', { 'Accept-Encoding': 'gzip, br' }],
      ['GET', '/api/snapshot/nba', { 'Accept-Encoding': 'gzip', 'If-None-Match': '"nope"' }],
      ['GET', `/api/snapshot/nba?game=${'x'.repeat(1100)}`, {}],
    ];
    for (const [method, path, headers] of cases) {
      const answer = await rawExchange(base, method, path, headers);
      const route = await rawExchange(h3Only, method, path, headers);
      expect(answer.head, `${method} ${path}`).toEqual(route.head);
      expect(answer.body.equals(route.body)).toBe(true);
    }
    expect(app.replays.hits()).toBe(before);
    // Only the two new header values were kept (the gzip, br and the unmatched If-None-Match).
    expect(app.replays.size()).toBe(kept + 2);
  });

  it('a snapshot committed by another connection: the next request gets it, and it is kept in turn', async () => {
    const first = snapshotId((await rawExchange(base, 'GET', '/api/snapshot/nba')).body);
    expect(snapshotId((await rawExchange(base, 'GET', '/api/snapshot/nba')).body)).toBe(first);
    const other = openStore(join(seeded.dir, 'pg.sqlite'));
    try {
      const sources = await buildOddsSource(seeded.config, { replayDir: 'data/replay', recordDir: null, now: seeded.now, log: quiet });
      await runSnapshot('nba', { store: other, odds: sources.odds, now: seeded.now, allowedBooks: null, log: quiet, source: 'replay' });
      await sources.close();
    } finally {
      await other.close();
    }
    const hits = app.replays.hits();
    const second = await rawExchange(base, 'GET', '/api/snapshot/nba');
    expect(snapshotId(second.body)).toBeGreaterThan(first);
    expect(app.replays.hits()).toBe(hits);
    const third = await rawExchange(base, 'GET', '/api/snapshot/nba');
    expect(app.replays.hits()).toBe(hits + 1);
    expect(third.head).toEqual(second.head);
    expect(third.body.equals(second.body)).toBe(true);
  }, 120_000);
});

describe('Replays', () => {
  const SOURCE = {};
  /** A server whose one answer is kept for replay, with the check `valid()`. */
  async function keeper(replays: Replays, valid: () => boolean, source: () => object = () => SOURCE): Promise<{ url: string; routed: () => number }> {
    let routed = 0;
    const url = await listen(async (req, res) => {
      if (await replays.answer(req, res)) return;
      routed += 1;
      res.setHeader('x-a', '1');
      res.appendHeader('vary', 'A');
      res.setHeader('content-length', 2);
      res.appendHeader('vary', 'B');
      res.end(Buffer.from('ok'));
      replays.offer(createEvent(req, res), Buffer.from('ok'), valid, source());
    });
    return { url, routed: () => routed };
  }

  it('replays the head as written (repeated lines, order), drops an answer whose check fails or throws', async () => {
    const replays = new Replays();
    let state: 'valid' | 'stale' | 'throws' = 'valid';
    const server = await keeper(replays, () => {
      if (state === 'throws') throw new Error('store gone');
      return state === 'valid';
    });
    const first = await rawExchange(server.url, 'GET', '/p');
    expect(first.head.slice(1, 5)).toEqual(['x-a: 1', 'vary: A', 'vary: B', 'content-length: 2']);
    expect(await rawExchange(server.url, 'GET', '/p')).toEqual(first);
    expect([server.routed(), replays.hits()]).toEqual([1, 1]);
    state = 'stale';
    expect(await rawExchange(server.url, 'GET', '/p')).toEqual(first);
    expect([server.routed(), replays.hits(), replays.size()]).toEqual([2, 1, 1]);
    state = 'throws';
    await rawExchange(server.url, 'GET', '/p');
    expect([server.routed(), replays.hits()]).toEqual([3, 1]);
  });

  it('drops what one URL kept from an older source when an answer from a newer one is offered', async () => {
    // The season soak: a 304 kept for an ETag no client sends again pinned its old snapshot.
    const replays = new Replays();
    let source = {};
    const server = await keeper(replays, () => true, () => source);
    await rawExchange(server.url, 'GET', '/p', { 'If-None-Match': '"a"' });
    await rawExchange(server.url, 'GET', '/p', { 'If-None-Match': '"b"' });
    await rawExchange(server.url, 'GET', '/q');
    expect([replays.size(), server.routed()]).toEqual([3, 3]);
    source = {};
    await rawExchange(server.url, 'GET', '/p', { 'If-None-Match': '"c"' });
    // /p's two older answers are gone (their check would still pass here); /q's, another URL, stays.
    expect(replays.size()).toBe(2);
    await rawExchange(server.url, 'GET', '/p', { 'If-None-Match': '"a"' });
    expect([server.routed(), replays.hits()]).toEqual([5, 0]);
    await rawExchange(server.url, 'GET', '/q');
    expect(replays.hits()).toBe(1);
  });

  it('keeps at most 64 answers, the oldest dropped first', async () => {
    const replays = new Replays();
    const server = await keeper(replays, () => true);
    for (let i = 0; i < 70; i++) await rawExchange(server.url, 'GET', '/p', { 'Accept-Encoding': `x${i}` });
    expect(replays.size()).toBe(64);
    await rawExchange(server.url, 'GET', '/p', { 'Accept-Encoding': 'x69' });
    await rawExchange(server.url, 'GET', '/p', { 'Accept-Encoding': 'x0' });
    expect([replays.hits(), server.routed()]).toEqual([1, 71]);
  });
});
