import { copyFileSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildResultsSource } from '../../src/feeds/factory.js';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { collectingLogger, seededStore, snapshotAt } from '../helpers/replay-store.js';

/** The README's replay loop up to the settle step: two snapshots of the 2025-11-05 NBA slate. */
describe('propgrade settle (in-process CLI, bundled replay)', () => {
  let dir: string;
  let presettle: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-settle-cli-'));
    presettle = join(dir, 'presettle.sqlite');
    const seeded = await seededStore();
    await snapshotAt(seeded.store, 'nba', '2025-11-05T15:05:00Z');
    await snapshotAt(seeded.store, 'nba', '2025-11-05T17:05:00Z');
    seeded.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(seeded.path, presettle);
    seeded.cleanup();
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const fresh = (name: string) => {
    const path = join(dir, name);
    copyFileSync(presettle, path);
    return path;
  };
  const query = <T>(db: string, sql: string): T => {
    const store = openStore(db);
    try {
      return store.sqlite.prepare(sql).get() as T;
    } finally {
      void store.close();
    }
  };

  it('--replay without --now: entries pending but not due are counted, with when to settle them', async () => {
    const db = fresh('not-due.sqlite');
    const { n, first } = query<{ n: number; first: string }>(db, "select count(*) as n, min(commence_time) as first from ledger_entries where outcome = 'pending'");
    expect(n).toBeGreaterThan(100);
    const r = await runCli(['--db', db, 'settle', 'nba', '--replay', 'data/replay']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/nothing pending/);
    expect(r.stdout).toContain(
      `nba: ${n} pending, none due yet: their games start after 2025-11-05T17:05:00Z (the first at ${first}); settle after the games, e.g. --now 2025-11-06T12:00:00Z`,
    );
    const json = JSON.parse((await runCli(['--db', db, '--json', 'settle', 'nba', '--replay', 'data/replay'])).stdout);
    expect(json.runs[0]).toMatchObject({ status: 'empty', not_due: { pending: n, first_start: first, last_game_date: '2025-11-05', settle_after: '2025-11-06T12:00:00Z' } });

    // Following the suggestion settles every one of them.
    const after = JSON.parse((await runCli(['--db', db, '--json', 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z'])).stdout);
    const s = after.runs[0];
    expect(s.status).toBe('ok');
    expect(s.settled.hit + s.settled.miss + s.settled.push + s.settled.void).toBe(n);
    expect(s.not_due).toBeNull();
    expect(query<{ n: number }>(db, "select count(*) as n from ledger_entries where outcome = 'pending'").n).toBe(0);
  });

  it("'Not due' is a count only where the run counted: 0 when none wait, '-' with --date (not counted)", async () => {
    const notDueCell = (stdout: string) => {
      const row = stdout.split('\n').find((l) => /^│ nba /.test(l));
      expect(row, stdout).toBeDefined();
      // Columns: Sport, Status, Dates, Hit, Miss, Push, Void, Still pending, Not due, ...
      return row!.split('│').map((c) => c.trim())[9];
    };
    const all = await runCli(['--db', fresh('counted.sqlite'), 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z']);
    expect(all.code).toBe(0);
    expect(notDueCell(all.stdout)).toBe('0');
    const dated = await runCli(['--db', fresh('dated.sqlite'), 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z', '--date', '2025-11-05']);
    expect(dated.code).toBe(0);
    expect(notDueCell(dated.stdout)).toBe('-');
  });

  it('prints the CLV summary of what it settled, matching the stored verdicts, in text and --json', async () => {
    const db = fresh('clv.sqlite');
    const text = await runCli(['--db', db, 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z']);
    expect(text.code).toBe(0);
    const v = query<{ settled: number; beat: number; faded: number; flat: number; none: number }>(
      db,
      `select count(*) as settled, sum(clv_verdict = 'beat') as beat, sum(clv_verdict = 'faded') as faded, sum(clv_verdict = 'flat') as flat,
              sum(clv_verdict is null) as none from ledger_entries where outcome <> 'pending'`,
    );
    expect(v.beat + v.faded + v.flat).toBeGreaterThan(0);
    expect(v.none).toBeGreaterThan(0);
    expect(text.stdout).toContain(`nba CLV of the ${v.settled} settled: ${v.beat} beat, ${v.faded} faded, ${v.flat} flat; ${v.none} without a close`);

    // The same summary in --json, on a second copy settled by the JSON run.
    const db2 = fresh('clv-json.sqlite');
    const json = JSON.parse((await runCli(['--db', db2, '--json', 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z'])).stdout);
    const clv = { beat: v.beat, faded: v.faded, flat: v.flat, no_close: v.none };
    expect(json.runs[0].clv).toEqual(clv);
    expect(json.clv).toEqual(clv);
  });

  it('Final games counts games (the recorded scoreboard\'s final events), Player lines their player rows, each with its legend', async () => {
    const db = fresh('games.sqlite');
    const r = await runCli(['--db', db, 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z']);
    expect(r.code, r.stderr).toBe(0);
    const board = JSON.parse(readFileSync('data/replay/espn/nba-scoreboard-20251105.json', 'utf8')) as { events: { status: { type: { name: string } } }[] };
    const finals = board.events.filter((e) => e.status.type.name === 'STATUS_FINAL').length;
    expect(finals).toBe(11);
    const head = r.stdout.split('\n').find((l) => l.includes('Final games'))!.split('│').map((c) => c.trim());
    const row = r.stdout.split('\n').find((l) => /^│ nba /.test(l))!.split('│').map((c) => c.trim());
    expect(row[head.indexOf('Final games')]).toBe(String(finals));
    const lines = query<{ n: number }>(db, "select count(*) as n from player_game_stats where sport = 'nba' and date = '2025-11-05'").n;
    expect(row[head.indexOf('Player lines')]).toBe(String(lines));
    expect(r.stdout).toMatch(/^Final games: games whose final box score this run read; Player lines: their player rows/m);
  });

  it('needs no ODDS_API_KEY: box scores come from keyless feeds', async () => {
    // No store at the path: refused by name, and nothing is created.
    const missing = await runCli(['--db', join(dir, 'typo', 'missing.sqlite'), 'settle', 'nba'], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no store at ${join(dir, 'typo', 'missing.sqlite')}`);
    expect(existsSync(join(dir, 'typo'))).toBe(false);
    // A fresh (migrated, empty) store: nothing pending, nothing fetched.
    expect((await runCli(['--db', join(dir, 'empty.sqlite'), 'db', 'migrate'], {})).code).toBe(0);
    const empty = await runCli(['--db', join(dir, 'empty.sqlite'), 'settle', 'nba'], {});
    expect(empty.code).toBe(0);
    expect(empty.stderr).not.toMatch(/ODDS_API_KEY|no data source/);
    expect(empty.stdout).toMatch(/nothing pending/);
    // Pending entries not yet due: the run reports them and fetches nothing.
    const notDue = await runCli(['--db', fresh('keyless.sqlite'), 'settle', 'nba', '--now', '2025-11-05T17:05:00Z'], {});
    expect(notDue.code).toBe(0);
    expect(notDue.stderr).not.toMatch(/ODDS_API_KEY/);
    expect(notDue.stdout).toMatch(/pending, none due yet/);
    // The results source builds without a key, a replay or a record folder.
    const sources = await buildResultsSource(loadConfig({}), { replayDir: null, recordDir: null, now: new Date('2025-11-06T12:00:00Z'), log: collectingLogger() });
    expect(typeof sources.results.results).toBe('function');
    await sources.close();
  });

  it('--help names the keyless results and shows an example', async () => {
    const r = await runCli(['settle', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/need no key/);
    expect(r.stdout).toMatch(/Example/);
  });
});

/** A replayed store never calls a provider (issue 33 rule): settle without --replay reads the store's own recording, or refuses. */
describe('propgrade settle on a replayed store without --replay', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-settle-origin-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('settles from the recording the store was replayed from, the same as with --replay', async () => {
    const implicit = join(dir, 'implicit.sqlite');
    const explicit = join(dir, 'explicit.sqlite');
    for (const db of [implicit, explicit]) expect((await runCli(['--db', db, 'snapshot', 'nba', '--replay', 'data/replay', '--quiet'])).code).toBe(0);
    const a = await runCli(['--db', implicit, 'settle', 'nba', '--now', '2025-11-06T12:00:00Z', '--json']);
    const b = await runCli(['--db', explicit, 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z', '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain('settling from the recording this store was replayed from');
    const outcomes = (db: string) => {
      const store = openStore(db);
      try {
        return store.sqlite.prepare('select player_key, stat_type, line, side, outcome, actual_value from ledger_entries order by id').all();
      } finally {
        void store.close();
      }
    };
    const settled = outcomes(implicit);
    expect(settled.filter((r: any) => r.outcome === 'pending')).toEqual([]);
    expect(settled).toEqual(outcomes(explicit));
    expect(JSON.parse(a.stdout)).toEqual(JSON.parse(b.stdout));
  }, 120_000);

  it('refuses (exit 1, no provider call) when the store does not know its recording', async () => {
    const db = join(dir, 'unknown.sqlite');
    expect((await runCli(['--db', db, 'snapshot', 'nba', '--replay', 'data/replay', '--quiet'])).code).toBe(0);
    const store = openStore(db);
    store.sqlite.prepare("delete from kv_cache where key = 'meta:replay-folder'").run();
    void store.close();
    const r = await runCli(['--db', db, 'settle', 'nba', '--now', '2025-11-06T12:00:00Z']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('pass --replay <folder>');
  }, 120_000);
});
