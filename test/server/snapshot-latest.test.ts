/**
 * The snapshot route remembers the latest snapshot id between requests (latestSnapshotWatcher) and
 * asks the store again only when the store may have changed. A snapshot written by anyone must
 * still be the answer of the very next request: by another connection to the same SQLite file
 * (the cron or the CLI in another process), and by the server's own runner on its own connection.
 */
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOddsSource } from '../../src/feeds/factory.js';
import { runSnapshot } from '../../src/jobs/snapshot-run.js';
import { createUser } from '../../src/accounts/users.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { latestSnapshotWatcher } from '../../src/store/repo/snapshot-watch.js';
import { quiet, seedStore, startServer, type Running, type Seeded, rawGet } from './_harness.js';


let seeded: Seeded;
/** A second connection to the server's SQLite file, as the cron's process would hold. */
let other: SqliteStore;
let api: Running;

const raw = (path: string, headers: Record<string, string> = {}) => rawGet(api.base, path, headers);

/** The snapshot id every representation of the full route and of a view answers with. */
async function servedIds(): Promise<number[]> {
  const plain = await raw('/api/snapshot/nba');
  const gz = await raw('/api/snapshot/nba', { 'accept-encoding': 'gzip' });
  const card = await raw('/api/snapshot/nba?view=card', { 'accept-encoding': 'br' });
  for (const r of [plain, gz, card]) expect(r.status).toBe(200);
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(card.headers['content-encoding']).toBe('br');
  const id = (bytes: Buffer) => (JSON.parse(bytes.toString('utf8')) as { snapshot: { id: number } }).snapshot.id;
  return [id(plain.body), id(gunzipSync(gz.body)), id(brotliDecompressSync(card.body))];
}

/** What the store says is latest, asked directly (the query the route used to run per request). */
const storedLatest = (store: SqliteStore) => store.sqlite.prepare("select id from snapshots where sport = 'nba' order by taken_at desc, id desc limit 1").pluck().get() as number;

/** A new NBA snapshot by the real pipeline over the bundled replay, through `store`'s connection. */
async function snapshotThrough(store: SqliteStore): Promise<number> {
  const sources = await buildOddsSource(seeded.config, { replayDir: 'data/replay', recordDir: null, now: seeded.now, log: quiet });
  try {
    const run = await runSnapshot('nba', { store, odds: sources.odds, now: seeded.now, allowedBooks: null, log: quiet, source: 'replay' });
    return run.snapshotId!;
  } finally {
    await sources.close();
  }
}

beforeAll(async () => {
  seeded = await seedStore({ PROPGRADE_REPLAY: 'data/replay' });
  other = openStore(join(seeded.dir, 'pg.sqlite'));
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now });
}, 120_000);

afterAll(async () => {
  await api?.close();
  await other?.close();
  seeded?.cleanup();
});

describe('the latest snapshot id is remembered, and a new snapshot is served on the next request', () => {
  it('a snapshot committed by another connection to the same file (the cron in its own process)', async () => {
    const first = storedLatest(seeded.store);
    expect(await servedIds()).toEqual([first, first, first]);
    // Served from memory now; a write elsewhere that is not a snapshot changes nothing served.
    await createUser(other, { email: 'elsewhere@example.test', tier: 'free' }, seeded.now);
    expect(await servedIds()).toEqual([first, first, first]);

    const second = await snapshotThrough(other);
    expect(second).toBeGreaterThan(first);
    expect(storedLatest(seeded.store)).toBe(second);
    expect(await servedIds()).toEqual([second, second, second]);
    expect(await servedIds()).toEqual([second, second, second]);
    // Polls after the first of each are kept answers written again (replay.ts): same freshness.
    expect(api.server.replays.hits()).toBeGreaterThanOrEqual(6);
  }, 120_000);

  it("a snapshot written by the server's own runner, on the server's own connection", async () => {
    const before = storedLatest(seeded.store);
    expect(await servedIds()).toEqual([before, before, before]);
    const [run] = await api.server.runSnapshot(['nba']);
    expect(run?.status).toBe('ok');
    expect(run!.snapshotId).toBeGreaterThan(before);
    expect(await servedIds()).toEqual([run!.snapshotId, run!.snapshotId, run!.snapshotId]);
  }, 120_000);
});

describe('latestSnapshotWatcher', () => {
  it('answers what the query answers after every write, by this connection or another, deletes included', async () => {
    const latest = latestSnapshotWatcher(seeded.store);
    const insert = (store: SqliteStore, takenAt: string) =>
      Number(
        store.sqlite
          .prepare("insert into snapshots (sport, taken_at, slate_date, graded_count, row_count) values ('wnba', ?, '2025-11-05', 0, 0)")
          .run(takenAt).lastInsertRowid,
      );
    const wnba = (store: SqliteStore) => store.sqlite.prepare("select id from snapshots where sport = 'wnba' order by taken_at desc, id desc limit 1").pluck().get() as number | undefined;
    const check = async () => {
      expect(await latest('wnba')).toBe(wnba(seeded.store));
      expect(await latest('nba')).toBe(storedLatest(seeded.store));
    };
    await check();
    expect(await latest('wnba')).toBeUndefined();
    const a = insert(other, '2025-11-05T10:00:00Z');
    await check();
    expect(await latest('wnba')).toBe(a);
    const b = insert(seeded.store, '2025-11-05T11:00:00Z');
    await check();
    expect(await latest('wnba')).toBe(b);
    // An older taken_at written later does not become the latest.
    insert(other, '2025-11-05T09:00:00Z');
    await check();
    expect(await latest('wnba')).toBe(b);
    other.sqlite.prepare('delete from snapshots where id = ?').run(b);
    await check();
    expect(await latest('wnba')).toBe(a);
    seeded.store.sqlite.prepare("delete from snapshots where sport = 'wnba'").run();
    await check();
    expect(await latest('wnba')).toBeUndefined();
  });
});
