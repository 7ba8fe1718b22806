/**
 * `propgrade import gamelogs` on the ESPN WNBA box scores: the file is told from its header, dated
 * from its games file, and every imported line equals its raw CSV row (checked against the CSV
 * text parsed here, not against the importer). Uses the bundled WNBA history (data/replay/history).
 */
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { detectGameLogSport, importGameLogs } from '../../../src/jobs/import-history.js';
import { openStore } from '../../../src/store/db.js';
import { runCli } from '../../helpers/cli.js';

const BOX = path.resolve('data/replay/history/wnba-box-scores-before-2024-06-02.csv');
const GAMES = path.resolve('data/replay/history/wnba-games-before-2024-06-02.csv');
const NBA = path.resolve('data/replay/history/nba-gamelogs-before-2025-11-04.csv');

const dir = mkdtempSync(path.join(tmpdir(), 'propgrade-wnba-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WNBA box-score import', () => {
  it('tells the sport from the header', () => {
    expect(detectGameLogSport(BOX)).toBe('wnba');
    expect(detectGameLogSport(NBA)).toBe('nba');
    expect(detectGameLogSport(GAMES)).toBeNull();
  });

  it('imports every row, dated by the games file, each equal to its raw row', async () => {
    const store = openStore(path.join(dir, 'a.sqlite'));
    try {
      const result = await importGameLogs(store, 'wnba', BOX, new Date('2024-06-02T00:00:00Z'), { games: GAMES });
      const raw = parse(fs.readFileSync(BOX), { columns: true }) as Array<Record<string, string>>;
      const games = new Map((parse(fs.readFileSync(GAMES), { columns: true }) as Array<Record<string, string>>).map((g) => [g['game_id'], g]));
      expect(result?.written).toBe(raw.length);
      expect(result?.skippedRows).toBe(0);
      const read = store.sqlite.prepare("select player_name, team, opponent, date, minutes, stats from player_game_stats where sport = 'wnba' and game_key = ? and player_name = ?");
      for (const r of raw.filter((_, i) => i % 97 === 0)) {
        const row = read.get(r['game_id'], r['player']) as { team: string; opponent: string; date: string; minutes: number; stats: string };
        const g = games.get(r['game_id'])!;
        expect(row.date).toBe(`${g['date']!.slice(0, 4)}-${g['date']!.slice(4, 6)}-${g['date']!.slice(6)}`);
        // ESPN's own spelling of Connecticut is CONN; the file writes CON.
        const espn = (c: string) => (c === 'CON' ? 'CONN' : c);
        expect(row.team).toBe(espn(r['team']!));
        expect(row.opponent).toBe(espn(r['team'] === g['home'] ? g['away']! : g['home']!));
        expect(row.minutes).toBe(Number(r['min']));
        const stats = JSON.parse(row.stats);
        expect(stats).toMatchObject({ points: Number(r['pts']), rebounds: Number(r['reb']), assists: Number(r['ast']), threes: Number(r['tpm']), blocks: Number(r['blk']), steals: Number(r['stl']) });
        expect(stats.pra).toBe(Number(r['pts']) + Number(r['reb']) + Number(r['ast']));
      }
    } finally {
      await store.close();
    }
  });

  it('the CLI detects the file and refuses a --sport that contradicts it', async () => {
    const db = path.join(dir, 'cli.sqlite');
    const ok = await runCli(['--db', db, 'import', 'gamelogs', BOX, '--games', GAMES]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/ wnba player-games written/);
    const clash = await runCli(['--db', db, 'import', 'gamelogs', BOX, '--sport', 'nba']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(/is a wnba game-log file/);
  });
});
