import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCreditsSpent } from '../../src/store/repo/odds-credits.js';
import { routeTemplates } from '../../src/server/metrics.js';
import { quiet, seedStore, startServer, type Running, type Seeded } from './_harness.js';

const KEY = 'metrics-internal-key-0123456789';
const WALL = new Date('2026-11-27T12:00:00Z');
let seeded: Seeded;
let api: Running;

beforeAll(async () => {
  seeded = await seedStore({ INTERNAL_API_KEY: KEY, ODDS_API_DAILY_BUDGET: '500' });
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => WALL, log: quiet });
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

const scrape = async (headers: Record<string, string> = { 'x-internal-key': KEY }) => fetch(`${api.base}/metrics`, { headers });

/** Every sample line of the exposition: `name{labels} value`. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (-?[0-9.e+-]+|NaN|Nan|\+Inf|-Inf)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

describe('GET /metrics', () => {
  it('is closed without the internal key (401 in the envelope), open with the header or a Bearer key', async () => {
    const none = await scrape({});
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error.code).toBe('UNAUTHORIZED');
    expect((await scrape({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await scrape({ authorization: `Bearer ${KEY}` })).status).toBe(200);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });

  it('valid exposition text whose request counter moves with requests, labelled by route template', async () => {
    const key = 'propgrade_http_requests_total{route="/api/snapshot/:sport",method="GET",status="200"}';
    const before = samples(await (await scrape()).text()).get(key) ?? 0;
    for (let i = 0; i < 3; i++) expect((await fetch(`${api.base}/api/snapshot/nba`)).status).toBe(200);
    await fetch(`${api.base}/no/such/path/${'x'.repeat(50)}`);
    const after = samples(await (await scrape()).text());
    expect(after.get(key)).toBe(before + 3);
    expect(after.get('propgrade_http_requests_total{route="unmatched",method="GET",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(after.get('propgrade_http_request_duration_seconds_count{route="/api/snapshot/:sport",method="GET"}')).toBeGreaterThanOrEqual(3);
    expect(after.get('propgrade_http_response_bytes_total{route="/api/snapshot/:sport"}')).toBeGreaterThan(0);
    expect(after.get('propgrade_cache_requests_total{cache="snapshot",result="hit"}')).toBeGreaterThanOrEqual(1);
  });

  it('the runs’ figures come from what the run recorded in the store; credits by the wall clock’s day', async () => {
    await addCreditsSpent(seeded.store, WALL, 77);
    const m = samples(await (await scrape()).text());
    const snap = seeded.store.sqlite.prepare("select id, run_id as runId from snapshots where sport = 'nba' order by id desc limit 1").get() as { id: number; runId: number };
    const rows = (seeded.store.sqlite.prepare('select count(*) as n from graded_rows where snapshot_id = ?').get(snap.id) as { n: number }).n;
    const graded = (seeded.store.sqlite.prepare('select count(*) as n from graded_rows where snapshot_id = ? and grade is not null').get(snap.id) as { n: number }).n;
    expect(m.get('propgrade_snapshot_rows{sport="nba",kind="rows"}')).toBe(rows);
    expect(m.get('propgrade_snapshot_rows{sport="nba",kind="graded"}')).toBe(graded);
    expect(m.get('propgrade_run_last_failed{job="snapshot",sport="nba"}')).toBe(0);
    expect(m.get('propgrade_run_last_success_timestamp_seconds{job="snapshot",sport="nba"}')).toBeGreaterThan(Date.parse('2025-11-05T17:00:00Z') / 1000);
    expect(m.get('propgrade_odds_api_credits_spent_today')).toBe(77);
    expect(m.get('propgrade_odds_api_credits_left_today')).toBe(423);
    expect(m.has('propgrade_process_resident_memory_bytes')).toBe(true);
  });
});

describe('routeTemplates', () => {
  it('maps a path to its template, plain paths first; anything else to one label', () => {
    const of = routeTemplates([{ path: '/api/snapshot/summary' }, { path: '/api/snapshot/:sport' }, { path: '/api/stats/game/:id' }], ['/metrics']);
    expect(of('/api/snapshot/summary?x=1')).toBe('/api/snapshot/summary');
    expect(of('/api/snapshot/nba')).toBe('/api/snapshot/:sport');
    expect(of('/api/stats/game/1/extra')).toBe('unmatched');
    expect(of('/metrics')).toBe('/metrics');
  });
});
