import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotExitCode } from '../../src/cli/snapshot.js';
import type { SnapshotSummary } from '../../src/jobs/snapshot-run.js';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

describe('propgrade snapshot all on the bundled recording (the README quick start)', () => {
  let dir: string;
  let db: string;
  let run: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-qs-'));
    db = join(dir, 'pg.sqlite');
    await seededStoreFile(db);
    run = await runCli(['--db', db, 'snapshot', 'all', '--replay', 'data/replay']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('grades every sport the recording holds and exits 0', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('not_recorded');
    expect(run.stdout).toMatch(/│ nba +│ ok +│ 11 /);
    // The EPL matchday (2025-08-30) at its own clock, the scrape before the first kickoff: 6 matches,
    // asked in the au region its books sit in without ODDS_API_REGIONS (test/data/soccer-replay.test.ts).
    expect(run.stdout).toMatch(/│ soccer +│ ok +│ 6 /);
    expect(run.stderr).toContain('soccer: snapshot run at 2025-08-30T10:36:08.000Z');
    // The WNBA day (2024-06-02) is graded at its own recorded clock: 4 games.
    expect(run.stdout).toMatch(/│ wnba +│ ok +│ 4 /);
    // MLB at its own recording's clock (2025-08-16 16:25Z): the 15 games of the day.
    expect(run.stdout).toMatch(/│ mlb +│ ok +│ 15 /);
    expect(run.stdout).toContain('Pittsburgh Pirates @ Chicago Cubs — Sat, Aug 16, 2:21 PM EDT');
    expect(run.stderr).toContain('mlb: snapshot run at 2025-08-16T16:25:00.000Z');
    expect(run.stderr).toContain('nba: snapshot run at 2025-11-05T17:05:00.000Z');
  });

  it('keeps stderr to one line per sport for feed warnings (every line under --verbose)', () => {
    expect(run.stderr).not.toContain('not recorded: odds-api GET');
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      // MLB's recording has no injury list and no pregame schedule (lineups): both are reported, not invented.
      expect.stringMatching(/^warning: mlb: 2 feed warnings: espn injuries: unavailable \(\+1 more\); --verbose shows every line$/),
      'warning: nba: 1 feed warning: espn injuries: unavailable; --verbose shows every line',
      'warning: wnba: 1 feed warning: espn injuries: unavailable; --verbose shows every line',
      // Only the EPL of soccer's league keys is recorded, so only it is asked (feeds/factory.ts recordedSportKeys).
      'warning: soccer: 1 feed warning: espn injuries: unavailable; --verbose shows every line',
    ]);
  });

  it('prints tip times in Eastern time, the grade legend, marked alt lines and a unit on moves', () => {
    expect(run.stdout).toContain('Brooklyn Nets @ Indiana Pacers — Wed, Nov 5, 7:00 PM EST');
    expect(run.stdout).toContain('Grade = EV of the price against the market: A+ ≥ +5%');
    expect(run.stdout).toMatch(/│ \d+(\.\d)? alt +│/);
    expect(run.stdout).toMatch(/│ new +│/);
  });

  it('marks every capped letter with its legend line, on the slate and the ledger (CLI and --json)', async () => {
    // Bryan Woo (MLB, back-tested and failed: capped at B): +3.0% would earn A; the slate says B* and why.
    expect(run.stdout).toMatch(/│ B\* +│ Bryan Woo +│/);
    expect(run.stdout).toContain('B* = capped: the EV would earn A; no back-test supports A/A+ for this sport or stat (never back-tested, or back-tested and failed: MLB)');
    expect(run.stdout).toContain('X* = a capped letter');
    // Every marked letter in the printed tables has a legend line in the same run.
    const marked = new Set([...run.stdout.matchAll(/│ (A\+|A|B|C|F)\* +│/g)].map((m) => m[1]));
    expect(marked.size).toBeGreaterThan(0);
    for (const g of marked) expect(run.stdout).toContain(`${g}* = capped: the EV would earn`);
    const ledger = await runCli(['--db', db, 'ledger', '--limit', '1000']);
    expect(ledger.code, ledger.stderr).toBe(0);
    const inLedger = new Set([...ledger.stdout.matchAll(/│ (A\+|A|B|C|F)\* +│/g)].map((m) => m[1]));
    expect(inLedger.size).toBeGreaterThan(0);
    for (const g of inLedger) expect(ledger.stdout).toContain(`${g}* = capped: the EV would earn`);
    const json = JSON.parse((await runCli(['--db', db, '--json', 'ledger', '--limit', '1000'])).stdout) as { entries: Array<{ grade: string; grade_uncapped: string | null; cap_reason: string | null }> };
    expect(json.entries.some((e) => e.cap_reason !== null && e.grade_uncapped !== e.grade)).toBe(true);
  });

  it('ends with the next commands to try, built from a real graded row', () => {
    // The first slate printed is MLB's (sports in their order), so the next steps name it.
    expect(run.stdout).toMatch(/Next:\n {2}npx propgrade slate mlb --all/);
    expect(run.stdout).toMatch(/propgrade scan --player "[^"]+" --stat \w+ --line [\d.]+ --direction (over|under)/);
    expect(run.stdout).toContain('propgrade settle mlb --replay data/replay --now 2025-08-17T12:00:00Z');
  });

  it('honours PROPGRADE_TZ for table times', async () => {
    const r = await runCli(['--db', db, 'slate', 'nba'], { PROPGRADE_TZ: 'Europe/London' });
    expect(r.stdout).toContain('Brooklyn Nets @ Indiana Pacers — Thu, Nov 6, 12:00 AM GMT');
    const bad = await runCli(['--db', db, 'slate', 'nba'], { PROPGRADE_TZ: 'Mars/Olympus' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'Mars/Olympus' is not a time zone");
  });
});

describe('snapshot exit code: one rule for one sport and for all', () => {
  const s = (status: SnapshotSummary['status']) => ({ status }) as SnapshotSummary;
  it('fails on a real failure or a held lock, never on an empty or unrecorded sport', () => {
    expect(snapshotExitCode([s('ok'), s('empty'), s('not_recorded')])).toBe(0);
    expect(snapshotExitCode([s('not_recorded')])).toBe(0);
    expect(snapshotExitCode([s('ok'), s('failed')])).toBe(1);
    expect(snapshotExitCode([s('ok'), s('locked')])).toBe(1);
  });
});
