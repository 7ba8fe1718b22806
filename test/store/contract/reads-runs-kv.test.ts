import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContentFacts } from '../../../src/store/repo/content-facts.js';
import { heldRunLocks, sportRunFacts } from '../../../src/store/repo/health.js';
import { kvGet, kvGetAsOf, kvSet } from '../../../src/store/repo/kv.js';
import { rememberReplayFolder, replayOrigin } from '../../../src/store/repo/replay-origin.js';
import { newestRunPerJob, lastSuccessPerJob } from '../../../src/store/repo/run-figures.js';
import { acquireRunLock, type RunLock } from '../../../src/store/repo/run-lock.js';
import { lastRun, lastSuccessfulRun, recentRuns } from '../../../src/store/repo/runs.js';
import { activeTickerEvents } from '../../../src/store/repo/ticker.js';
import { PACKAGE_ROOT } from '../../../src/store/db.js';
import { resolve } from 'node:path';
import { loopPair, rawColumn, rawValue, same, SETUP_TIMEOUT, type LoopPair } from './_pair.js';

/**
 * The store contract for the run, cache, health, ticker and content reads (runs.ts, kv.ts,
 * replay-origin.ts, health.ts, run-figures.ts, ticker.ts, content-facts.ts): each asked of SQLite
 * and PostgreSQL holding the same README-loop rows must answer alike, and agree with figures read
 * from the raw SQLite rows. Where the loop leaves a table empty (run_locks, the replay folder key),
 * the same row is written to both stores first by the repo's own writer.
 */

let P: LoopPair;
let PRE: NonNullable<LoopPair['pre']>;

beforeAll(async () => {
  P = await loopPair({ presettle: true });
  PRE = P.pre as NonNullable<LoopPair['pre']>;
}, SETUP_TIMEOUT);

afterAll(async () => P?.cleanup(), SETUP_TIMEOUT);

const ids = (xs: Array<{ id: number }>) => xs.map((x) => x.id);

describe('runs.ts', () => {
  it('lastRun, lastSuccessfulRun and recentRuns', async () => {
    const newest = (kind: string, sport?: string) =>
      rawValue(P.raw, `select id from pipeline_runs where kind = ?${sport ? ' and sport = ?' : ''} order by started_at desc, id desc limit 1`, ...(sport ? [kind, sport] : [kind]));
    expect((await same(P, (s) => lastRun(s, 'snapshot')))?.id).toBe(newest('snapshot'));
    expect((await same(P, (s) => lastRun(s, 'settle', 'nba')))?.id).toBe(newest('settle', 'nba'));
    expect(await same(P, (s) => lastRun(s, 'snapshot', 'mlb'))).toBeNull();
    expect(await same(PRE, (s) => lastRun(s, 'settle'))).toBeNull();
    const ok = await same(P, (s) => lastSuccessfulRun(s, 'snapshot'));
    expect(ok?.id).toBe(rawValue(P.raw, `select id from pipeline_runs where kind = 'snapshot' and status = 'ok' order by finished_at desc, id desc limit 1`));
    expect(ok?.details).toEqual(JSON.parse(rawValue<string>(P.raw, 'select details from pipeline_runs where id = ?', ok?.id)));
    for (const limit of [1, 2, 20]) {
      expect(ids(await same(P, (s) => recentRuns(s, limit)))).toEqual(rawColumn<number>(P.raw, 'select id from pipeline_runs order by id desc limit ?', limit));
    }
  });
});

describe('kv.ts', () => {
  it('kvGet and kvGetAsOf of the stored import key', async () => {
    const [key, updatedAt, value] = P.raw.prepare('select key, updated_at, value from kv_cache order by key limit 1').raw(true).get() as [string, string, string];
    const now = new Date('2025-11-06T12:00:00.000Z');
    expect(await same(P, (s) => kvGet(s, key, now))).toEqual(JSON.parse(value));
    expect(await same(P, (s) => kvGetAsOf(s, key, now))).toEqual(JSON.parse(value));
    const before = new Date(Date.parse(updatedAt) - 1000);
    expect(await same(P, (s) => kvGetAsOf(s, key, before))).toBeNull();
    expect(await same(P, (s) => kvGet(s, key, before))).toEqual(JSON.parse(value));
    expect(await same(P, (s) => kvGet(s, 'no such key', now))).toBeNull();
  });

  it('kvGet and kvGetAsOf around an expiry (the same value written to both)', async () => {
    const at = new Date('2025-11-05T12:00:00.000Z');
    for (const s of [P.sqlite, P.pg]) await kvSet(s, 'contract:ttl', { n: 1, list: ['a', null] }, at, 60);
    const raw = P.raw.prepare(`select expires_at from kv_cache where key = 'contract:ttl'`).pluck().get() as string;
    const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);
    expect(await same(P, (s) => kvGet(s, 'contract:ttl', later(30)))).toEqual({ n: 1, list: ['a', null] });
    expect(later(60).toISOString()).toBe(raw);
    expect(await same(P, (s) => kvGet(s, 'contract:ttl', later(60)))).toBeNull();
    expect(await same(P, (s) => kvGetAsOf(s, 'contract:ttl', later(59)))).toEqual({ n: 1, list: ['a', null] });
    expect(await same(P, (s) => kvGetAsOf(s, 'contract:ttl', later(-1)))).toBeNull();
  });
});

describe('replay-origin.ts', () => {
  it('replayOrigin: replayed, the folder once remembered', async () => {
    expect(rawValue(P.raw, 'select source from snapshots order by taken_at desc, id desc limit 1')).toBe('replay');
    expect(await same(P, (s) => replayOrigin(s))).toEqual({ replayed: true, folder: null });
    for (const s of [P.sqlite, P.pg]) await rememberReplayFolder(s, 'data/replay', new Date('2025-11-05T17:05:00.000Z'));
    expect(await same(P, (s) => replayOrigin(s))).toEqual({ replayed: true, folder: resolve(PACKAGE_ROOT, 'data/replay') });
  });
});

describe('health.ts', () => {
  it('sportRunFacts: the newest snapshot and the last runs of each kind', async () => {
    const facts = await same(P, (s) => sportRunFacts(s, 'nba'));
    expect(facts.newestSnapshot).toEqual(P.raw.prepare(`select taken_at as takenAt, source from snapshots where sport = 'nba' order by taken_at desc, id desc limit 1`).get());
    expect(facts.lastSettleRun).toEqual(P.raw.prepare(`select started_at as startedAt, finished_at as finishedAt, status from pipeline_runs where kind = 'settle' order by started_at desc, id desc limit 1`).get());
    expect((await same(PRE, (s) => sportRunFacts(s, 'nba'))).lastSettleRun).toBeNull();
    expect(await same(P, (s) => sportRunFacts(s, 'mlb'))).toEqual({ sport: 'mlb', newestSnapshot: null, lastSnapshotRun: null, lastSettleRun: null, lastCloseRun: null });
  });

  it('heldRunLocks: by name (the same locks taken on both)', async () => {
    expect(await same(P, (s) => heldRunLocks(s))).toEqual([]);
    const now = () => new Date('2025-11-05T12:00:00.000Z');
    const locks: RunLock[] = [];
    try {
      for (const s of [P.sqlite, P.pg]) {
        for (const [name, owner] of [['snapshot:nba', 'contract-a'], ['settle:nba', 'contract-b']] as const) {
          const lock = await acquireRunLock(s, name, owner, now);
          if (!('release' in lock)) throw new Error(`lock ${name} refused`);
          locks.push(lock);
        }
      }
      const held = await same(P, (s) => heldRunLocks(s));
      expect(held.map((l) => l.name)).toEqual(rawColumn(P.raw, 'select name from run_locks order by name'));
      expect(held.map((l) => l.owner)).toEqual(['contract-b', 'contract-a']);
    } finally {
      // A PostgreSQL lock keeps its pool connection until released (the store's close would wait on it).
      for (const lock of locks) await lock.release();
    }
    expect(await same(P, (s) => heldRunLocks(s))).toEqual([]);
  });
});

describe('run-figures.ts', () => {
  it('newestRunPerJob: each job’s newest run with its snapshot’s rows', async () => {
    const got = await same(P, (s) => newestRunPerJob(s));
    expect(got.map((r) => `${r.kind}:${r.sport}`)).toEqual(rawColumn(P.raw, `select distinct kind || ':' || sport from pipeline_runs order by kind, sport`));
    const snap = got.find((r) => r.kind === 'snapshot');
    expect(snap?.rowCount).toBe(rawValue(P.raw, 'select row_count from snapshots order by taken_at desc, id desc limit 1'));
    expect(got.find((r) => r.kind === 'settle')?.settledCount).toBe(rawValue(P.raw, `select count(*) from ledger_entries where outcome != 'pending'`));
    expect(got.find((r) => r.kind === 'settle')?.rowCount).toBeNull();
    expect((await same(PRE, (s) => newestRunPerJob(s))).length).toBe(1);
  });

  it('lastSuccessPerJob: when each job last succeeded', async () => {
    const got = await same(P, (s) => lastSuccessPerJob(s));
    expect(got).toEqual(P.raw.prepare(`select kind, sport, max(coalesce(finished_at, started_at)) as at from pipeline_runs where status in ('ok', 'empty') group by 1, 2 order by 1, 2`).all());
  });
});

describe('ticker.ts', () => {
  it('activeTickerEvents: unexpired, newest first, at several clocks and limits', async () => {
    for (const now of ['2025-11-05T18:00:00.000Z', '2025-11-06T00:00:00.000Z', '2025-11-06T00:05:00.000Z', '2025-11-06T01:00:00.000Z']) {
      const got = await same(P, (s) => activeTickerEvents(s, new Date(now)));
      expect(ids(got)).toEqual(rawColumn<number>(P.raw, 'select id from ticker_events where expires_at is null or expires_at > ? order by created_at desc, id desc', now));
    }
    expect((await same(P, (s) => activeTickerEvents(s, new Date('2025-11-05T18:00:00.000Z'), 2))).length).toBe(2);
  });
});

describe('content-facts.ts', () => {
  it('readContentFacts: the slate day, the morning after, and before the settle', async () => {
    const day = await same(P, (s) => readContentFacts(s, { now: new Date('2025-11-06T12:00:00.000Z'), date: '2025-11-05' }));
    expect(day.slates.map((x) => x.snapshotId)).toEqual([rawValue(P.raw, `select id from snapshots where slate_date = '2025-11-05' order by taken_at desc, id desc limit 1`)]);
    expect(day.slates[0]?.rows.length).toBe(rawValue(P.raw, 'select row_count from snapshots where id = ?', day.slates[0]?.snapshotId));
    expect(day.slates[0]?.rows.filter((r) => r.lockId !== null).length).toBe(
      rawValue(P.raw, 'select count(*) from graded_rows g join grade_locks l using (event_id, player_key, stat_type, line, side) where g.snapshot_id = ?', day.slates[0]?.snapshotId),
    );
    expect(day.settleDate).toBe('2025-11-05');
    expect(day.record.length).toBe(rawValue(P.raw, 'select count(*) from ledger_entries where user_id is null and game_date between ? and ?', day.window.from, day.window.to));
    const morning = await same(P, (s) => readContentFacts(s, { now: new Date('2025-11-06T12:00:00.000Z') }));
    expect([morning.date, morning.settleDate, morning.slates.length]).toEqual(['2025-11-06', '2025-11-05', 0]);
    expect(morning.settle.length).toBe(rawValue(P.raw, `select count(*) from ledger_entries where user_id is null and game_date = '2025-11-05'`));
    const pre = await same(PRE, (s) => readContentFacts(s, { now: new Date('2025-11-05T18:00:00.000Z') }));
    expect([pre.settleDate, pre.settle.length, pre.slates[0]?.previous?.snapshotId]).toEqual([null, 0, rawValue(PRE.raw, 'select min(id) from snapshots')]);
  });
});
