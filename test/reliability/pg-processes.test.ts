import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOn, type EngineStore } from '../helpers/engines.js';
import { freshPgDatabase } from '../helpers/pg.js';
import { replayLoopFiles } from '../helpers/replay-store.js';

/**
 * Several processes on one PostgreSQL database (issue 35), through the built CLI: two snapshot runs
 * started at the same moment on a fresh database (both migrate, import the seed history and race for
 * the run lock) end (0, 0) or (0, 1), the loser naming the holder and no PostgreSQL concurrency error
 * reaching anyone; and two `serve` processes on one settled database answer the public reads
 * byte for byte as each other and as `serve` on the SQLite file the database was copied from.
 */

const BIN = resolve('bin/propgrade.js');
const REPLAY = resolve('data/replay');
const PG_RACE = /deadlock|serializ|could not serialize|40001|40P01|duplicate key|unique constraint/i;

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.PROPGRADE_DB;
  delete env.PROPGRADE_NOW;
  delete env.PROPGRADE_REPLAY;
  delete env.PORT;
  return env;
}

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: childEnv() });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => done({ code, stderr }));
  });
}

async function pgQuery<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The seed history's NBA player-games, counted from the recorded CSV itself (one line each after the header). */
const nbaSeedLines = () =>
  readFileSync(join(REPLAY, 'history/nba-gamelogs-before-2025-11-04.csv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length - 1;

describe('two snapshot processes at once on one PostgreSQL database', () => {
  it.each([1, 2, 3])('round %i: exits (0,0) or (0,1), the loser names the holder, no deadlock or serialization failure', async (round) => {
    const db = await freshPgDatabase();
    try {
      const args = ['--db', db.url, 'snapshot', 'nba', '--replay', REPLAY, '--now', '2025-11-05T17:05:00Z', '--quiet'];
      const [a, b] = await Promise.all([run(args), run(args)]);
      const codes = [a.code, b.code].sort();
      console.log(`pg-processes: round ${round}, two snapshot processes exited (${codes.join(', ')})`);
      expect([JSON.stringify([0, 0]), JSON.stringify([0, 1])], `${a.stderr}\n---\n${b.stderr}`).toContain(JSON.stringify(codes));
      for (const r of [a, b]) {
        expect(r.stderr).not.toMatch(PG_RACE);
        if (r.code === 1) expect(r.stderr).toMatch(/a nba snapshot run holds the lock \(pid:\d+@[^ ]+ since \d{4}-\d\d-\d\dT/);
      }
      // The store is whole: the seed history once (as many rows as the CSV has games), one finished
      // run's snapshot per process that ran, and the lock released.
      const [stats] = await pgQuery<{ n: number; keys: number }>(db.url, `select count(*)::int as n, count(distinct (player_key, date, game_key))::int as keys from player_game_stats where sport = 'nba'`);
      expect(stats!.n).toBe(nbaSeedLines());
      expect(stats!.keys).toBe(stats!.n);
      const [snaps] = await pgQuery<{ n: number }>(db.url, 'select count(*)::int as n from snapshots');
      expect(snaps!.n).toBe(codes.filter((c) => c === 0).length);
      const locks = await pgQuery<{ name: string }>(db.url, 'select name from run_locks');
      expect(locks).toEqual([]);
    } finally {
      await db.drop();
    }
  }, 90_000);
});

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

function serve(target: string): Promise<Served> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, '--db', target, 'serve', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => fail(new Error(`serve did not start: ${stderr}`)), 30_000);
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.stdout.on('data', (d) => {
      stdout += String(d);
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/?/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        done({ child, url: m[1]!, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`serve exited ${code}: ${stderr}`));
    });
  });
}

/** One GET with no compression asked for, so the bytes compared are the body itself. */
function get(base: string, path: string): Promise<{ status: number; body: Buffer; type: string | undefined }> {
  return new Promise((done, fail) => {
    const req = request(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), type: res.headers['content-type'] }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('two serve processes on one PostgreSQL database answer as serve on the SQLite file', () => {
  let dir: string;
  let settled: string;
  let pgCopy: EngineStore;
  const servers: Served[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-pg-serve-'));
    settled = (await replayLoopFiles(dir)).settled;
    pgCopy = await copyOn('postgres', settled);
    const sqliteCopy = join(dir, 'served.sqlite');
    copyFileSync(settled, sqliteCopy);
    servers.push(...(await Promise.all([serve(pgCopy.target), serve(pgCopy.target), serve(sqliteCopy)])));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((done) => {
            if (s.child.exitCode !== null) return done();
            s.child.once('exit', () => done());
            s.child.kill('SIGTERM');
          }),
      ),
    );
    await pgCopy?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  const raw = <T>(sql: string): T[] => {
    const db = new Database(settled, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  };

  it.each(['/api/ledger/model', '/api/ledger/model?limit=500', '/api/snapshot/nba', '/api/snapshot/summary'])('GET %s: the same status and bytes from all three', async (path) => {
    const [pgA, pgB, lite] = await Promise.all(servers.map((s) => get(s.url, path)));
    expect(pgA!.status).toBe(200);
    expect(pgB!.status).toBe(pgA!.status);
    expect(lite!.status).toBe(pgA!.status);
    expect(pgB!.body.equals(pgA!.body), 'the two PostgreSQL servers').toBe(true);
    expect(JSON.parse(pgA!.body.toString())).toEqual(JSON.parse(lite!.body.toString()));
    expect(pgA!.body.toString(), 'PostgreSQL against SQLite, byte for byte').toBe(lite!.body.toString());
    expect(pgA!.type).toBe(lite!.type);

    // Against the raw SQLite rows the database was copied from.
    const body = JSON.parse(pgA!.body.toString()) as Record<string, unknown>;
    if (path.startsWith('/api/ledger/model')) {
      const [all] = raw<{ n: number }>('select count(*) as n from ledger_entries where user_id is null');
      const entries = body['entries'] as Array<{ id: number; grade: string; outcome: string }>;
      expect(body['total']).toBe(all!.n);
      expect(entries.length).toBe(Math.min(all!.n, path.includes('limit=500') ? 500 : 100));
      const rows = new Map(raw<{ id: number; grade: string; outcome: string }>('select id, grade, outcome from ledger_entries').map((r) => [r.id, r]));
      for (const e of entries) expect([e.grade, e.outcome]).toEqual([rows.get(e.id)!.grade, rows.get(e.id)!.outcome]);
    }
    if (path === '/api/snapshot/nba') {
      const [latest] = raw<{ id: number; n: number }>(`select s.id, count(g.id) as n from snapshots s join graded_rows g on g.snapshot_id = s.id where s.sport = 'nba' group by s.id order by s.id desc limit 1`);
      const snap = body['snapshot'] as { id: number; rows: number };
      expect(snap.id).toBe(latest!.id);
      expect((body['games'] as Array<{ rows: unknown[] }>).reduce((n, g) => n + g.rows.length, 0)).toBe(snap.rows);
    }
  });

  it('no server logged a PostgreSQL concurrency error', () => {
    for (const s of servers) expect(s.stderr()).not.toMatch(PG_RACE);
  });
});
