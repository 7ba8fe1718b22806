import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { statsForSport } from '../../src/domain/stats.js';
import { tierSchema } from '../../src/domain/tiers.js';
import { liveAnswerStats } from '../../src/reads/live.js';
import { snapshotRowsKept, snapshotRowsReads } from '../../src/reads/snapshot-rows.js';
import { statsMemos } from '../../src/reads/stats-common.js';
import type { Route } from '../../src/server/route.js';
import { createSnapshotRunner } from '../../src/server/snapshot-runner.js';
import { startUpkeep } from '../../src/server/upkeep.js';
import { prunedTablesSize } from '../../src/store/repo/prune.js';
import { latestSnapshot } from '../../src/store/repo/snapshots.js';
import { REPLAY_NOW, quiet, seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';

/**
 * Issue 40 item 3, "every anonymous route is cheap or cached and limited", as mechanisms (the speed
 * figures are a bench: scripts/bench/anonymous-reads.mjs). Measured on main at b6e877d: leaders
 * 135-193 ms per new parameter combination, live 100-133 ms every call, a player's first read
 * 99-116 ms, lineups and injuries ~65 ms with no cache and no limit, the first snapshot read per tier
 * after a run 194-308 ms of event-loop CPU. Checked here: each such answer is worked out once per
 * stored data version (a memo's count does not move while parameters change), no such read writes
 * the store, every anonymous route that reads more than a few rows sits behind a per-caller limit
 * (429 past it), and a snapshot's bodies are built before the first request asks. The CPU of each
 * exchange is printed for docs/reliability.md, never asserted.
 */

const WALL = new Date('2026-12-06T12:00:00Z');
/** The morning after the bundled slate: its box scores are recorded, so live tracking has a board. */
const MORNING = new Date('2025-11-06T12:30:00Z');
const INTERNAL_KEY = 'internal-key-for-anonymous-reads';

let seeded: Seeded;
let api: Running;
const figures: string[] = [];

beforeAll(async () => {
  seeded = await seedStore();
  const config = loadConfig({ PROPGRADE_REPLAY: 'data/replay', TRUSTED_PROXIES: '127.0.0.1/32', INTERNAL_API_KEY: INTERNAL_KEY });
  api = await startServer({ store: seeded.store, config, now: () => MORNING, wallClock: () => WALL });
}, 120_000);
afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
  console.log(`anonymous read figures (process CPU per exchange):\n${figures.join('\n')}`);
});

let clientNo = 0;
/** A fresh client address behind the trusted proxy (each test its own budget). */
const nextClient = () => `198.18.${++clientNo >> 8}.${clientNo & 255}`;

async function get(on: Running, path: string, client: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; cpuMs: number; retryAfter: string | null }> {
  const cpu = process.cpuUsage();
  const res = await fetch(on.base + path, { headers: { 'x-forwarded-for': client, ...headers } });
  const body = await res.text();
  const spent = process.cpuUsage(cpu);
  return { status: res.status, body, cpuMs: (spent.user + spent.system) / 1000, retryAfter: res.headers.get('retry-after') };
}

/** Sends each path in turn (from one client) and prints the CPU of the first and the median of the rest. */
async function costs(label: string, paths: string[], client = nextClient()): Promise<number[]> {
  const statuses: number[] = [];
  const cpu: number[] = [];
  for (const p of paths) {
    const r = await get(api, p, client);
    statuses.push(r.status);
    cpu.push(r.cpuMs);
  }
  const rest = cpu.slice(1).sort((a, b) => a - b);
  figures.push(`  ${label}: ${paths.length} reads, first ${cpu[0]!.toFixed(1)} ms, median of the rest ${(rest[rest.length >> 1] ?? 0).toFixed(1)} ms`);
  return statuses;
}

const kvKeys = () => seeded.store.sqlite.prepare('select key from kv_cache order by key').pluck().all() as string[];

describe('store-derived answers are worked out once per stored data version, and write nothing', () => {
  it('leaders: 40 new (stat, min_games, limit) combinations rank the players once per stat, from one read of the season', async () => {
    const before = statsMemos.leaders.stats(seeded.store).computed;
    const stats = statsForSport('nba');
    const paths = Array.from({ length: 40 }, (_, i) => `/api/stats/leaders?stat=${stats[i % stats.length]}&season=2024-25&min_games=${i + 1}&limit=${(i % 25) + 1}`);
    expect(new Set(await costs('leaders, 40 new combinations', paths))).toEqual(new Set([200]));
    expect(statsMemos.leaders.stats(seeded.store).computed - before).toBe(stats.length);
  });

  it('player: one player under three spellings, read 12 times, is computed once', async () => {
    const before = statsMemos.player.stats(seeded.store).computed;
    const names = ['Jalen%20Brunson', 'jalen%20brunson', 'JALEN%20BRUNSON'];
    const paths = Array.from({ length: 12 }, (_, i) => `/api/stats/player/${names[i % 3]}?sport=nba`);
    expect(new Set(await costs('player, 3 spellings x 4', paths))).toEqual(new Set([200]));
    expect(statsMemos.player.stats(seeded.store).computed - before).toBe(1);
  });

  it('cascade: 20 different min_games of one player split his games once', async () => {
    const before = statsMemos.cascade.stats(seeded.store).computed;
    const paths = Array.from({ length: 20 }, (_, i) => `/api/stats/cascade?player=Joel%20Embiid&min_games=${5 + i * 3}`);
    expect(new Set(await costs('cascade, 20 min_games', paths))).toEqual(new Set([200]));
    expect(statsMemos.cascade.stats(seeded.store).computed - before).toBe(1);
  });

  it('live: 10 polls of one date work the answer out once while its box scores are fresh', async () => {
    const before = liveAnswerStats(seeded.store).computed;
    const statuses = await costs('live nba 2025-11-05, 10 polls', Array.from({ length: 10 }, () => '/api/live/nba?date=2025-11-05'));
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(liveAnswerStats(seeded.store).computed - before).toBe(1);
    const body = JSON.parse((await get(api, '/api/live/nba?date=2025-11-05', nextClient())).body) as { available: boolean; count: number };
    expect(body.available).toBe(true);
    expect(body.count).toBeGreaterThan(0);
  });

  it('lineups, injuries and the snapshot views read the snapshot rows once', async () => {
    const latest = (await latestSnapshot(seeded.store, 'nba'))!;
    const reads = snapshotRowsReads(seeded.store);
    const kept = snapshotRowsKept(seeded.store, latest.id);
    await costs('lineups', Array.from({ length: 5 }, () => '/api/schedule/nba/lineups'));
    await costs('injuries', Array.from({ length: 5 }, () => '/api/schedule/nba/injuries'));
    await costs('snapshot views, 10 new', Array.from({ length: 10 }, (_, i) => `/api/snapshot/nba?view=card&stat=${['points', 'rebounds', 'assists', 'threes', 'pra'][i % 5]}&main=${i < 5}`));
    expect(snapshotRowsKept(seeded.store, latest.id)).toBe(true);
    expect(snapshotRowsReads(seeded.store) - reads).toBe(kept ? 0 : 1);
  });

  it('none of those reads wrote a kv_cache row but the live box scores (one row per date)', async () => {
    const keys = kvKeys();
    expect(keys.filter((k) => /stats-(player|leaders|cascade)/.test(k))).toEqual([]);
    figures.push(`  kv_cache after the reads above: ${JSON.stringify(await prunedTablesSize(seeded.store))}`);
  });
});

/** Anonymous routes that sit behind no per-caller limit, each cheap (figure printed below) or answered from kept bytes. */
const UNLIMITED: Record<string, string> = {
  'GET /api/snapshot/:sport': 'bodies prepared once per snapshot and tier, views once per snapshot, tier and view (64 kept); anonymous answers are kept bytes',
  'GET /api/snapshot/summary': 'one small read',
  'GET /api/ticker': 'one small read',
  'GET /api/hero-prop': 'the latest snapshots, graded A/B rows only',
  'GET /api/founders/count': 'cached 5 minutes',
  'GET /healthz': 'no store work',
  'GET /readyz': 'a few indexed reads',
  'POST /api/webhooks/stripe': 'the signature is checked on the raw body (512 KB) before anything else; 503 unconfigured',
  'POST /api/parlay/grade': 'at most the tier cap of legs (free 2)',
};

describe('every anonymous route is limited per caller unless cheap', () => {
  it('the route table: every public or tier-shaped route is limited, upstream-budgeted, or listed as cheap', () => {
    const anonymous = api.server.routes.filter((r: Route) => r.access === 'public' || r.access === 'tier-shaped');
    const unlimited = anonymous.filter((r) => !r.statsLimited && !r.upstream && !r.errors.includes(429)).map((r) => `${r.method} ${r.path}`);
    expect(unlimited.sort()).toEqual(Object.keys(UNLIMITED).sort());
  });

  it('the cheap ones, measured', async () => {
    await costs('snapshot summary', Array.from({ length: 10 }, () => '/api/snapshot/summary'));
    await costs('ticker', Array.from({ length: 10 }, () => '/api/ticker'));
    await costs('hero-prop', Array.from({ length: 10 }, (_, i) => `/api/hero-prop?sport=${['nba', 'mlb'][i % 2]}`));
    await costs('founders count', Array.from({ length: 10 }, () => '/api/founders/count'));
    await costs('readyz', Array.from({ length: 10 }, () => '/readyz'));
    const cpu: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const c = process.cpuUsage();
      const res = await fetch(`${api.base}/api/parlay/grade`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': nextClient() },
        body: JSON.stringify({ legs: [{ player: 'Jalen Brunson', stat: 'points', line: 25.5 + i, side: 'over' }, { player: 'Karl-Anthony Towns', stat: 'rebounds', line: 11.5, side: 'over' }] }),
      });
      await res.arrayBuffer();
      const s = process.cpuUsage(c);
      cpu.push((s.user + s.system) / 1000);
    }
    figures.push(`  parlay grade, 2 legs: first ${cpu[0]!.toFixed(1)} ms, median of the rest ${[...cpu.slice(1)].sort((a, b) => a - b)[4]!.toFixed(1)} ms`);
  });

  const limited: Array<[string, string, number]> = [
    ['leaders', '/api/stats/leaders?stat=points', 60],
    ['player', '/api/stats/player/Jalen%20Brunson?sport=nba', 60],
    ['cascade', '/api/stats/cascade?player=Joel%20Embiid', 60],
    ['lineups', '/api/schedule/nba/lineups', 60],
    ['injuries', '/api/schedule/nba/injuries', 60],
    ['desk showcase', '/api/desk-showcase', 60],
    ['live', '/api/live/nba?date=2025-11-05', 30],
  ];
  it.each(limited)('%s: one client gets its limit, then 429 with Retry-After', async (_, path, limit) => {
    const client = nextClient();
    for (let i = 0; i < limit; i += 1) expect((await get(api, path, client)).status).not.toBe(429);
    const refused = await get(api, path, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await get(api, path, nextClient())).status).not.toBe(429);
  }, 60_000);
});

describe('a snapshot’s bodies are prepared before the first request', () => {
  it('a run by this server: every tier built when the run answers; the first read builds nothing', async () => {
    const server = await startServer({ store: seeded.store, config: loadConfig({ PROPGRADE_REPLAY: 'data/replay', INTERNAL_API_KEY: INTERNAL_KEY }), now: () => REPLAY_NOW, wallClock: () => WALL });
    try {
      const cache = server.server.snapshotCache;
      const before = (await latestSnapshot(seeded.store, 'nba'))!.id;
      const run = await fetch(`${server.base}/api/internal/snapshot/nba`, { method: 'POST', headers: { 'x-internal-key': INTERNAL_KEY } });
      expect(run.status).toBe(200);
      const after = (await latestSnapshot(seeded.store, 'nba'))!.id;
      expect(after).toBeGreaterThan(before);
      for (const tier of tierSchema.options) expect(await cache.ready('nba', tier), tier).toBe(true);
      expect(cache.serializations()).toBe(3);
      expect(snapshotRowsKept(seeded.store, after)).toBe(true);
      const cpu = process.cpuUsage();
      const first = await fetch(`${server.base}/api/snapshot/nba`, { headers: { 'accept-encoding': 'gzip' } });
      await first.arrayBuffer();
      const spent = process.cpuUsage(cpu);
      expect(first.status).toBe(200);
      expect(cache.serializations()).toBe(3);
      figures.push(`  first anonymous snapshot read after a run (gzip, prepared): ${((spent.user + spent.system) / 1000).toFixed(1)} ms`);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a run by another process: serve’s upkeep prepares it without a request', async () => {
    const server = await startServer({ store: seeded.store, config: loadConfig({ PROPGRADE_REPLAY: 'data/replay' }), now: () => REPLAY_NOW, wallClock: () => WALL });
    const upkeep = startUpkeep({ store: seeded.store, snapshotCache: server.server.snapshotCache, wallClock: () => WALL, now: () => REPLAY_NOW, log: quiet, prepareEveryMs: 50, pruneEveryMs: 3_600_000 });
    try {
      const cache = server.server.snapshotCache;
      // Another writer: the pipeline called directly, not through this server.
      await createSnapshotRunner(seeded.store, loadConfig({ PROPGRADE_REPLAY: 'data/replay' }), () => REPLAY_NOW, quiet)(['nba']);
      // Waits for the upkeep's next look (every 50 ms here); no request is sent meanwhile.
      const allReady = async () => (await Promise.all(tierSchema.options.map((t) => cache.ready('nba', t)))).every(Boolean);
      for (let i = 0; i < 400 && !(await allReady()); i += 1) await new Promise((r) => setTimeout(r, 50));
      for (const tier of tierSchema.options) expect(await cache.ready('nba', tier), tier).toBe(true);
      expect(server.server.replays.hits()).toBe(0);
    } finally {
      await upkeep.stop();
      await server.close();
    }
  }, 120_000);
});
