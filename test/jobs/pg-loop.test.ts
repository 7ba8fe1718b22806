import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgDatabase } from '../helpers/pg.js';

/**
 * The README loop through the built CLI (`node bin/propgrade.js`) with PROPGRADE_DB set to a fresh
 * PostgreSQL database, against the same commands on a fresh SQLite file (issue 35): the quick start's
 * `snapshot all` grades the same rows in all three sports, and after the two NBA snapshots and the
 * next morning's settle the ledger holds the same grades, outcomes and CLV. Each engine's figures are
 * also checked against its own raw rows (better-sqlite3 and `pg`, not the code's reads). The CLI runs
 * in an empty folder, which must stay empty: a URL is never taken for a file path.
 */

const BIN = resolve('bin/propgrade.js');
const REPLAY = resolve('data/replay');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(cwd: string, db: string, args: string[]): Promise<Run> {
  return new Promise((done) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PROPGRADE_DB: db, NO_COLOR: '1' };
    delete env.PROPGRADE_NOW;
    delete env.PROPGRADE_REPLAY;
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

/** The same command on both stores at once (two processes), each required to exit 0. */
async function both(stores: { sqlite: string; postgres: string }, cwd: string, args: string[]): Promise<{ sqlite: Run; postgres: Run }> {
  const [s, p] = await Promise.all([cli(cwd, stores.sqlite, args), cli(cwd, stores.postgres, args)]);
  expect(s.code, `sqlite ${args.join(' ')}: ${s.stderr}`).toBe(0);
  expect(p.code, `postgres ${args.join(' ')}: ${p.stderr}`).toBe(0);
  return { sqlite: s, postgres: p };
}

async function pgRows<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

function sqliteRows<T>(path: string, sql: string): T[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** Every name the URL (or its database) could leave behind as a file or folder. */
const urlLike = (entries: string[], dbName: string) => entries.filter((e) => /^postgres(ql)?:?$|^postgres(ql)?:|127\.0\.0\.1|propgrade_t_/.test(e) || e.includes(dbName));

describe('the README loop through the CLI on PostgreSQL (PROPGRADE_DB=postgres://...) matches SQLite', () => {
  let dir: string;
  let cwd: string;
  const dbs: Array<Awaited<ReturnType<typeof freshPgDatabase>>> = [];
  let all: { sqlite: string; postgres: string };
  let loop: { sqlite: string; postgres: string };
  let repoBefore: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-pg-loop-'));
    cwd = mkdtempSync(join(tmpdir(), 'propgrade-pg-loop-cwd-'));
    repoBefore = readdirSync(process.cwd());
    for (let i = 0; i < 2; i += 1) dbs.push(await freshPgDatabase());
    all = { sqlite: join(dir, 'all.sqlite'), postgres: dbs[0]!.url };
    loop = { sqlite: join(dir, 'loop.sqlite'), postgres: dbs[1]!.url };
  }, 60_000);
  afterAll(async () => {
    for (const db of dbs) await db.drop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  });

  it('`snapshot all --replay data/replay --json` grades the same rows in all three sports', async () => {
    expect(readdirSync(cwd)).toEqual([]);
    const r = await both(all, cwd, ['snapshot', 'all', '--replay', REPLAY, '--json']);
    const s = JSON.parse(r.sqlite.stdout) as { runs: Array<{ sport: string; status: string; snapshot_id: number | null; rows: number; graded: number }> };
    const p = JSON.parse(r.postgres.stdout) as typeof s;
    expect(p).toEqual(s);
    const graded = s.runs.filter((x) => x.status === 'ok');
    // MLB, NBA, WNBA and the EPL matchday (issue 42).
    expect(graded.map((x) => x.sport).sort()).toEqual(['mlb', 'nba', 'soccer', 'wnba']);

    // Each run's figures against the raw rows of each store, and the rows themselves row for row.
    const cols = `id, snapshot_id, sport, event_id, player_key, stat_type, line, side, book, book_odds, grade, grade_uncapped, cap_reason, p_win, ev_pct, fair_prob`;
    const sRows = sqliteRows<Record<string, unknown>>(all.sqlite, `select ${cols} from graded_rows order by id`);
    // graded_rows.id is a bigint on PostgreSQL (node-postgres reads it as a string); read it as a number.
    const pRows = await pgRows<Record<string, unknown>>(all.postgres, `select ${cols.replace('id,', 'id::float8 as id,')} from graded_rows order by id`);
    expect(pRows.length).toBe(sRows.length);
    expect(pRows).toEqual(sRows);
    for (const run of graded) {
      const mine = sRows.filter((x) => x['snapshot_id'] === run.snapshot_id);
      expect(mine.length, run.sport).toBe(run.rows);
      expect(mine.filter((x) => x['grade'] !== null).length, run.sport).toBe(run.graded);
      expect(new Set(mine.map((x) => x['sport']))).toEqual(new Set([run.sport]));
    }
    expect(readdirSync(cwd)).toEqual([]);
  }, 120_000);

  it('after snapshot nba 15:05 and 17:05 and the settle, `ledger --json` gives the same grades, outcomes and CLV, and the rows are in PostgreSQL', async () => {
    const replay = ['--replay', REPLAY];
    await both(loop, cwd, ['snapshot', 'nba', ...replay, '--now', '2025-11-05T15:05:00Z', '--quiet']);
    await both(loop, cwd, ['snapshot', 'nba', ...replay, '--now', '2025-11-05T17:05:00Z', '--quiet']);
    await both(loop, cwd, ['settle', 'nba', ...replay, '--now', '2025-11-06T12:00:00Z']);
    const r = await both(loop, cwd, ['ledger', '--json', '--limit', '1000']);
    type Entry = { id: number; player_key: string; stat_type: string; line: number; side: string; grade: string | null; outcome: string | null; clv_pct: number | null };
    const s = JSON.parse(r.sqlite.stdout) as { entries: Entry[]; total: number };
    const p = JSON.parse(r.postgres.stdout) as typeof s;
    expect(s.entries.length).toBe(s.total);
    expect(p.total).toBe(s.total);
    const pick = (e: Entry) => ({ id: e.id, player_key: e.player_key, stat_type: e.stat_type, line: e.line, side: e.side, grade: e.grade, outcome: e.outcome, clv_pct: e.clv_pct });
    expect(p.entries.map(pick)).toEqual(s.entries.map(pick));
    // The whole JSON too (every field the ledger prints).
    expect(p).toEqual(s);

    // The raw ledger rows of each store: every entry settled, the same grades, outcomes and clv_pct
    // as the JSON shows (clv_pct printed to one decimal).
    const sql = `select id, grade, outcome, clv_pct from ledger_entries order by id`;
    const sRaw = sqliteRows<{ id: number; grade: string; outcome: string | null; clv_pct: number | null }>(loop.sqlite, sql);
    const pRaw = await pgRows<(typeof sRaw)[number]>(loop.postgres, sql);
    expect(pRaw).toEqual(sRaw);
    expect(sRaw.length).toBe(s.total);
    expect(sRaw.every((x) => x.outcome !== null)).toBe(true);
    expect(sRaw.some((x) => x.clv_pct !== null)).toBe(true);
    const byId = new Map(sRaw.map((x) => [x.id, x]));
    for (const e of p.entries) {
      const raw = byId.get(e.id)!;
      expect([e.grade, e.outcome], String(e.id)).toEqual([raw.grade, raw.outcome]);
      if (raw.clv_pct === null) expect(e.clv_pct).toBeNull();
      else expect(e.clv_pct).toBeCloseTo(raw.clv_pct, 1);
    }
    const [count] = await pgRows<{ n: number }>(loop.postgres, 'select count(*)::int as n from ledger_entries');
    expect(count!.n).toBe(s.total);
    expect(count!.n).toBeGreaterThan(100);

    // No file or folder named like the URL, in the CLI's folder or the checkout.
    expect(readdirSync(cwd)).toEqual([]);
    const added = readdirSync(process.cwd()).filter((e) => !repoBefore.includes(e));
    expect(urlLike(added, dbs[1]!.name)).toEqual([]);
    expect(urlLike(readdirSync(process.cwd()), dbs[1]!.name)).toEqual([]);
  }, 180_000);
});
