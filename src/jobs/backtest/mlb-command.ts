import { existsSync } from 'node:fs';
import type { PlayerGameStat } from '../../domain/entities.js';
import { scanCsvFile } from '../../feeds/history/csv.js';
import { streamMlbGameLogsFile } from '../../feeds/history/mlb-gamelogs.js';
import { loadStrikeoutQuotesCsv } from '../../feeds/history/mlb-strikeouts.js';
import { AppError, badInput } from '../../errors.js';
import type { BacktestReport } from '../../domain/backtest/report.js';
import { runMlbBacktest } from './mlb.js';

/** Default window of the MLB back-test: the props file's regular season, held out from the earlier starts. */
export const MLB_BACKTEST_DEFAULTS = { fitBefore: '2025-06-03', to: '2025-09-28' } as const;

/** Loads the two files and runs the MLB back-test; `readText` reads a file or throws a usage error. */
export function runMlbBacktestCommand(
  opts: { gamelogs: string; quotes: string; from?: string | undefined; to?: string | undefined; fitBefore?: string | undefined; at?: 'first' | 'last' },
  readText: (path: string) => string,
): { report: BacktestReport; warnings: string[] } {
  if (!existsSync(opts.gamelogs)) throw badInput(`cannot read ${opts.gamelogs}`);
  const logs: PlayerGameStat[] = [];
  const warnings = streamMlbGameLogsFile(opts.gamelogs, scanCsvFile(opts.gamelogs).quoted, (r) => logs.push(r));
  const quotes = loadStrikeoutQuotesCsv(readText(opts.quotes));
  warnings.push(...quotes.warnings);
  if (logs.length === 0) throw new AppError('NOT_FOUND', 'no usable MLB pitcher game-log rows in --gamelogs');
  if (quotes.rows.length === 0) throw new AppError('NOT_FOUND', 'no usable strikeout quotes in --mlb-strikeouts');
  const fitBefore = opts.fitBefore ?? MLB_BACKTEST_DEFAULTS.fitBefore;
  const report = runMlbBacktest({ gamelogs: logs, quotes: quotes.rows, from: opts.from ?? fitBefore, to: opts.to ?? MLB_BACKTEST_DEFAULTS.to, fitBefore, at: opts.at ?? 'first' });
  return { report, warnings };
}
