import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_FIELDS } from '../../src/domain/tiers.js';
import { wireKey } from '../../src/wire.js';
import { createUser } from '../../src/accounts/users.js';
import { acceptsGzip } from '../../src/server/snapshot-cache.js';
import { createSnapshotRunner } from '../../src/server/snapshot-runner.js';
import { findKeys, quiet, rawGet, seedStore, startServer, type RawReply, type Running, type Seeded } from './_harness.js';

const PATH = '/api/snapshot/nba';
/** The model fields as the wire names them. */
const MODEL = MODEL_FIELDS.map(wireKey);

let seeded: Seeded;
let api: Running;
const tokens = { free: '', analyst: '', desk: '' };

/** A GET over a fresh socket with exactly these headers: fetch would add its own Accept-Encoding and decode. */
const raw = (headers: Record<string, string> = {}, base = api.base): Promise<RawReply> => rawGet(base, PATH, headers);

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const gz = { 'accept-encoding': 'gzip' };

beforeAll(async () => {
  seeded = await seedStore({ PROPGRADE_REPLAY: 'data/replay' });
  tokens.free = (await createUser(seeded.store, { email: 'free@example.test', tier: 'free' }, seeded.now)).token;
  tokens.analyst = (await createUser(seeded.store, { email: 'analyst@example.test', tier: 'analyst' }, seeded.now)).token;
  tokens.desk = (await createUser(seeded.store, { email: 'desk@example.test', tier: 'desk' }, seeded.now)).token;
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now });
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

describe('acceptsGzip (RFC 9110 Accept-Encoding)', () => {
  const cases: Array<[string | undefined, boolean]> = [
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZIP', true],
    ['gzip, deflate, br', true],
    ['deflate, br', false],
    ['identity', false],
    ['x-gzip', true],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['gzip;Q=0.0, deflate', false],
    ['br, gzip;q=0.5', true],
    ['gzip;q=0.001', true],
    ['gzip;q=1.000', true],
    ['gzip;q=0.2, identity;q=1', false],
    ['gzip;q=1, identity;q=0.5', true],
    ['gzip;q=0.5, identity;q=0.5', true],
    ['*', true],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
    ['gzip;q=0.5, *;q=1', false],
    ['gzip;q=abc', false],
    ['gzip;q=1.5', false],
    ['gzip;q=0.1234', false],
    ['gzip, gzip;q=0', false],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} -> ${expected ? 'gzip' : 'plain'}`, () => expect(acceptsGzip(header)).toBe(expected));
  }
});

describe('GET /api/snapshot/{sport} in gzip', () => {
  it('gzip bytes decompress to exactly the plain body, with gzip headers and their own strong ETag', async () => {
    const plain = await raw();
    const zipped = await raw(gz);
    expect(plain.status).toBe(200);
    expect(zipped.status).toBe(200);

    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(plain.headers['vary']).toBe('Authorization, Accept-Encoding');
    const json = JSON.parse(plain.body.toString('utf8')) as { sport: string; games: unknown[] };
    expect(json.sport).toBe('nba');
    expect(json.games.length).toBeGreaterThan(0);

    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(zipped.headers['vary']).toBe('Authorization, Accept-Encoding');
    expect(zipped.headers['cache-control']).toBe('public, max-age=60');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    // The gzip magic number, and a body far smaller than the JSON it carries.
    expect([...zipped.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 5);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);

    const etag = plain.headers['etag']!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(zipped.headers['etag']).toBe(`${etag.slice(0, -1)}-gz"`);
  });

  it('respects q=0 and identity preferences: the plain bytes, no Content-Encoding', async () => {
    const plain = await raw();
    for (const ae of ['gzip;q=0', 'gzip;q=0.000, deflate', 'identity;q=1, gzip;q=0.2', '*, gzip;q=0', 'deflate, br']) {
      const r = await raw({ 'accept-encoding': ae });
      expect(r.status, ae).toBe(200);
      expect(r.headers['content-encoding'], ae).toBeUndefined();
      expect(r.headers['etag'], ae).toBe(plain.headers['etag']);
      expect(r.headers['vary'], ae).toBe('Authorization, Accept-Encoding');
      expect(r.body.equals(plain.body), ae).toBe(true);
    }
    for (const ae of ['br, gzip;q=0.5', '*', 'x-gzip', 'gzip, deflate']) {
      const r = await raw({ 'accept-encoding': ae });
      expect(r.headers['content-encoding'], ae).toBe('gzip');
      expect(gunzipSync(r.body).equals(plain.body), ae).toBe(true);
    }
  });

  it('If-None-Match with either ETag answers 304, naming the representation the client holds', async () => {
    const plainTag = (await raw()).headers['etag']!;
    const gzTag = (await raw(gz)).headers['etag']!;
    expect(gzTag).not.toBe(plainTag);
    for (const accept of [{}, gz]) {
      for (const held of [plainTag, gzTag, `W/${plainTag}`, `W/${gzTag}`, `"elsewhere", ${gzTag}`]) {
        const r = await raw({ ...accept, 'if-none-match': held });
        const label = `${JSON.stringify(accept)} If-None-Match ${held}`;
        expect(r.status, label).toBe(304);
        expect(r.body.length, label).toBe(0);
        expect(r.headers['etag'], label).toBe(held.includes('-gz') ? gzTag : plainTag);
        expect(r.headers['vary'], label).toBe('Authorization, Accept-Encoding');
        expect(r.headers['cache-control'], label).toBe('public, max-age=60');
      }
      const star = await raw({ ...accept, 'if-none-match': '*' });
      expect(star.status).toBe(304);
      expect(star.headers['etag']).toBe('accept-encoding' in accept ? gzTag : plainTag);
    }
    // A paid caller's validators are not the free ones: it gets its own body.
    const desk = await raw({ ...gz, ...bearer(tokens.desk), 'if-none-match': `${plainTag}, ${gzTag}` });
    expect(desk.status).toBe(200);
    expect(desk.headers['etag']).toMatch(/-gz"$/);
    expect(desk.headers['etag']).not.toBe(gzTag);
  });

  it('free and paid shaping are identical after decompression: no model field in any free gzip body', async () => {
    const callers: Array<{ who: string; headers: Record<string, string>; paid: boolean }> = [
      { who: 'none', headers: {}, paid: false },
      { who: 'free', headers: bearer(tokens.free), paid: false },
      { who: 'garbage', headers: bearer('pg_not-a-real-token'), paid: false },
      { who: 'analyst', headers: bearer(tokens.analyst), paid: true },
      { who: 'desk', headers: bearer(tokens.desk), paid: true },
    ];
    for (const c of callers) {
      const plain = await raw(c.headers);
      const zipped = await raw({ ...c.headers, ...gz });
      expect(zipped.headers['content-encoding'], c.who).toBe('gzip');
      expect(zipped.headers['cache-control'], c.who).toBe(`${c.who === 'none' ? 'public' : 'private'}, max-age=60`);
      const decoded = gunzipSync(zipped.body);
      expect(decoded.equals(plain.body), c.who).toBe(true);
      const body = JSON.parse(decoded.toString('utf8')) as { tier: string };
      expect(body.tier, c.who).toBe(c.paid ? c.who : 'free');
      expect(findKeys(body, ['model_price_locked']).length, c.who).toBeGreaterThan(0);
      const model = findKeys(body, MODEL);
      if (c.paid) {
        expect(model.length, c.who).toBeGreaterThan(0);
        expect(decoded.includes('"model_price_locked":true'), c.who).toBe(false);
      } else {
        expect(model, c.who).toEqual([]);
        expect(decoded.includes('"model_price_locked":false'), c.who).toBe(false);
      }
    }
  });

  it('compresses once per snapshot per tier, and again only for a newer snapshot', async () => {
    // Its own app, so its cache counts only what happens here.
    const fresh = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now });
    const cache = fresh.server.snapshotCache;
    const get = (headers: Record<string, string>) => raw(headers, fresh.base);
    try {
      expect(cache.compressions()).toBe(0);
      const everyone = [{}, bearer(tokens.free), bearer(tokens.analyst), bearer(tokens.desk)];
      for (let i = 0; i < 3; i++) {
        for (const who of everyone) {
          expect((await get(who)).status).toBe(200);
          expect((await get({ ...who, ...gz })).headers['content-encoding']).toBe('gzip');
        }
      }
      // Three tiers (free, analyst, desk): each serialized and gzipped once, over 24 requests.
      expect(cache.serializations()).toBe(3);
      expect(cache.compressions()).toBe(3);
      const before = await get(gz);

      // A newer snapshot of the same slate, by the server's own pipeline over the replay.
      const runner = createSnapshotRunner(seeded.store, seeded.config, () => seeded.now, quiet);
      await runner(['nba']);
      const after = await get(gz);
      expect(after.headers['etag']).not.toBe(before.headers['etag']);
      const stale = await get({ ...gz, 'if-none-match': before.headers['etag']! });
      expect(stale.status).toBe(200);
      expect(gunzipSync(stale.body).equals(gunzipSync(after.body))).toBe(true);
      for (let i = 0; i < 3; i++) await get({ ...bearer(tokens.desk), ...gz });
      expect(cache.serializations()).toBe(5);
      expect(cache.compressions()).toBe(5);
    } finally {
      await fresh.close();
    }
  }, 120_000);
});
