import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { streamMlbGameLogsFile } from '../../../src/feeds/history/mlb-gamelogs.js';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import { detectGameLogSport } from '../../../src/jobs/import-history.js';
import { openStore } from '../../../src/store/db.js';
import { runCli } from '../../helpers/cli.js';

const FIXTURE = 'test/fixtures/history/mlb-pitcher-gamelogs-excerpt.csv';

/** The raw CSV, split by hand (no quotes in the file): the figures the tests check against. */
function rawRows(): Array<Record<string, string>> {
  const [head, ...lines] = readFileSync(FIXTURE, 'utf8').trim().split(/\r?\n/);
  const cols = (head as string).split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i] as string, v])));
}

describe('MLB pitcher game logs (real excerpt of mlb_pitcher_game_logs_2025.csv)', () => {
  const rows: PlayerGameStat[] = [];
  const warnings = streamMlbGameLogsFile(FIXTURE, false, (r) => rows.push(r));
  const raw = rawRows();

  it('reads every row, none skipped', () => {
    expect(warnings).toEqual([]);
    expect(rows).toHaveLength(raw.length);
    expect(raw.length).toBe(74);
  });

  it('keeps strikeouts, batters faced, the starter flag and game_pk as in the raw rows', () => {
    for (const [i, r] of raw.entries()) {
      const row = rows[i] as PlayerGameStat;
      expect(row.playerName).toBe(r.pitcher);
      expect(row.date).toBe(r.game_date);
      expect(row.gameId).toBe(r.game_pk);
      expect(row.stats.strikeouts).toBe(Number(r.strikeouts));
      expect(row.extras.batters_faced).toBe(Number(r.batters_faced));
      expect(row.extras.is_starter).toBe(Number(r.is_starter));
      expect(row.extras.mlbam_id).toBe(Number(r.mlbam_id));
      const [whole, thirds] = (r.innings_pitched as string).split('.');
      expect(row.extras.outs).toBe(Number(whole) * 3 + Number(thirds ?? 0));
      expect(row.minutes).toBeNull();
    }
  });

  it('stores ESPN team codes (the file has MLB Stats API codes) and folds accents in the key', () => {
    // Raw: 2025-03-27,Chris Sale,519242,ATL,SD,away,7,5.0,...,778545,22,1
    const sale = rows.find((r) => r.playerName === 'Chris Sale');
    expect(sale).toMatchObject({ team: 'ATL', opponent: 'SD', stats: { strikeouts: 7 }, extras: { batters_faced: 22, is_starter: 1, outs: 15 } });
    const berrios = rows.find((r) => r.playerName === 'José Berríos');
    expect(berrios?.playerKey).toBe('jose berrios');
    expect(berrios?.team).toBe('TOR');
  });

  it('an NBA game-log header is not taken for MLB', () => {
    expect(detectGameLogSport(FIXTURE)).toBe('mlb');
    expect(detectGameLogSport('test/fixtures/history/gamelogs-nop-excerpt.csv')).toBe('nba');
    expect(detectGameLogSport('test/fixtures/history/mlb-strikeouts-excerpt.csv')).toBeNull();
  });
});

describe('propgrade import gamelogs <mlb file>', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-mlb-import-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'x.sqlite');
  const env = { PROPGRADE_DB: db, PROPGRADE_NOW: '2025-08-16T12:00:00Z' };

  it('detects the file and writes every row as MLB projection history', async () => {
    const run = await runCli(['import', 'gamelogs', FIXTURE, '--json'], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ sport: 'mlb', written: 74, skipped: false });
    const store = openStore(db);
    try {
      const got = store.sqlite.prepare(`select player_name, date, game_key, stats, extras from player_game_stats where sport = 'mlb' order by date, game_key, player_name`).all() as Array<{ player_name: string; date: string; game_key: string; stats: string; extras: string }>;
      expect(got).toHaveLength(74);
      const raw = rawRows();
      for (const r of raw) {
        const g = got.find((x) => x.player_name === r.pitcher && x.game_key === r.game_pk);
        expect(JSON.parse(g?.stats ?? '{}').strikeouts).toBe(Number(r.strikeouts));
        expect(JSON.parse(g?.extras ?? '{}')).toMatchObject({ batters_faced: Number(r.batters_faced), is_starter: Number(r.is_starter) });
      }
    } finally {
      void store.close();
    }
  });

  it('says so when --sport contradicts the file', async () => {
    const run = await runCli(['import', 'gamelogs', FIXTURE, '--sport', 'nba'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--sport nba, but .* is a mlb game-log file/);
  });
});
