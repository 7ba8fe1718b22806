import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let dir: string;
let db: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-status-'));
  db = join(dir, 'pg.sqlite');
  const run = await runCli(['snapshot', 'nba', '--replay', 'data/replay', '--db', db]);
  expect(run.code).toBe(0);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('propgrade status', () => {
  it('a replayed store is ready: exit 0, the table names each sport with its state and a legend', async () => {
    const run = await runCli(['status', '--db', db]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('ready');
    expect(run.stdout).toMatch(/│ nba +│ replayed +│ 2025-11-05T17:05:00.000Z +│ 0 min \(replay\)/);
    expect(run.stdout).toMatch(/│ wnba +│ never_run/);
    expect(run.stdout).toContain('State: normal / amber');
    expect(run.stdout).toContain('no daily budget set');
  });

  it('--json carries what /readyz carries, credits included', async () => {
    const run = await runCli(['status', '--db', db, '--json'], { ODDS_API_DAILY_BUDGET: '500' });
    const body = JSON.parse(run.stdout) as Record<string, any>;
    expect(body['ready']).toBe(true);
    expect(body['credits']).toEqual({ spent_today: 0, daily_budget: 500, left_today: 500 });
    expect(body['sports'].map((s: any) => s.sport).sort()).toEqual(['mlb', 'nba', 'soccer', 'wnba']);
  });

  it('no store at the path: exit 1, says so, and creates nothing', async () => {
    const missing = join(dir, 'nowhere', 'none.sqlite');
    const run = await runCli(['status', '--db', missing]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('NOT READY');
    expect(existsSync(missing)).toBe(false);
  });
});

describe('a URL as the store', () => {
  it('an unreachable postgres:// server exits 2 naming the server, never the password, and creates nothing on disk', async () => {
    const cwd = process.cwd();
    // Nothing listens on 5432 here (the test cluster has its own port).
    const run = await runCli(['slate', 'nba', '--db', 'postgres://app:s3cretpw@127.0.0.1:5432/propgrade']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot reach PostgreSQL at postgres://app@127.0.0.1:5432/propgrade');
    expect(run.stderr).not.toContain('s3cretpw');
    expect(existsSync(join(cwd, 'postgres:'))).toBe(false);
  });

  it('any other URL scheme exits 2 naming the scheme and creates nothing', async () => {
    const cwd = process.cwd();
    const run = await runCli(['slate', 'nba', '--db', 'mysql://app:s3cretpw@127.0.0.1/propgrade']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mysql:// URL');
    expect(run.stderr).not.toContain('s3cretpw');
    expect(existsSync(join(cwd, 'mysql:'))).toBe(false);
  });
});
