/**
 * `propgrade simulate` over season folders built from ../shared (skipped without it): a few real
 * days of each sport through build-season-replay + simulate on a fresh store; every sampled settled
 * public entry's outcome equals the raw box-score CSV (parsed here, not by the code), and at least
 * 90% of the entries whose player-game is in the raw logs are settled.
 */
import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

const SHARED = path.resolve('..', 'shared');
const H = (f: string) => path.join(SHARED, 'history', f);
const available = fs.existsSync(H('wnba_player_box_scores_2019-2026.csv')) && fs.existsSync(H('nba_player_game_logs_2024-25_and_2025-26.csv'));
const dir = mkdtempSync(path.join(tmpdir(), 'propgrade-simulate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z]/g, '');

interface Entry { player: string; game_date: string; stat_type: string; line: number; side: string; outcome: string; actual_value: number | null }

async function simulate(sport: 'nba' | 'wnba', from: string, to: string): Promise<{ report: { snapshots: number; settles: number; record: Record<string, { n: number }> }; entries: Entry[] }> {
  const folder = path.join(dir, sport);
  execFileSync(process.execPath, ['scripts/build-season-replay.mjs', sport, folder, '--from', from, '--to', to], { stdio: 'pipe' });
  const db = path.join(dir, `${sport}.sqlite`);
  const run = await runCli(['--db', db, '--replay', folder, '--json', 'simulate', sport]);
  expect(run.code, run.stderr).toBe(0);
  const store = openStore(db);
  try {
    const entries = store.sqlite.prepare("select player, game_date, stat_type, line, side, outcome, actual_value from ledger_entries where user_id is null and source = 'pipeline'").all() as Entry[];
    return { report: JSON.parse(run.stdout), entries };
  } finally {
    await store.close();
  }
}

/** Checks entries against a raw player-game lookup: (folded name, date) -> stat values, or 'dnp'. */
function check(entries: Entry[], raw: Map<string, Record<string, number> | 'dnp'>): void {
  const inLogs = entries.filter((e) => raw.has(`${fold(e.player)}|${e.game_date}`));
  expect(inLogs.length).toBeGreaterThan(50);
  const settled = inLogs.filter((e) => e.outcome !== 'pending');
  expect(settled.length / inLogs.length).toBeGreaterThanOrEqual(0.9);
  const decided = settled.filter((e) => e.outcome === 'hit' || e.outcome === 'miss' || e.outcome === 'push');
  // Every 5th decided entry (WNBA's week has fewer pre-grades since its letters came back to the market).
  const sample = decided.filter((_, i) => i % 5 === 0);
  expect(sample.length).toBeGreaterThan(20);
  for (const e of sample) {
    const r = raw.get(`${fold(e.player)}|${e.game_date}`)!;
    expect(r, `${e.player} ${e.game_date}`).not.toBe('dnp');
    const actual = (r as Record<string, number>)[e.stat_type];
    expect(e.actual_value, `${e.player} ${e.game_date} ${e.stat_type}`).toBe(actual);
    const want = actual === e.line ? 'push' : (e.side === 'over') === actual! > e.line ? 'hit' : 'miss';
    expect(e.outcome, `${e.player} ${e.game_date} ${e.stat_type} ${e.line} ${e.side}`).toBe(want);
  }
  // A raw 0-minute line settles void, never hit or miss.
  for (const e of settled.filter((x) => raw.get(`${fold(x.player)}|${x.game_date}`) === 'dnp')) expect(e.outcome).toBe('void');
}

describe.skipIf(!available)('simulate over real season folders', () => {
  it('WNBA 2024-06-01..2024-06-09: outcomes equal the raw ESPN box scores', async () => {
    const { report, entries } = await simulate('wnba', '2024-06-01', '2024-06-09');
    expect(report.snapshots).toBeGreaterThan(20);
    expect(report.settles).toBe(8);
    expect(report.record['all']!.n).toBeGreaterThan(50);
    const games = new Map((parse(fs.readFileSync(H('wnba_games_2019-2026.csv')), { columns: true }) as Array<Record<string, string>>).map((g) => [g['game_id'], g['date']!]));
    const raw = new Map<string, Record<string, number> | 'dnp'>();
    for (const r of parse(fs.readFileSync(H('wnba_player_box_scores_2019-2026.csv')), { columns: true }) as Array<Record<string, string>>) {
      const d = games.get(r['game_id']!);
      if (!d || d < '20240601' || d > '20240609') continue;
      const n = (k: string) => Number(r[k]);
      raw.set(`${fold(r['player']!)}|${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`, { points: n('pts'), rebounds: n('reb'), assists: n('ast'), threes: n('tpm'), pra: n('pts') + n('reb') + n('ast'), blocks: n('blk'), steals: n('stl') });
    }
    check(entries, raw);
  }, 180_000);

  it('NBA 2025-11-03..2025-11-05: outcomes equal the raw NBA.com game logs', async () => {
    const { report, entries } = await simulate('nba', '2025-11-03', '2025-11-05');
    expect(report.snapshots).toBe(6);
    expect(report.settles).toBe(3);
    const raw = new Map<string, Record<string, number> | 'dnp'>();
    for (const r of parse(fs.readFileSync(H('nba_player_game_logs_2024-25_and_2025-26.csv')), { columns: true }) as Array<Record<string, string>>) {
      if (r['date']! < '2025-11-03' || r['date']! > '2025-11-05') continue;
      const n = (k: string) => Number(r[k]);
      raw.set(`${fold(r['player']!)}|${r['date']}`, n('minutes') === 0 ? 'dnp' : { points: n('pts'), rebounds: n('reb'), assists: n('ast'), threes: n('threes_made'), pra: n('pts') + n('reb') + n('ast'), blocks: n('blk'), steals: n('stl') });
    }
    check(entries, raw);
  }, 180_000);
});
