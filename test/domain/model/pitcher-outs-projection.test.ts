import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import { fitPitcherStat, pitcherSeries } from '../../../src/domain/model/fit-mlb.js';
import { paramsFor, structuralParams } from '../../../src/domain/model/params.js';
import { FITTED_PARAMS } from '../../../src/domain/model/fitted-params.js';
import { projectStat } from '../../../src/domain/model/projection.js';
import { scanCsvFile } from '../../../src/feeds/history/csv.js';
import { streamMlbGameLogsFile } from '../../../src/feeds/history/mlb-gamelogs.js';

/**
 * Pitcher outs (issue 43) projected from the real 2025 game logs as they stood before each game:
 * outs per batter faced x expected batters faced, starts only. Counts are checked against the raw CSV.
 */
const LOGS = path.resolve('..', 'shared', 'history', 'mlb_pitcher_game_logs_2025.csv');
const available = fs.existsSync(LOGS);
const PITCHER = 'Chris Sale';
const DATE = '2025-06-10';

describe.skipIf(!available)('pitcher_outs projection on the real 2025 game logs', () => {
  const rows: PlayerGameStat[] = [];
  if (available) streamMlbGameLogsFile(LOGS, scanCsvFile(LOGS).quoted, (r) => rows.push(r));
  const raw = available ? fs.readFileSync(LOGS, 'utf8').trim().split(/\r?\n/).slice(1).map((l) => l.split(',')) : [];
  const mine = rows.filter((r) => r.playerName === PITCHER);

  it('uses batters faced as exposure and only his starts before the game (raw CSV count)', () => {
    const params = paramsFor(FITTED_PARAMS, 'mlb', 'pitcher_outs')!;
    expect(params.exposure).toBe('batters_faced');
    const out = projectStat(mine, 'pitcher_outs', params, DATE);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    // Raw columns: game_date 0, pitcher 1, innings_pitched 7, is_starter 11.
    const starts = raw.filter((c) => c[1] === PITCHER && c[0]! < DATE && c[11] === '1');
    expect(out.projection.sampleSize).toBe(starts.length);
    const outs = starts.map((c) => {
      const [w, t] = c[7]!.split('.');
      return Number(w) * 3 + Number(t ?? '0');
    });
    expect(out.projection.lookbackAverage).toBeCloseTo(outs.reduce((s, v) => s + v, 0) / outs.length, 9);
    expect(out.projection.mean).toBeGreaterThan(9);
    expect(out.projection.mean).toBeLessThan(24);
  });

  it('no look-ahead: his later starts (and everyone’s) do not move the projection', () => {
    const params = structuralParams('mlb', 'pitcher_outs');
    const before = projectStat(mine.filter((r) => r.date < DATE), 'pitcher_outs', params, DATE);
    const all = projectStat(mine, 'pitcher_outs', params, DATE);
    expect(mine.some((r) => r.date >= DATE)).toBe(true);
    expect(all).toEqual(before);
  });

  it('the fit sees outs per batter faced near the league’s (raw: sum outs / sum BF over starts before the cut-off)', () => {
    const training = rows.filter((r) => r.date < '2025-06-03');
    const fit = fitPitcherStat(training, 'pitcher_outs');
    expect(fit).not.toBeNull();
    let o = 0;
    let bf = 0;
    for (const c of raw) {
      if (!(c[0]! < '2025-06-03') || c[11] !== '1' || !(Number(c[10]) > 0)) continue;
      const [w, t] = c[7]!.split('.');
      o += Number(w) * 3 + Number(t ?? '0');
      bf += Number(c[10]);
    }
    expect(fit!.params.priorRate).toBeCloseTo(o / bf, 5);
    expect(pitcherSeries(training, 'pitcher_outs').flat().length).toBeGreaterThan(700);
  });
});
