import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createUser } from '../../src/accounts/users.js';
import { DEFAULT_LIMITS } from '../../src/server/context.js';
import { findKeys, quiet, seedStore, startServer, type Running, type Seeded } from './_harness.js';

/**
 * The stats routes over HTTP on the real app (issue 17): a store seeded by the snapshot pipeline over
 * the bundled replay, and PROPGRADE_REPLAY=data/replay for the providers, as `propgrade serve
 * --replay data/replay` runs them.
 */

let seeded: Seeded;
let api: Running;
let limited: Running;
/** Lineup dates lie within 30 days of the data clock (docs/api.md "Upstream rationing"): a server as of the MLB recording (2023-09-19). */
let mlbDay: Running;
let token: string;
const get = (path: string, headers: Record<string, string> = {}, on: Running = api) => fetch(`${on.base}${path}`, { headers });
const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();

beforeAll(async () => {
  seeded = await seedStore();
  token = (await createUser(seeded.store, { email: 'desk@stats.test', tier: 'desk' }, seeded.now)).token;
  const config = loadConfig({ PROPGRADE_REPLAY: 'data/replay' });
  api = await startServer({ store: seeded.store, config, now: () => seeded.now, log: quiet, limits: { statsPerWindow: 10_000, upstreamPerWindow: 10_000 } });
  mlbDay = await startServer({ store: seeded.store, config, now: () => new Date('2023-09-20T12:00:00Z'), log: quiet });
  limited = await startServer({ store: seeded.store, config, now: () => seeded.now, wallClock: () => new Date('2026-11-27T20:00:00Z'), log: quiet });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await limited?.close();
  await mlbDay?.close();
  seeded?.cleanup();
});

describe('GET /api/stats/player/{name}', () => {
  it('profile, season averages with n, form, archetype; props tier-shaped per caller', async () => {
    const res = await get('/api/stats/player/Jalen%20Brunson');
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toContain('Authorization');
    const body = await json(res);
    expect(body).toMatchObject({ sport: 'nba', player: 'Jalen Brunson', available: true, profile: { team: 'NY', games: 72 } });
    expect(body.seasons[0]).toMatchObject({ season: '2025-26', played: 7, minutes: { avg: 34, n: 7 } });
    expect(body.seasons[0].stats[0]).toEqual({ stat: 'points', avg: 29, n: 7, total: 203 });
    expect(body.archetype.primary).toBe('SLASHER');
    expect(body.props.length).toBe(14);
    expect(findKeys(body, ['projection_prob', 'projection_odds', 'projection_ev_pct', 'projection_record'])).toEqual([]);
    expect(body.props.every((p: { model_price_locked: boolean }) => p.model_price_locked)).toBe(true);
    const paid = await json(get('/api/stats/player/Jalen%20Brunson', { authorization: `Bearer ${token}` }));
    expect(paid.props[0]).toHaveProperty('projection_prob');
    expect(paid.props[0].model_price_locked).toBe(false);
  });

  it('ambiguous: 404 envelope with details.candidates; unknown: 404 with did-you-mean details.suggestions', async () => {
    const amb = await get('/api/stats/player/Williams');
    expect(amb.status).toBe(404);
    const a = await json(amb);
    expect(a.error).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'ambiguous', query: 'Williams' } });
    expect(a.error.message).toMatch(/ambiguous/);
    expect(a.error.details.candidates.map((c: { name: string }) => c.name)).toContain('Jalen Williams');
    const unk = await get('/api/stats/player/Jalen%20Brunsonn');
    expect(unk.status).toBe(404);
    expect((await json(unk)).error.details).toMatchObject({ reason: 'unknown', suggestions: [{ name: 'Jalen Brunson', sport: 'nba' }] });
  });

  it('a player with no stored lines: 200, available false, no figures', async () => {
    const body = await json(get('/api/stats/player/Cedric%20Coward'));
    expect(body).toMatchObject({ available: false, player: 'Cedric Coward' });
    expect(body).not.toHaveProperty('seasons');
  });
});

describe('GET /api/stats/leaders', () => {
  it('2024-25 threes with the documented minimum', async () => {
    const body = await json(get('/api/stats/leaders?stat=threes&season=2024-25&limit=3'));
    expect(body).toMatchObject({ sport: 'nba', stat: 'threes', season: '2024-25', min_games: 58, team_games_max: 82 });
    expect(body.leaders[0]).toEqual({ rank: 1, key: 'stephen curry', player: 'Stephen Curry', team: 'GS', games: 70, avg: 4.44, total: 311 });
  });

  it('bad input is a 400 naming the field', async () => {
    expect((await get('/api/stats/leaders')).status).toBe(400);
    const bad = await get('/api/stats/leaders?stat=hits');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toMatch(/stat: 'hits' is not a nba stat/);
  });
});

describe('GET /api/stats/game/{id}', () => {
  it('stored (date:team), ESPN summary and MLB live feed through the replay', async () => {
    const stored = await json(get('/api/stats/game/2025-11-03:NY'));
    expect(stored).toMatchObject({ source: 'store', date: '2025-11-03', players: 15 });
    const espn = await json(get('/api/stats/game/c13de17fcb4b3e9c45de21f479151ed5'));
    expect(espn).toMatchObject({ source: 'espn summary', status: 'final', date: '2025-11-04' });
    const mlb = await json(get('/api/stats/game/716896?sport=mlb'));
    expect(mlb).toMatchObject({ source: 'mlb statsapi live feed', date: '2023-08-22', players: 30 });
  });
});

describe('GET /api/stats/pitcher/{name}/arsenal', () => {
  it('2022 Rodón from the recorded Savant exports', async () => {
    const res = await get('/api/stats/pitcher/Carlos%20Rod%C3%B3n/arsenal?season=2022');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ found: true, season: 2022, pitcher: { name: 'Carlos Rodón', mlbam_id: 607074 }, strikeout_pct: 31.9 });
    expect(body.pitches[0]).toEqual({ pitch_type: 'FF', pitch_name: '4-Seamer', usage_pct: 60.8, whiff_pct: 25.8, velocity_mph: 95.7, k_pct: 29.1, pitches: 1422, pa: 357 });
  });

  it('unknown pitcher and a season not recorded at the server clock: 200 {found: false}', async () => {
    const unk = await json(get('/api/stats/pitcher/Nobody%20Atall/arsenal?season=2022'));
    expect(unk).toMatchObject({ found: false, season: 2022 });
    const later = await json(get('/api/stats/pitcher/Kevin%20Gausman/arsenal'));
    expect(later).toMatchObject({ found: false, season: 2025, reason: expect.stringMatching(/not recorded/) });
  });
});

describe('GET /api/stats/lineup, /api/stats/depth, /api/stats/cascade', () => {
  it('lineups of 2023-08-22: states from the live feed', async () => {
    const body = await json(get('/api/stats/lineup?sport=mlb&date=2023-08-22', {}, mlbDay));
    expect(body).toMatchObject({ sport: 'mlb', available: true, counts: { CONFIRMED: 18, NOT_IN: 3, PROJECTED: 0 } });
    expect(body.games[0].teams[0].players[0]).toEqual({ player: 'Mike Tauchman', key: 'mike tauchman', state: 'CONFIRMED', batting_slot: 1 });
    expect(await json(get('/api/stats/lineup?sport=nba'))).toMatchObject({ sport: 'nba', available: false });
    // The same date from a server whose data clock is two years on: outside the window, 400 before any provider call.
    expect((await get('/api/stats/lineup?sport=mlb&date=2023-08-22')).status).toBe(400);
  });

  it('the Braves depth chart with its source and time; an unknown team is a 404', async () => {
    const body = await json(get('/api/stats/depth?team=ATL&sport=mlb'));
    expect(body).toMatchObject({ sport: 'mlb', team: { abbr: 'ATL', name: 'Atlanta Braves' }, source: 'ESPN MLB team roster', provider_time: '2025-05-19T04:14:04Z', players: 25 });
    expect((await get('/api/stats/depth?team=Nowhere')).status).toBe(404);
    expect((await get('/api/stats/depth')).status).toBe(400);
  });

  it('the Embiid cascade; an ambiguous player is a 404 with candidates', async () => {
    const body = await json(get('/api/stats/cascade?player=Joel%20Embiid'));
    expect(body).toMatchObject({ available: true, team: 'PHI', games_with: 23, games_without: 56, min_games: 5 });
    expect(body.teammates[0]).toHaveProperty('with.n');
    expect(body.teammates[0]).toHaveProperty('without.minutes.avg');
    expect(body.teammates.every((t: { with: { n: number }; without: { n: number } }) => t.with.n >= 5 && t.without.n >= 5)).toBe(true);
    const amb = await get('/api/stats/cascade?player=Williams');
    expect(amb.status).toBe(404);
    expect((await json(amb)).error.details.reason).toBe('ambiguous');
  });
});

describe('GET /api/desk-showcase', () => {
  it('the real ladder, the tile, no Kelly; public and cacheable', async () => {
    const res = await get('/api/desk-showcase');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const body = await json(res);
    expect(body).toMatchObject({ available: true, player: 'Pascal Siakam', stat: 'pra', side: 'under', prop: { grade: 'A', line: 39.5 } });
    expect(body.rungs).toHaveLength(6);
    expect(body.correlation.coefficient).toBe(0.34);
    expect(JSON.stringify(body)).not.toMatch(/kelly/i);
    expect(findKeys(body, ['projection_prob', 'projection_odds', 'projection_ev_pct', 'projection_record'])).toEqual([]);
  });
});

describe('rate limit on player, leaders, game, cascade and the showcase (the stats limit: 60 per 60 s per caller)', () => {
  it(`the ${DEFAULT_LIMITS.statsPerWindow + 1}th call is a 429 with Retry-After`, async () => {
    const paths = ['/api/stats/leaders?stat=points', '/api/stats/player/Jalen%20Brunson', '/api/stats/game/2025-11-03:NY'];
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_LIMITS.statsPerWindow; i++) statuses.push((await get(paths[i % paths.length]!, {}, limited)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await get('/api/stats/game/2025-11-03:NY', {}, limited);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBe(DEFAULT_LIMITS.statsWindowSeconds);
    expect((await json(over)).error.code).toBe('RATE_LIMITED');
    // Cascade and the showcase share the stats budget (issue 40: each reads the store at length);
    // the provider-backed routes carry the upstream budget instead.
    expect((await get('/api/desk-showcase', {}, limited)).status).toBe(429);
    expect((await get('/api/stats/cascade?player=Joel%20Embiid', {}, limited)).status).toBe(429);
    expect((await get('/api/stats/depth?team=ATL&sport=mlb', {}, limited)).status).toBe(200);
  }, 60_000);
});

describe('no answer reads like a stack trace or a file path (the fuzz suite’s leak rule)', () => {
  const LEAK = /\bat .+:\d+:\d+\)?|\/work\/|node_modules|\.ts:\d+|file:\/\//;
  it('every demo answer of the stats routes', async () => {
    const paths = [
      '/api/stats/player/Jalen%20Brunson',
      '/api/stats/player/Cedric%20Coward',
      '/api/stats/leaders?stat=points',
      '/api/stats/leaders?stat=points&min_games=3',
      '/api/stats/leaders?stat=points&season=2030-31',
      '/api/stats/game/716896?sport=mlb',
      '/api/stats/pitcher/Kevin%20Gausman/arsenal',
      '/api/stats/lineup?sport=mlb&date=2023-08-22',
      '/api/stats/depth?team=ATL&sport=mlb',
      '/api/stats/cascade?player=Joel%20Embiid',
      '/api/desk-showcase',
    ];
    for (const p of paths) expect(LEAK.exec(await (await get(p)).text())?.[0], p).toBeUndefined();
  });
});
