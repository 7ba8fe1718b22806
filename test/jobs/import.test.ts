import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planImport, runImportJob } from '../../src/jobs/import.js';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

const MLB = 'test/fixtures/history/mlb-pitcher-gamelogs-excerpt.csv';
const NBA = 'test/fixtures/history/gamelogs-nop-excerpt.csv';
const STRIKEOUT_PROPS = 'test/fixtures/history/mlb-strikeouts-excerpt.csv';

/** Data lines of a CSV file (the excerpts hold no quoted newlines). */
const dataLines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').length - 1;

describe('the import job (propgrade import gamelogs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-import-job-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('tells the sport from the header and refuses before any store is opened', () => {
    expect(planImport({ file: MLB, force: false }).sport).toBe('mlb');
    expect(planImport({ file: NBA, force: false }).sport).toBe('nba');
    expect(() => planImport({ file: MLB, sport: 'nba', force: false })).toThrow(/--sport nba, but .* is a mlb game-log file/);
    expect(() => planImport({ file: join(dir, 'missing.csv'), force: false })).toThrow(/no such file/);
    expect(() => planImport({ file: STRIKEOUT_PROPS, force: false })).toThrow(/is not a game-log file propgrade imports: it looks for nba: the NBA\.com PlayerGameLog export, .*; mlb: the MLB pitcher game logs, .*; wnba: /);
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  });

  it('refuses a file that is not game logs even with --sport, naming the sport and what it looked for (issue 41)', async () => {
    // The real MLB strikeout props file: pitchers and dates, but no game-log columns. It used to import 0 rows, exit 0, and say "not WNBA games".
    expect(() => planImport({ file: STRIKEOUT_PROPS, sport: 'mlb', force: false })).toThrow(
      `${STRIKEOUT_PROPS} is not MLB game logs: --sport mlb looks for the MLB pitcher game logs, a header with game_date, pitcher, mlbam_id, team, opponent, strikeouts, innings_pitched, game_pk, batters_faced, is_starter (none of them is in this header)`,
    );
    const db = join(dir, 'cli.sqlite');
    const r = await runCli(['--db', db, 'import', 'gamelogs', STRIKEOUT_PROPS, '--sport', 'mlb']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^propgrade: .* is not MLB game logs: --sport mlb looks for the MLB pitcher game logs/);
    expect(r.stderr).not.toMatch(/WNBA/);
    expect(existsSync(db)).toBe(false);
  });

  it('writes every line of the real excerpt once; a second run is skipped', async () => {
    const store = openStore(join(dir, 'x.sqlite'));
    try {
      const plan = planImport({ file: MLB, force: false });
      const now = new Date('2025-08-16T12:00:00Z');
      expect(await runImportJob(store, plan, now)).toMatchObject({ sport: 'mlb', written: dataLines(MLB), skipped: false });
      expect(await runImportJob(store, plan, now)).toMatchObject({ skipped: true });
      const n = store.sqlite.prepare(`select count(*) as n from player_game_stats where sport = 'mlb'`).get() as { n: number };
      expect(n.n).toBe(dataLines(MLB));
    } finally {
      await store.close();
    }
  });
});
