/**
 * GET /api/snapshot/{sport} views (issue 18): the slate card and the row filters, each the full
 * snapshot's own rows narrowed (same rows, same order, same tier shaping), answered in brotli where
 * the client takes it. No parameter is the full snapshot, byte for byte.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareGrades, type Grade } from '../../src/domain/grades.js';
import { MODEL_FIELDS } from '../../src/domain/tiers.js';
import { wireKey } from '../../src/wire.js';
import { createUser } from '../../src/accounts/users.js';
import { viewCoding } from '../../src/server/snapshot-cache.js';
import { findKeys, seedStore, startServer, type Running, type Seeded, rawGet, type RawReply } from './_harness.js';

type Row = Record<string, unknown> & { player: string; stat_type: string; grade: Grade | null; main_line: boolean; event_id: string };
type Body = { view?: string; filters?: Record<string, unknown>; games: Array<{ event_id: string; hidden?: number; rows: Row[] }> };

let seeded: Seeded;
let api: Running;
let desk = '';

const raw = (path: string, headers: Record<string, string> = {}) => rawGet(api.base, path, headers);
const json = (r: RawReply) => JSON.parse(r.body.toString('utf8')) as Body;
const rowsOf = (b: Body) => b.games.flatMap((g) => g.rows);

let full: Body;
let fullBytes: Buffer;

beforeAll(async () => {
  seeded = await seedStore();
  desk = (await createUser(seeded.store, { email: 'desk@example.test', tier: 'desk' }, seeded.now)).token;
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now });
  const r = await raw('/api/snapshot/nba');
  fullBytes = r.body;
  full = json(r);
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

describe('the full snapshot stays the seed route', () => {
  it('no parameter, view=full alone or unknown parameters: the same bytes and ETag', async () => {
    const plain = await raw('/api/snapshot/nba');
    for (const path of ['/api/snapshot/nba?view=full', '/api/snapshot/nba?utm=x', '/api/snapshot/nba?main=false']) {
      const r = await raw(path);
      expect(r.status, path).toBe(200);
      expect(r.body.equals(plain.body), path).toBe(true);
      expect(r.headers['etag'], path).toBe(plain.headers['etag']);
    }
    // The full route keeps its gzip negotiation (brotli is offered on views).
    const gz = await raw('/api/snapshot/nba', { 'accept-encoding': 'br, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });
});

describe('view=card: the slate card', () => {
  it('at most 6 graded props per game, one per player and stat, A+ to F, the full rows in their order', async () => {
    const r = await raw('/api/snapshot/nba?view=card');
    expect(r.status).toBe(200);
    const card = json(r);
    expect(card.view).toBe('card');
    expect(card.games.length).toBe(full.games.length);
    for (const g of card.games) {
      const graded = full.games.find((f) => f.event_id === g.event_id)!.rows.filter((x) => x.grade !== null);
      const seen = new Set<string>();
      const expected = graded.filter((x) => {
        const k = `${x.player}|${x.stat_type}`;
        if (seen.has(k) || seen.size === 6) return false;
        seen.add(k);
        return true;
      });
      expect(g.rows).toEqual(expected);
      expect(g.rows.length).toBeLessThanOrEqual(6);
      expect(g.hidden).toBe(graded.length - g.rows.length);
      for (let i = 1; i < g.rows.length; i++) expect(compareGrades(g.rows[i - 1]!.grade, g.rows[i]!.grade)).toBeLessThanOrEqual(0);
    }
    expect(r.body.length).toBeLessThan(fullBytes.length / 20);
  });
});

describe('filters narrow the full rows', () => {
  const first = () => full.games[0]!;
  const cases: Array<[string, () => string, (r: Row) => boolean]> = [
    ['game', () => `game=${first().event_id}`, (r) => r.event_id === first().event_id],
    ['player', () => `player=${encodeURIComponent(first().rows[0]!.player.toUpperCase())}`, (r) => r.player === first().rows[0]!.player],
    ['stat', () => 'stat=points', (r) => r.stat_type === 'points'],
    ['stat by market key', () => 'stat=player_rebounds', (r) => r.stat_type === 'rebounds'],
    ['min_grade=A', () => 'min_grade=A', (r) => r.grade === 'A+' || r.grade === 'A'],
    ['min_grade=A%2B', () => 'min_grade=A%2B', (r) => r.grade === 'A+'],
    ['min_grade=A+ (the + read as a space)', () => 'min_grade=A+', (r) => r.grade === 'A+'],
    ['main=true', () => 'main=true', (r) => r.main_line],
    ['main=1 and stat', () => 'main=1&stat=threes', (r) => r.main_line && r.stat_type === 'threes'],
  ];
  for (const [name, query, keep] of cases) {
    it(name, async () => {
      const r = await raw(`/api/snapshot/nba?${query()}`);
      expect(r.status).toBe(200);
      const body = json(r);
      expect(body.view).toBe('full');
      const want = rowsOf(full).filter(keep);
      expect(want.length).toBeGreaterThan(0);
      expect(rowsOf(body)).toEqual(want);
      expect(body.games.every((g) => g.rows.length > 0)).toBe(true);
    });
  }

  it('card with filters: the card of the matching rows', async () => {
    const body = json(await raw('/api/snapshot/nba?view=card&stat=points&min_grade=B'));
    for (const g of body.games) {
      expect(g.rows.length).toBeLessThanOrEqual(6);
      for (const r of g.rows) {
        expect(r.stat_type).toBe('points');
        expect(['A+', 'A', 'B']).toContain(r.grade);
      }
    }
  });

  it('bad values are a 400 naming the parameter', async () => {
    for (const q of ['stat=nonsense', 'min_grade=Z', 'view=table', 'main=maybe', 'player=%20%20', 'game=']) {
      const r = await raw(`/api/snapshot/nba?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.toString(), q).toMatch(/invalid query/);
    }
  });
});

describe('tier shaping and encodings of a view', () => {
  it('free views carry no model field; paid views do', async () => {
    const free = json(await raw('/api/snapshot/nba?view=card'));
    expect(findKeys(free, MODEL_FIELDS.map(wireKey))).toEqual([]);
    const paid = json(await raw('/api/snapshot/nba?view=card', { authorization: `Bearer ${desk}` }));
    expect(findKeys(paid, MODEL_FIELDS.map(wireKey)).length).toBeGreaterThan(0);
  });

  it('brotli where accepted, else gzip, else plain; each decodes to the plain bytes with its own ETag and a 304 for any', async () => {
    const path = '/api/snapshot/nba?view=card';
    const plain = await raw(path);
    const br = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await raw(path, { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.headers['vary']).toBe('Authorization, Accept-Encoding');
    const tag = plain.headers['etag']!;
    expect(br.headers['etag']).toBe(`${tag.slice(0, -1)}-br"`);
    expect(gz.headers['etag']).toBe(`${tag.slice(0, -1)}-gz"`);
    for (const held of [tag, br.headers['etag']!, gz.headers['etag']!]) {
      const r = await raw(path, { 'accept-encoding': 'br', 'if-none-match': held });
      expect(r.status, held).toBe(304);
      expect(r.headers['etag'], held).toBe(held);
    }
  });

  it('negotiates br by RFC 9110 weights', () => {
    expect(viewCoding(undefined)).toBe('identity');
    expect(viewCoding('br')).toBe('br');
    expect(viewCoding('gzip, br')).toBe('br');
    expect(viewCoding('br;q=0.5, gzip')).toBe('gzip');
    expect(viewCoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(viewCoding('*')).toBe('br');
    expect(viewCoding('identity;q=1, br;q=0.5')).toBe('identity');
    expect(viewCoding('deflate')).toBe('identity');
  });
});
