import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { addDays, easternDate } from '../../src/domain/time.js';
import { quiet, seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';

/**
 * Upstream work is rationed (issue 32 item 4). The routes that may call a provider take dates only
 * within a window around the DATA clock (a replayed store's 2025-11-05 here, two clocks apart from
 * the wall clock), and share one per-caller budget on the WALL clock: 30 per 60 s, then 429 with
 * Retry-After. The providers are the bundled recording (PROPGRADE_REPLAY), so nothing leaves the
 * machine. Before this change a new date on /api/combat/{date} cost 1.4-1.8 s of live provider
 * attempts (issue 32, main at 8375c3d), with no window and no per-address limit.
 */

let seeded: Seeded;
/** Budget out of the way: the windows alone. */
let windows: Running;
/** The default limits: the budget. */
let budgeted: Running;
let wall = new Date('2026-11-27T20:00:00Z');
let today: string;

beforeAll(async () => {
  seeded = await seedStore();
  const config = loadConfig({ PROPGRADE_REPLAY: 'data/replay', FUTURES_ENABLED: '1' });
  today = easternDate(seeded.now);
  windows = await startServer({ store: seeded.store, config, now: () => seeded.now, wallClock: () => wall, log: quiet, limits: { upstreamPerWindow: 100_000 } });
  budgeted = await startServer({ store: seeded.store, config, now: () => seeded.now, wallClock: () => wall, log: quiet });
}, 120_000);
afterAll(async () => {
  await windows?.close();
  await budgeted?.close();
  seeded?.cleanup();
});

async function timedGet(on: Running, path: string): Promise<{ status: number; ms: number; body: any; retryAfter: string | null }> {
  const t0 = performance.now();
  const res = await fetch(on.base + path);
  const body = await res.json();
  return { status: res.status, ms: performance.now() - t0, body, retryAfter: res.headers.get('retry-after') };
}

describe('dates outside the window around the data clock are a 400 before any provider work', () => {
  const cases: { route: string; path: (date: string) => string; back: number; ahead: number }[] = [
    { route: 'GET /api/live/{sport}?date=', path: (d) => `/api/live/nba?date=${d}`, back: 7, ahead: 1 },
    { route: 'GET /api/stats/lineup?date=', path: (d) => `/api/stats/lineup?sport=mlb&date=${d}`, back: 30, ahead: 7 },
    { route: 'GET /api/combat/{date}', path: (d) => `/api/combat/${d}`, back: 366, ahead: 60 },
  ];

  for (const c of cases) {
    it(`${c.route}: ${c.back} days back to ${c.ahead} ahead of the data date pass; one more either way is 400`, async () => {
      for (const days of [-c.back, 0, c.ahead]) {
        const r = await timedGet(windows, c.path(addDays(today, days)));
        expect(r.status, `${days} days`).toBe(200);
      }
      const refused = [];
      for (const days of [-c.back - 1, c.ahead + 1, 3650, -3650]) {
        const date = addDays(today, days);
        const r = await timedGet(windows, c.path(date));
        expect(r.status, `${days} days`).toBe(400);
        expect(r.body.error.code).toBe('BAD_INPUT');
        expect(r.body.error.message).toContain(`between ${addDays(today, -c.back)} and ${addDays(today, c.ahead)}`);
        expect(r.body.error.message).toContain(date);
        refused.push(r.ms);
      }
      console.info(`${c.route}: out of window answered 400 in ${refused.map((ms) => ms.toFixed(1)).join(', ')} ms`);
      // Generous: the refusal runs no provider code; a live attempt took 1.4-1.8 s.
      expect(Math.max(...refused)).toBeLessThan(1000);
    });
  }

  it('the data clock decides, not the wall clock: the wall clock a year on moves no window', async () => {
    const saved = wall;
    wall = new Date('2027-11-27T20:00:00Z');
    try {
      expect((await timedGet(windows, `/api/live/nba?date=${today}`)).status).toBe(200);
      expect((await timedGet(windows, `/api/live/nba?date=${easternDate(wall)}`)).status).toBe(400);
    } finally {
      wall = saved;
    }
  });

  it('arsenal seasons: 2015 (Statcast) through the data year; a later season is a 400', async () => {
    expect((await timedGet(windows, '/api/stats/pitcher/Carlos%20Rod%C3%B3n/arsenal?season=2022')).status).toBe(200);
    expect((await timedGet(windows, '/api/stats/pitcher/Carlos%20Rod%C3%B3n/arsenal?season=2025')).status).toBe(200);
    const later = await timedGet(windows, '/api/stats/pitcher/Carlos%20Rod%C3%B3n/arsenal?season=2026');
    expect(later.status).toBe(400);
    expect(later.body.error.message).toContain('between 2015 and 2025');
    expect((await timedGet(windows, '/api/stats/pitcher/Carlos%20Rod%C3%B3n/arsenal?season=2014')).status).toBe(400);
  });
});

describe('one budget per caller across the upstream routes, on the wall clock', () => {
  const upstreamPaths = ['/api/news/nba', `/api/live/nba?date=${'2025-11-05'}`, '/api/futures/nba', '/api/combat/2025-09-27', '/api/fight/401801745', '/api/stats/game/716896?sport=mlb', '/api/stats/depth?team=ATL&sport=mlb', '/api/stats/lineup?sport=nba', '/api/stats/pitcher/Nobody%20Atall/arsenal?season=2022'];

  it('30 calls spread over the nine routes pass; the 31st is 429 with Retry-After; a wall minute later it opens', async () => {
    wall = new Date('2026-11-27T21:00:00Z');
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await timedGet(budgeted, upstreamPaths[i % upstreamPaths.length]!)).status);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    for (const path of upstreamPaths) {
      const over = await timedGet(budgeted, path);
      expect(over.status, path).toBe(429);
      expect(over.retryAfter, path).toBe('60');
      expect(over.body.error.code).toBe('RATE_LIMITED');
    }
    // Out-of-window and malformed requests count too: the budget runs before the input is read.
    expect((await timedGet(budgeted, '/api/combat/1999-01-01')).status).toBe(429);
    // Routes that never call a provider keep answering.
    expect((await timedGet(budgeted, '/api/snapshot/summary')).status).toBe(200);
    expect((await timedGet(budgeted, '/api/stats/cascade?player=Joel%20Embiid')).status).toBe(200);
    // 45 s on: still shut, Retry-After counts down with the wall clock; at 60 s the window opens.
    wall = new Date('2026-11-27T21:00:45Z');
    expect((await timedGet(budgeted, '/api/news/nba')).retryAfter).toBe('15');
    wall = new Date('2026-11-27T21:01:00Z');
    expect((await timedGet(budgeted, '/api/news/nba')).status).toBe(200);
  });

  it('/openapi.json marks exactly the provider-capable operations and declares their 429 with Retry-After', async () => {
    const doc = (await timedGet(budgeted, '/openapi.json')).body;
    const upstream: string[] = [];
    for (const [template, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(methods)) {
        if (op['x-upstream'] !== true) continue;
        upstream.push(`${method.toUpperCase()} ${template}`);
        expect(op.responses['429'], template).toEqual({ $ref: '#/components/responses/RateLimited' });
        expect(op.description, template).toContain('upstream budget');
      }
    }
    expect(upstream.sort()).toEqual(
      [
        'GET /api/combat/{date}',
        'GET /api/fight/{id}',
        'GET /api/futures/{sport}',
        'GET /api/live/{sport}',
        'GET /api/news/{sport}',
        'GET /api/stats/depth',
        'GET /api/stats/game/{id}',
        'GET /api/stats/lineup',
        'GET /api/stats/pitcher/{name}/arsenal',
      ].sort(),
    );
    expect(doc.components.responses.RateLimited.headers['Retry-After'].required).toBe(true);
  });
});
