import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import { streamMlbGameLogsFile } from '../../../src/feeds/history/mlb-gamelogs.js';
import { loadStrikeoutQuotesCsv } from '../../../src/feeds/history/mlb-strikeouts.js';
import { runMlbBacktest } from '../../../src/jobs/backtest/mlb.js';

// Real rows: Cole Ragans's 2025 starts (game logs) and his 2025-06-05 strikeout props (9 quotes).
const LOGS = 'test/fixtures/history/mlb-pitcher-gamelogs-ragans.csv';
const logs: PlayerGameStat[] = [];
streamMlbGameLogsFile(LOGS, false, (r) => logs.push(r));
const quotes = loadStrikeoutQuotesCsv(readFileSync('test/fixtures/history/mlb-strikeouts-excerpt.csv', 'utf8')).rows;

/** The raw row of the game the props are for, read by hand from the CSV. */
const raw = readFileSync(LOGS, 'utf8').split(/\r?\n/).find((l) => l.startsWith('2025-06-05,'))!.split(',');

describe('MLB strikeouts back-test (real excerpt)', () => {
  const report = runMlbBacktest({ gamelogs: logs, quotes, from: '2025-06-03', to: '2025-09-28', fitBefore: '2025-06-03' });

  it('has the NBA back-test keys', () => {
    expect(Object.keys(report).sort()).toEqual(['calibration', 'calibrationSlope', 'clv', 'counts', 'fit', 'logLoss', 'params', 'perTier', 'rows', 'rules', 'sampleSize', 'window']);
    expect(report.window).toEqual({ from: '2025-06-03', to: '2025-09-28', fitBefore: '2025-06-03', inSample: false });
  });

  it('fits on starts before the cut-off only, with batters faced as the exposure', () => {
    expect(report.params.stats['mlb:strikeouts']).toMatchObject({ exposure: 'batters_faced', fitted: true });
    // 9 starts before 2025-06-03; each predicted from at least 5 earlier ones: 4 training starts.
    expect(report.fit?.stats['strikeouts']?.trainingGames).toBe(4);
  });

  it('settles every graded side on the raw game-log row (4 strikeouts, a start)', () => {
    expect(raw[6]).toBe('4');
    expect(raw[11]).toBe('1');
    expect(report.counts.ladders).toBe(1);
    expect(report.rows.length).toBeGreaterThan(0);
    for (const r of report.rows) {
      expect(r.actual).toBe(Number(raw[6]));
      expect(r.result).toBe((r.side === 'over') === Number(raw[6]) > r.line ? 'win' : 'loss');
    }
  });
});
