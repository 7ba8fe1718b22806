import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError, badInput } from '../errors.js';
import type { BacktestReport, PropLevelSummary, TierSummary } from '../pipeline/backtest.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected yyyy-mm-dd');

const backtestOptionsSchema = z.object({
  props: z.array(z.string().min(1)).min(1, 'at least one --props <csv> is required'),
  fitProps: z.array(z.string().min(1)).default([]),
  gamelogs: z.string().min(1),
  threesResults: z.string().min(1).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  fitBefore: isoDate.default('2025-10-21'),
  rows: z.boolean().default(false),
});

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw badInput(`cannot read ${path}: ${(cause as Error).message}`);
  }
}

export function registerBacktest(program: Command, io: CliIO): void {
  program
    .command('backtest')
    .description('Replay real historical props through the grading model and score it against real results')
    .option('--props <csv>', 'props to evaluate (history all-markets or threes file); repeatable', collect)
    .option('--fit-props <csv>', 'props used only to fit the market blend (rows before --fit-before); repeatable', collect)
    .requiredOption('--gamelogs <csv>', 'NBA player game logs (projection history and outcomes)')
    .option('--threes-results <csv>', '2024-25 league threes per player-game (outcomes for 2024-25 threes props)')
    .option('--from <date>', 'first ET game date to evaluate (default: --fit-before)')
    .option('--to <date>', 'last ET game date to evaluate (default: last prop date)')
    .option('--fit-before <date>', 'fit every parameter on data dated before this day', '2025-10-21')
    .option('--rows', 'include every graded row in --json output', false)
    .addHelpText(
      'after',
      [
        '',
        'Example (held-out test, parameters fitted on 2024-25):',
        '  $ propgrade backtest --props ../shared/history/nba_player_props_all_markets_2025-10-21_to_2025-11-09.csv \\',
        '      --fit-props ../shared/history/nba_player_threes_props_2024-10-22_to_2025-11-23.csv \\',
        '      --gamelogs ../shared/history/nba_player_game_logs_2024-25_and_2025-26.csv \\',
        '      --threes-results ../shared/history/nba_threes_results_2024-25.csv --from 2025-10-21 --to 2025-11-09',
      ].join('\n'),
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(backtestOptionsSchema, raw);
      const [{ loadHistoricalPropsCsv }, { loadNbaGameLogsCsv }, { loadNbaThreesResultsCsv }, { runBacktest }] = await Promise.all([
        import('../feeds/history/props.js'),
        import('../feeds/history/nba-gamelogs.js'),
        import('../feeds/history/nba-threes-results.js'),
        import('../pipeline/backtest.js'),
      ]);
      const started = performance.now();
      const warnings: string[] = [];
      const loadProps = (paths: string[]) =>
        paths.flatMap((p) => {
          const r = loadHistoricalPropsCsv(readText(p));
          warnings.push(...r.warnings);
          return r.rows;
        });
      const props = loadProps(opts.props);
      const fitProps = loadProps(opts.fitProps);
      const logs = loadNbaGameLogsCsv(readText(opts.gamelogs));
      warnings.push(...logs.warnings);
      const threes = opts.threesResults ? loadNbaThreesResultsCsv(readText(opts.threesResults)) : null;
      if (threes) warnings.push(...threes.warnings);
      if (props.length === 0) throw new AppError('NOT_FOUND', 'no usable prop rows in --props');
      if (logs.rows.length === 0) throw new AppError('NOT_FOUND', 'no usable game-log rows in --gamelogs');
      for (const w of warnings.slice(0, 5)) ctx.verbose(`warning: ${w}`);
      if (warnings.length > 0) ctx.progress(`${warnings.length} input row(s) skipped (--verbose lists the first 5)`);

      const report = runBacktest({
        props,
        fitProps,
        gamelogs: logs.rows,
        threesResults: threes?.rows ?? [],
        from: opts.from,
        to: opts.to,
        fitBefore: opts.fitBefore,
      });
      const wallTimeMs = Math.round(performance.now() - started);
      const { rows, ...summary } = report;
      ctx.result({ ...summary, rows: opts.rows ? rows : undefined, wallTimeMs, skippedInputRows: warnings.length }, (d) =>
        renderReport(d, ctx.color),
      );
    });
}

const f3 = (v: number): string => v.toFixed(4);
const pctf = (v: number): string => `${(v * 100).toFixed(1)}%`;

function renderReport(r: Omit<BacktestReport, 'rows'> & { wallTimeMs: number }, color: boolean): string {
  const out: string[] = [];
  out.push(
    `Back-test ${r.window.from}..${r.window.to} (parameters fitted before ${r.window.fitBefore}${r.window.inSample ? '; WINDOW OVERLAPS TRAINING' : ''})`,
  );
  out.push(
    `props rows ${r.counts.propRows}, main lines ${r.counts.mainLines}, graded ${r.counts.graded}, refused ${r.counts.refused}, void ${r.counts.void}, scored ${r.counts.scoredProps}; blend weight ${show(r.params.blendWeight)}; wall time ${(r.wallTimeMs / 1000).toFixed(1)} s`,
  );
  out.push('\nProbability scoring, one row per prop (P(over)); market = mean multiplicative de-vig across books at the main line');
  out.push(
    renderTable(
      ['market', 'n', 'over hit', 'LL model', 'LL blend', 'LL market', 'model-mkt (se)', 'blend-mkt (se)', 'Brier model', 'Brier blend', 'Brier mkt'],
      Object.entries(r.propLevel).map(([m, s]: [string, PropLevelSummary]) => [
        m,
        s.n,
        show(s.overHitRate, pctf),
        show(s.logLoss.model, f3),
        show(s.logLoss.blended, f3),
        show(s.logLoss.marketConsensus, f3),
        s.modelMinusMarket ? `${f3(s.modelMinusMarket.mean)} (${f3(s.modelMinusMarket.se)})` : '-',
        s.blendedMinusMarket ? `${f3(s.blendedMinusMarket.mean)} (${f3(s.blendedMinusMarket.se)})` : '-',
        show(s.brier.model, f3),
        show(s.brier.blended, f3),
        show(s.brier.marketConsensus, f3),
      ]),
      color,
    ),
  );
  out.push('\nGraded rows (both sides, best real price per side) by market and grade');
  const tierRows: Array<Array<string | number>> = [];
  for (const [m, tiers] of Object.entries(r.tiers)) {
    for (const [g, t] of Object.entries(tiers) as [string, TierSummary][]) {
      tierRows.push([
        m,
        g,
        t.n,
        t.hitRate === null ? '-' : pctf(t.hitRate),
        t.ci95 ? `${pctf(t.ci95[0])}-${pctf(t.ci95[1])}` : 'n<20',
        `${t.roiPct.toFixed(1)}%`,
        `${t.meanEvPct.toFixed(1)}%`,
        show(t.logLoss.blended, f3),
        show(t.logLoss.market, f3),
        show(t.brier.blended, f3),
        show(t.brier.market, f3),
      ]);
    }
  }
  out.push(renderTable(['market', 'grade', 'n', 'hit', '95% CI', 'ROI', 'mean EV', 'LL p_win', 'LL market', 'Brier p_win', 'Brier mkt'], tierRows, color));
  out.push('\nCalibration of P(over) by decile (blended p_win | pure model | market)');
  out.push(
    renderTable(
      ['bin', 'n blend', 'pred', 'obs', 'n model', 'pred', 'obs', 'n market', 'pred', 'obs'],
      r.calibration.blended.map((b, i) => {
        const m = r.calibration.model[i];
        const k = r.calibration.market[i];
        return [
          `${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`,
          b.n,
          show(b.meanPredicted, f3),
          show(b.observed, f3),
          show(m?.n),
          show(m?.meanPredicted, f3),
          show(m?.observed, f3),
          show(k?.n),
          show(k?.meanPredicted, f3),
          show(k?.observed, f3),
        ];
      }),
      color,
    ),
  );
  return out.join('\n');
}
