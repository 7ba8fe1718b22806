import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ledgerEntries } from '../../src/store/schema.js';
import { quiet, seedStore, startServer, type Running, type Seeded } from './_harness.js';

/**
 * The five context routes on the real app over the bundled replay (PROPGRADE_REPLAY=data/replay):
 * what `propgrade serve` answers on a fresh clone. The clock is the morning after the bundled NBA
 * day, so its box scores, the fight cards, the odds and three news feeds are recorded by then.
 */

const NOW = new Date('2025-11-06T12:00:00Z');
let seeded: Seeded;
let api: Running;

async function get(path: string, base = api.base) {
  const res = await fetch(base + path);
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: JSON.parse(text) as Record<string, any>, text };
}

beforeAll(async () => {
  seeded = await seedStore({ PROPGRADE_REPLAY: 'data/replay', FUTURES_ENABLED: '1' });
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => NOW, log: quiet });
}, 120_000);
afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

describe('GET /api/live/{sport}', () => {
  it('tracks the day with snake_case rows, labelled tracking, cached 90 s server-side', async () => {
    const r = await get('/api/live/nba?date=2025-11-05');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=30');
    expect(r.json).toMatchObject({ sport: 'nba', date: '2025-11-05', available: true, tracking: true, stale: false });
    expect(r.json.rows.length).toBeGreaterThanOrEqual(seeded.store.db.select().from(ledgerEntries).all().length);
    expect(Object.keys(r.json.rows[0]).sort()).toEqual(
      ['current', 'elapsed_share', 'game_id', 'game_status', 'grade', 'label', 'line', 'needs', 'note', 'opponent', 'outcome', 'pace_projection', 'phase', 'player', 'proximity', 'side', 'source', 'stat', 'state', 'team'].sort(),
    );
    expect(r.json.rows[0].state).toBe('HIT');
    // Every game of the day is final: final phases and states only, counted per state.
    expect(r.json.rows.every((x: { phase: string; state: string | null }) => x.phase === 'final' && ['HIT', 'MISS', 'PUSH', 'VOID', null].includes(x.state))).toBe(true);
    expect(r.json.state_counts.reduce((a: number, c: { count: number }) => a + c.count, 0)).toBe(r.json.rows.length);
    const again = await get('/api/live/nba?date=2025-11-05');
    // A replayed server: the answer says it is a replay and when its box scores were recorded, never a fetch time or an age (issue 41 item 8).
    expect(r.json).toMatchObject({ replay: true, recorded_at: expect.any(String), read_as_of: expect.any(String) });
    expect(r.json).not.toHaveProperty('age_seconds');
    expect(again.json.recorded_at).toBe(r.json.recorded_at);
  });

  it('today (the server clock) has nothing to track: the hidden state; mma and bad dates are 400', async () => {
    expect((await get('/api/live/nba')).json).toMatchObject({ sport: 'nba', date: '2025-11-06', available: false });
    expect((await get('/api/live/mma')).status).toBe(400);
    expect((await get('/api/live/nba?date=2025-02-30')).json.error.code).toBe('BAD_INPUT');
  });
});

describe('GET /api/news/{sport}', () => {
  it('the wire, newest first; limit cuts it', async () => {
    const r = await get('/api/news/mlb?limit=3');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ sport: 'mlb', available: true, count: 3 });
    const times = r.json.items.map((i: { published: string }) => i.published);
    expect([...times].sort().reverse()).toEqual(times);
    expect(r.json.items[2]).toMatchObject({ athlete: { name: 'William Contreras' }, team: { abbr: 'MIL' } });
  });

  it('a feed recorded after the clock is hidden with the reason, never a 5xx', async () => {
    const r = await get('/api/news/nba');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ sport: 'nba', available: false });
    expect(r.json.reason).toMatch(/not recorded/);
  });
});

describe('GET /api/futures/{sport}', () => {
  it('the World Series board at the best price, prev_price and move absent without a previous price', async () => {
    const r = await get('/api/futures/mlb');
    expect(r.json).toMatchObject({ sport: 'mlb', available: true, updated_at: '2021-11-13T17:37:04Z' });
    const sel = r.json.markets[0].selections[0];
    expect(sel).toEqual({ name: 'Los Angeles Dodgers', price: 550, book: 'unibet', books: 2 });
    expect(r.headers.get('cache-control')).toBe('public, max-age=900');
  });

  it('wnba hidden (no futures key), nba hidden (not recorded), soccer a 400', async () => {
    expect((await get('/api/futures/wnba')).json).toMatchObject({ available: false, reason: expect.stringMatching(/no WNBA championship futures key/) });
    expect((await get('/api/futures/nba')).json).toMatchObject({ sport: 'nba', available: false });
    expect((await get('/api/futures/soccer')).status).toBe(400);
  });
});

describe('GET /api/combat/{date} and /api/fight/{id}', () => {
  it('the card with odds joined by name, data-limited markets and a model read', async () => {
    const r = await get('/api/combat/2025-09-27');
    expect(r.json).toMatchObject({ date: '2025-09-27', available: true, data_limited: ['method', 'round', 'ko'], odds: { available: true } });
    const bout = r.json.cards[0].bouts.find((b: { id: string }) => b.id === '401801745');
    expect(bout).toMatchObject({
      weight_class: 'Light Heavyweight',
      scheduled_rounds: 5,
      fighters: [{ name: 'Carlos Ulberg', record: '13-1-0', athlete_id: '4695736' }, { name: 'Dominick Reyes', record: '15-4-0', athlete_id: '4233039' }],
      odds: { moneyline: [{ fighter: 'Carlos Ulberg', best: { price: -175, book: 'betrivers' } }, { fighter: 'Dominick Reyes', best: { price: 165, book: 'betmgm' } }], round_totals: [] },
      style_edge: { kind: 'model read, not a grade', edge: null },
    });
  });

  it('one fight by id; an unknown id is a 404 in the envelope; a malformed one a 400', async () => {
    const r = await get('/api/fight/401801745');
    expect(r.json).toMatchObject({ available: true, bout: { id: '401801745', card: { name: 'UFC Fight Night: Ulberg vs. Reyes' } } });
    const missing = await get('/api/fight/12345');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: { code: 'NOT_FOUND', message: 'no fight card holds bout 12345' } });
    expect((await get('/api/fight/abc')).status).toBe(400);
    expect((await get('/api/combat/2025-13-40')).status).toBe(400);
  });

  it('a date nothing was recorded for: hidden with the reason (not an empty list, which would claim no card)', async () => {
    const r = await get('/api/combat/2025-12-25');
    expect(r.json).toMatchObject({ date: '2025-12-25', available: false, reason: expect.stringMatching(/no ESPN MMA scoreboard/) });
  });
});

describe('the routes never answer 5xx for a provider', () => {
  it('a broken PROPGRADE_REPLAY folder hides every feature with its reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-ctx-broken-'));
    writeFileSync(join(dir, 'manifest.json'), '{"not": "a manifest"}');
    const broken = await startServer({ store: seeded.store, config: loadConfig({ PROPGRADE_REPLAY: dir, FUTURES_ENABLED: '1' }), now: () => NOW, log: quiet });
    try {
      for (const path of ['/api/live/nba?date=2025-11-05', '/api/news/nba', '/api/futures/mlb', '/api/combat/2025-09-27', '/api/fight/401801745']) {
        const r = await get(path, broken.base);
        expect(r.status, path).toBe(200);
        expect(r.json.available, path).toBe(false);
        expect(r.json.reason, path).toMatch(/replay manifest/);
      }
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the OpenAPI document lists the five routes as public context routes', async () => {
    const doc = (await get('/openapi.json')).json as { paths: Record<string, { get: { 'x-access': string; tags: string[] } }> };
    for (const p of ['/api/live/{sport}', '/api/news/{sport}', '/api/futures/{sport}', '/api/combat/{date}', '/api/fight/{id}']) {
      expect(doc.paths[p]?.get['x-access'], p).toBe('public');
      expect(doc.paths[p]?.get.tags).toEqual(['context']);
    }
  });
});
