import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { pruneStore, startUpkeep } from '../../src/server/upkeep.js';
import { insertUsage } from '../../src/store/repo/usage.js';
import { prunedTablesSize } from '../../src/store/repo/prune.js';
import { seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';

/**
 * Issue 40 item 4, "the store stays bounded". Measured on main at b6e877d: every distinct cascade,
 * leaders or player read wrote a kv_cache row that was never deleted (1,000 reads: +1,000 rows,
 * +4.6 MB), meter rows were never pruned, and cascade had no limit. Here 10,000 distinct anonymous
 * reads from 10,000 callers (forwarded through a trusted proxy, so no limit refuses them) leave
 * kv_cache and usage_events as they were and the file within a page or two of its size; metered
 * scans are deleted by a prune pass once outside their 24 h window; expired cache rows once their
 * expiry has passed on both clocks. The bound is written in docs/reliability.md.
 */

const WALL = new Date('2026-12-06T12:00:00Z');
const READS = 10_000;
const SCANS = 300;

let seeded: Seeded;
let api: Running;
const figures: string[] = [];
const dispatcher = new Agent({ connections: 8 });

beforeAll(async () => {
  seeded = await seedStore();
  api = await startServer({ store: seeded.store, config: loadConfig({ PROPGRADE_REPLAY: 'data/replay', TRUSTED_PROXIES: '127.0.0.1/32' }), now: () => seeded.now, wallClock: () => WALL });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await dispatcher.close();
  seeded?.cleanup();
  console.log(`store bound figures:\n${figures.join('\n')}`);
});

/** The store file's bytes once the WAL is folded in. */
function fileBytes(): number {
  const db = seeded.store.sqlite;
  db.pragma('wal_checkpoint(TRUNCATE)');
  return (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
}

const client = (i: number) => `198.18.${i >> 8}.${i & 255}`;

/** The i-th distinct read: leaders, player, cascade and schedule reads with parameters never sent before. */
function distinctRead(i: number): string {
  const stats = ['points', 'rebounds', 'assists', 'threes', 'pra', 'blocks', 'steals'];
  const players = ['Jalen Brunson', 'Joel Embiid', 'Pascal Siakam', 'Tyrese Haliburton', 'Karl-Anthony Towns', 'Josh Hart', 'Mikal Bridges', 'OG Anunoby'];
  switch (i % 4) {
    case 0:
      return `/api/stats/leaders?stat=${stats[i % 7]}&season=2024-25&min_games=${(i % 200) + 1}&limit=${((i >> 3) % 100) + 1}`;
    case 1:
      // A known player's first read, then names the store does not hold (each a 404 with suggestions).
      return `/api/stats/player/${encodeURIComponent(i < 40 ? players[i % 8]! : `Player Number ${i}`)}?sport=nba`;
    case 2:
      return `/api/stats/cascade?player=${encodeURIComponent(players[i % 8]!)}&min_games=${5 + ((i >> 2) % 195)}`;
    default:
      return `/api/snapshot/nba?view=card&player=${encodeURIComponent(`Player ${i}`)}`;
  }
}

async function send(path: string, forwardedFor: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<number> {
  const res = await fetch(api.base + path, { ...init, headers: { 'x-forwarded-for': forwardedFor, ...init.headers }, dispatcher });
  await res.arrayBuffer();
  return res.status;
}

describe('anonymous reads leave the store bounded', () => {
  it(`${READS.toLocaleString('en')} distinct anonymous stats and view reads write no row`, async () => {
    const before = { ...(await prunedTablesSize(seeded.store)), file: fileBytes() };
    const statuses = new Map<number, number>();
    for (let start = 0; start < READS; start += 8) {
      const batch = await Promise.all(Array.from({ length: Math.min(8, READS - start) }, (_, j) => send(distinctRead(start + j), client(start + j))));
      for (const s of batch) statuses.set(s, (statuses.get(s) ?? 0) + 1);
    }
    const after = { ...(await prunedTablesSize(seeded.store)), file: fileBytes() };
    figures.push(`  ${READS} distinct reads: statuses ${JSON.stringify(Object.fromEntries(statuses))}; before ${JSON.stringify(before)}; after ${JSON.stringify(after)}`);
    expect(statuses.get(429) ?? 0).toBe(0);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect(after.kvRows).toBe(before.kvRows);
    expect(after.kvValueBytes).toBe(before.kvValueBytes);
    expect(after.usageRows).toBe(before.usageRows);
    // A page or two of slack (SQLite may touch a page it reads through); before, +4.6 MB per 1,000 reads.
    expect(after.file - before.file).toBeLessThanOrEqual(64 * 1024);
  }, 600_000);

  it(`${SCANS} anonymous scans from ${SCANS} callers: their meter rows are deleted once outside the 24 h window`, async () => {
    const before = (await prunedTablesSize(seeded.store)).usageRows;
    const body = JSON.stringify({ player: 'Jalen Brunson', stat: 'points', line: 25.5, direction: 'over' });
    for (let i = 0; i < SCANS; i += 1) expect(await send('/api/scan', client(20_000 + i), { method: 'POST', body, headers: { 'content-type': 'application/json' } })).toBe(200);
    expect((await prunedTablesSize(seeded.store)).usageRows - before).toBe(SCANS);
    // Inside the window nothing goes; 24 h later every row has left it.
    expect((await pruneStore(seeded.store, { wall: new Date(WALL.getTime() + 23 * 3600_000), data: seeded.now })).usage).toBe(0);
    const pass = await pruneStore(seeded.store, { wall: new Date(WALL.getTime() + 24 * 3600_000), data: seeded.now });
    expect(pass.usage).toBe(before + SCANS);
    expect((await prunedTablesSize(seeded.store)).usageRows).toBe(0);
    figures.push(`  ${SCANS} anonymous scans: +${SCANS} usage rows, 0 after one prune pass 24 h later (${JSON.stringify(pass)})`);
  }, 300_000);

  it('expired cache rows go once expired on both clocks; a replayed store keeps the values its standing data clock still serves', async () => {
    // The team hub is cached 15 minutes on the data clock.
    expect(await send('/api/team/IND', client(30_000))).toBe(200);
    const hub = () => seeded.store.sqlite.prepare("select count(*) from kv_cache where key like 'team-hub:%'").pluck().get() as number;
    expect(hub()).toBe(1);
    const later = new Date(WALL.getTime() + 86_400_000);
    await pruneStore(seeded.store, { wall: later, data: seeded.now });
    expect(hub()).toBe(1);
    const live = await pruneStore(seeded.store, { wall: later, data: new Date(seeded.now.getTime() + 16 * 60_000) });
    expect(hub()).toBe(0);
    expect(live.expired).toBeGreaterThanOrEqual(1);
    figures.push(`  team hub row: kept while the data clock stands, deleted 16 min on (${JSON.stringify(live)})`);
  });

  it('serve’s upkeep runs a prune pass as it starts (then every minute), with no request', async () => {
    for (let i = 0; i < 3; i += 1) await insertUsage(seeded.store, `ip:198.51.100.${i}`, 'scan_read', new Date(WALL.getTime() - 25 * 3600_000).toISOString());
    const usage = async () => (await prunedTablesSize(seeded.store)).usageRows;
    expect(await usage()).toBe(3);
    const upkeep = startUpkeep({ store: seeded.store, snapshotCache: api.server.snapshotCache, wallClock: () => WALL, now: () => seeded.now, log: { warn: (m) => figures.push(`  upkeep warning: ${m}`) } });
    try {
      // Waits for the first pass (started on the next turn of the loop); nothing is timed.
      for (let i = 0; i < 200 && (await usage()) > 0; i += 1) await new Promise((r) => setTimeout(r, 25));
      expect(await usage()).toBe(0);
    } finally {
      await upkeep.stop();
    }
  });
});
