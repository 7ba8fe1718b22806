/**
 * WNBA back-test on the real ../shared data (skipped without it): the loader pairs the raw
 * responses' outcomes exactly, the report has the NBA back-test's keys, a settled row's actual
 * equals the raw box-score CSV, and the committed parameters reproduce docs/model.md's main tiers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { FITTED_PARAMS } from '../../../src/domain/model/index.js';
import { loadWnbaOddsDir, propsOfResponse, runWnbaBacktest } from '../../../src/jobs/backtest/wnba.js';

const SHARED = path.resolve('..', 'shared');
const ODDS = path.join(SHARED, 'feeds/odds-api-wnba-2023-2024');
const BOX = path.join(SHARED, 'history/wnba_player_box_scores_2019-2026.csv');
const GAMES = path.join(SHARED, 'history/wnba_games_2019-2026.csv');
const available = fs.existsSync(ODDS) && fs.existsSync(BOX) && fs.existsSync(GAMES);

describe.skipIf(!available)('WNBA back-test (real responses and box scores)', () => {
  it('pairs every Over/Under of a raw response with its price and line unchanged', () => {
    const file = '047b5c6bc07cec89c34b3bcc0e43b96e_decision.json';
    const raw = JSON.parse(fs.readFileSync(path.join(ODDS, file), 'utf8'));
    const props = propsOfResponse(raw)!;
    const points = raw.data.bookmakers.flatMap((b: { key: string; markets: Array<{ key: string; outcomes: Array<{ name: string; description: string; price: number; point: number }> }> }) =>
      b.markets.filter((m) => m.key === 'player_points').flatMap((m) => m.outcomes.map((o) => ({ ...o, book: b.key }))),
    );
    expect(points.length).toBeGreaterThan(10);
    for (const o of points) {
      const p = props.find((x) => x.book === o.book && x.stat === 'points' && x.player === o.description && x.line === o.point)!;
      expect(o.name === 'Over' ? p.overOdds : p.underOdds).toBe(o.price);
      expect(p.date).toBe('2024-06-02');
      expect(p.snapshotAt).toBe(raw.timestamp);
    }
    expect(props.some((p) => p.stat === 'pra')).toBe(true);
    const all = loadWnbaOddsDir(ODDS);
    expect(all.warnings).toEqual([]);
  });

  it('reports with the NBA keys; settled actuals equal the raw box scores; committed params give the documented tiers', () => {
    const { report } = runWnbaBacktest({ oddsDir: ODDS, boxScores: BOX, games: GAMES, params: FITTED_PARAMS });
    expect(Object.keys(report).sort()).toEqual(['calibration', 'calibrationSlope', 'clv', 'counts', 'fit', 'logLoss', 'params', 'perTier', 'rows', 'rules', 'sampleSize', 'window'].sort());
    expect(report.window).toEqual({ from: '2024-01-01', to: '2024-08-20', fitBefore: '2024-01-01', inSample: false });
    const main = report.perTier.mainLines;
    // The market alone (the rebounds nudge failed the held-out gate, docs/model.md §3): the tiers after.
    expect([main['A+']?.n, main.A?.n, main.B?.n, main.C?.n, main.F?.n]).toEqual([3, 8, 32, 371, 1608]);
    expect(report.clv.wnba?.n).toBe(10);
    // On the grade's own yardstick (the pre-tip market at the graded line, the graded book left out).
    expect(report.clv.wnba?.beat).toBe(7);

    const games = new Map((parse(fs.readFileSync(GAMES), { columns: true }) as Array<Record<string, string>>).map((g) => [g['game_id'], g['date']]));
    const box = parse(fs.readFileSync(BOX), { columns: true }) as Array<Record<string, string>>;
    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z]/g, '');
    const col: Record<string, string> = { points: 'pts', rebounds: 'reb', assists: 'ast', threes: 'tpm' };
    let checked = 0;
    for (const r of report.rows.filter((_, i) => i % 40 === 0)) {
      const day = r.date.replaceAll('-', '');
      const line = box.find((b) => games.get(b['game_id']!) === day && fold(b['player']!) === fold(r.player));
      if (!line) continue;
      const want = r.stat === 'pra' ? Number(line['pts']) + Number(line['reb']) + Number(line['ast']) : Number(line[col[r.stat]!]);
      expect(r.actual, `${r.player} ${r.date} ${r.stat}`).toBe(want);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(30);
  }, 60_000);
});
