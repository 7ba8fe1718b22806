import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

describe('propgrade snapshot / slate / settle / record / ledger (in-process CLI)', () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-cli-'));
    db = join(dir, 'pg.sqlite');
    await seededStoreFile(db);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the main job on the bundled replay and prints the graded slate', async () => {
    const r = await runCli(['--db', db, 'snapshot', 'nba', '--replay', 'data/replay']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/NBA slate 2025-11-05/);
    expect(r.stdout).toMatch(/Brooklyn Nets @ Indiana Pacers/);
    expect(r.stderr).toMatch(/replaying data\/replay as of 2025-11-05T17:05:00Z/);
    // No colour off a TTY.
    // eslint-disable-next-line no-control-regex -- the ANSI escape is what this test looks for
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('--json prints the run summaries and the same slate data', async () => {
    const r = await runCli(['--db', db, '--json', 'snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T17:20:00Z']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.runs[0]).toMatchObject({ sport: 'nba', status: 'ok', events: 11, ledger_inserted: 0 });
    const slate = data.slates[0];
    expect(slate.games).toHaveLength(11);
    for (const g of slate.games) {
      expect(g.rows.length).toBeLessThanOrEqual(6);
      // One row per player and stat on a card: ladders of alternate lines do not fill it.
      const props = g.rows.map((r: { player: string; stat_type: string }) => `${r.player}|${r.stat_type}`);
      expect(new Set(props).size).toBe(props.length);
    }
    const slateOnly = JSON.parse((await runCli(['--db', db, '--json', 'slate', 'nba'])).stdout);
    expect(slateOnly.games.map((g: { event_id: string }) => g.event_id)).toEqual(slate.games.map((g: { event_id: string }) => g.event_id));
  });

  it('settle then record and ledger show the outcomes', async () => {
    const s = await runCli(['--db', db, '--json', 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z']);
    expect(s.code).toBe(0);
    const settled = JSON.parse(s.stdout).runs[0];
    expect(settled.settled.hit + settled.settled.miss).toBeGreaterThan(0);
    const rec = await runCli(['--db', db, 'record', '--now', '2025-11-06T12:00:00Z']);
    expect(rec.code).toBe(0);
    expect(rec.stdout).toMatch(/hit rate: /);
    expect(rec.stdout).toMatch(/record building: \d+ of 20 needed|%/);
    const led = JSON.parse((await runCli(['--db', db, '--json', 'ledger', '--date', '2025-11-05', '--limit', '100000'])).stdout);
    expect(led.entries.length).toBe(settled.settled.hit + settled.settled.miss + settled.settled.push + settled.settled.void);
    expect(led.total).toBe(led.entries.length);
  });

  it('bad usage exits 2 with a one-line message naming the value', async () => {
    const mma = await runCli(['--db', db, 'snapshot', 'mma', '--replay', 'data/replay']);
    expect(mma.code).toBe(2);
    expect(mma.stderr).toMatch(/mma is not graded/);
    const bogus = await runCli(['--db', db, 'slate', 'cricket']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/cricket|expected one of/);
    const date = await runCli(['--db', db, 'ledger', '--date', '11/05/2025']);
    expect(date.code).toBe(2);
    expect(date.stderr).toMatch(/--date/);
    const now = await runCli(['--db', db, '--now', 'yesterday', 'slate', 'nba']);
    expect(now.code).toBe(2);
    expect(now.stderr).toMatch(/--now/);
  });

  it('without keys or a replay folder the run explains how to use the bundled data', async () => {
    const r = await runCli(['--db', db, 'snapshot', 'nba']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--replay data\/replay/);
    expect(r.stderr).toMatch(/ODDS_API_KEY/);
  });

  it('a bad environment value fails fast naming the variable', async () => {
    const r = await runCli(['--db', db, 'slate', 'nba'], { SNAPSHOT_EXPECTED_INTERVAL: 'often' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/SNAPSHOT_EXPECTED_INTERVAL/);
  });

  it('every command and subcommand has --help with an example, exit 0', async () => {
    const { buildProgram } = await import('../../src/cli/main.js');
    const io = { stdout: () => {}, stderr: () => {}, isTTY: false, env: {} };
    const program = await buildProgram(io);
    const paths: string[][] = [];
    for (const c of program.commands) {
      paths.push([c.name()]);
      for (const s of c.commands) paths.push([c.name(), s.name()]);
    }
    expect(paths.length).toBeGreaterThan(8);
    for (const p of paths) {
      const r = await runCli([...p, '--help']);
      expect(r.code, p.join(' ')).toBe(0);
      expect(r.stdout, p.join(' ')).toMatch(/Usage: propgrade/);
      if (p.length > 1 || program.commands.find((c) => c.name() === p[0])!.commands.length === 0) expect(r.stdout, p.join(' ')).toMatch(/Example/);
    }
  });
});

describe('propgrade backfill', () => {
  it('fills history from the recorded box scores without touching the ledger', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-backfill-'));
    const db = join(dir, 'pg.sqlite');
    try {
      const r = await runCli(['--db', db, '--json', 'backfill', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z', '--from', '2025-11-04', '--to', '2025-11-05']);
      expect(r.code).toBe(0);
      // 6 + 11 final games recorded; 103 + 181 player lines (data/README.md).
      expect(JSON.parse(r.stdout)).toMatchObject({ dates: 2, final_games: 17, player_games: 284, unavailable_dates: [] });
      const led = await runCli(['--db', db, '--json', 'ledger']);
      expect(JSON.parse(led.stdout)).toMatchObject({ entries: [], total: 0, shown: 0 });
      const bad = await runCli(['--db', db, 'backfill', 'nba', '--from', '2025-11-05', '--to', '2025-11-04']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--from 2025-11-05 is after --to/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
