/**
 * `propgrade close` at the CLI edge (issue 43): help, the bounded --within, exit codes 0/1/2, and
 * a run over a replayed store that reads its recording and says why it took no close.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_WITHIN_DEFAULT, CLOSE_WITHIN_MAX } from '../../src/jobs/close-due.js';
import { openStore } from '../../src/store/db.js';
import { acquireRunLock } from '../../src/store/repo/run-lock.js';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

const NOON = '2025-11-05T17:05:00Z';

describe('propgrade close', () => {
  let dir: string;
  let db: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-close-cli-'));
    db = join(dir, 'replayed.sqlite');
    await seededStoreFile(db);
    const snap = await runCli(['--db', db, '--replay', 'data/replay', '--now', NOON, '--json', 'snapshot', 'nba', '--quiet']);
    expect(snap.code, snap.stderr).toBe(0);
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help says what it fetches, its bounds and exit codes, with the defaults the job uses', async () => {
    const help = await runCli(['close', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: propgrade close [options] <sport>');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(`--within <minutes> games starting within this many minutes of now (1 to ${CLOSE_WITHIN_MAX}) (default: "${CLOSE_WITHIN_DEFAULT}")`);
    expect(help.stdout).toContain('a second run in the same');
    expect(help.stdout).toMatch(/Exit codes: 0 .*\n.*; 2 bad usage\./);
  });

  it('a bad --within or sport exits 2 naming what was typed, before opening any store', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['close', 'nba', '--within', '0'], /^propgrade: --within: expected at least 1, got 0$/m],
      [['close', 'nba', '--within', '121'], /^propgrade: --within: expected at most 120, got 121$/m],
      [['close', 'nba', '--within', 'abc'], /^propgrade: --within: expected a number, got 'abc'/m],
      [['close', 'nba', '--within', '7.5'], /^propgrade: --within: expected an integer, got 7.5$/m],
      [['close', 'nfl'], /^propgrade: sport: 'nfl' is not one of all, mlb, nba, wnba, soccer$/m],
      [['close', 'mma'], /^propgrade: mma is not graded/m],
      [['close'], /missing required argument 'sport'/],
    ];
    for (const [argv, says] of cases) {
      const run = await runCli(['--db', join(dir, 'never.sqlite'), ...argv]);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr, argv.join(' ')).toMatch(says);
    }
  });

  it('over a replayed store: reads the recording, takes no close it did not record, exits 0', async () => {
    const quiet = await runCli(['--db', db, '--now', '2025-11-05T17:10:00Z', '--json', 'close', 'nba']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(JSON.parse(quiet.stdout).runs[0]).toMatchObject({ sport: 'nba', status: 'ok', in_window: 0, fetched: 0, message: 'no nba game starts by 2025-11-05T17:25:00.000Z' });

    const run = await runCli(['--db', db, '--now', '2025-11-05T23:45:00Z', 'close', 'nba']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('taking closes from the recording this store was replayed from');
    expect(run.stdout).toContain('nba Brooklyn Nets @ Indiana Pacers');
    expect(run.stdout).toContain('not recorded: the recording holds no odds for it within 15 min of the start (its newest: 2025-11-05T17:00:00.000Z)');
    expect(run.stdout).toContain('Odds API credits: 0 spent by this run');
  });

  it('another run holding the sport\'s snapshot lock: exit 1, saying who holds it', async () => {
    const store = openStore(db);
    const lock = await acquireRunLock(store, 'snapshot:nba', 'pid:1@another-host', () => new Date());
    try {
      expect('release' in lock).toBe(true);
      const run = await runCli(['--db', db, '--now', '2025-11-05T23:45:00Z', '--json', 'close', 'nba']);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout).runs[0]).toMatchObject({ status: 'locked' });
      expect(run.stderr).toMatch(/a nba snapshot or close run holds the lock \(pid:1@another-host since /);
    } finally {
      if ('release' in lock) await lock.release();
      await store.close();
    }
  });

  it('records each close run in the run log as snapshot and settle do, and status prints the last one on its data clock', async () => {
    const store = openStore(db);
    try {
      // The two runs above ran and fetched nothing (no game due at 17:10; at 23:45 the two 00:00 games, neither recorded that late); the locked one never ran.
      const runs = store.sqlite.prepare("select status, started_at, finished_at, events_count from pipeline_runs where kind = 'close' and sport = 'nba' order by id").all();
      expect(runs).toEqual([
        { status: 'empty', started_at: '2025-11-05T17:10:00.000Z', finished_at: '2025-11-05T17:10:00.000Z', events_count: 0 },
        { status: 'empty', started_at: '2025-11-05T23:45:00.000Z', finished_at: '2025-11-05T23:45:00.000Z', events_count: 2 },
      ]);
    } finally {
      await store.close();
    }
    const json = await runCli(['--db', db, '--json', 'status']);
    const nba = JSON.parse(json.stdout).sports.find((s: { sport: string }) => s.sport === 'nba');
    expect(nba.last_close).toEqual({ at: '2025-11-05T23:45:00.000Z', status: 'empty' });
    const text = await runCli(['--db', db, 'status']);
    expect(text.stdout).toContain('Last close run (data clock)');
    expect(text.stdout).toContain('empty 2025-11-05T23:45:00.000Z');
  });
});
