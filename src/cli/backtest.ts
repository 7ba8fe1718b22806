import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError, badInput } from '../errors.js';
import type { BacktestReport, ClvSummary, TierClaim } from '../domain/backtest/report.js';
import { CLOSE_LEAD_LABEL } from '../domain/close-lead.js';
import { gradedSportsOf } from '../domain/sports.js';
import { MIN_SAMPLE } from '../domain/record-gate.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';
// The rows are named as --json names them (main_lines, ...).
import { wireKey } from '../wire.js';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected yyyy-mm-dd');

const backtestOptionsSchema = z.object({
  sport: gradedSportsOf(['nba', 'wnba', 'mlb']).default('nba'),
  props: z.array(z.string().min(1)).default([]),
  fitProps: z.array(z.string().min(1)).default([]),
  gamelogs: z.string().min(1).optional(),
  wnbaOdds: z.string().min(1).optional(),
  boxScores: z.string().min(1).optional(),
  games: z.string().min(1).optional(),
  threesResults: z.string().min(1).optional(),
  mlbStrikeouts: z.string().min(1).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  fitBefore: isoDate.optional(),
  rows: z.boolean().default(false),
  committed: z.boolean().default(false),
  at: z.enum(['first', 'last']).default('first'),
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
    .option('--sport <sport>', 'nba (props + NBA game logs), wnba (historical odds + ESPN box scores) or mlb (pitcher strikeouts: --mlb-strikeouts + MLB pitcher game logs)', 'nba')
    .option('--props <csv>', 'props to evaluate (history all-markets or threes file); repeatable', collect)
    .option('--fit-props <csv>', 'props used only to fit the market blend (rows before --fit-before); repeatable', collect)
    .option('--gamelogs <csv>', 'nba, mlb: game logs of the sport (projection history and outcomes)')
    .option('--wnba-odds <dir>', 'WNBA: folder of Odds API historical event-odds responses (<id>_decision.json / _closing.json)')
    .option('--box-scores <csv>', 'WNBA: ESPN player box scores (projection history and outcomes)')
    .option('--games <csv>', 'WNBA: the games file that dates the box scores')
    .option('--threes-results <csv>', '2024-25 league threes per player-game (outcomes for 2024-25 threes props)')
    .option('--mlb-strikeouts <csv>', 'MLB pitcher strikeouts, first and last pregame quotes (nba: closing-line value only; mlb: the props evaluated)')
    .option('--from <date>', 'first ET game date to evaluate (default: --fit-before)')
    .option('--to <date>', 'last ET game date to evaluate (default: last prop date)')
    .option('--fit-before <date>', 'fit every parameter on data dated before this day (default nba 2025-10-21, wnba 2024-01-01, mlb 2025-06-03)')
    .option('--rows', 'include every graded row in --json output', false)
    .option('--committed', 'WNBA: score the committed FITTED_PARAMS instead of refitting (the table docs/model.md quotes)', false)
    .option('--at <first|last>', 'mlb: grade the first (default) or the last pregame quotes', 'first')
    .addHelpText(
      'after',
      [
        '',
        'Example (held-out test, parameters fitted on 2024-25):',
        '  $ propgrade backtest --props ../shared/history/nba_player_props_all_markets_2025-10-21_to_2025-11-09.csv \\',
        '      --fit-props ../shared/history/nba_player_threes_props_2024-10-22_to_2025-11-23.csv \\',
        '      --gamelogs ../shared/history/nba_player_game_logs_2024-25_and_2025-26.csv \\',
        '      --threes-results ../shared/history/nba_threes_results_2024-25.csv \\',
        '      --mlb-strikeouts ../shared/history/mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv --from 2025-10-21 --to 2025-11-09',
        '',
        'WNBA (2023 learns, 2024 held out):',
        '  $ propgrade backtest --sport wnba --wnba-odds ../shared/feeds/odds-api-wnba-2023-2024 \\',
        '      --box-scores ../shared/history/wnba_player_box_scores_2019-2026.csv --games ../shared/history/wnba_games_2019-2026.csv --committed',
        '',
        'MLB pitcher strikeouts (held out 2025-06-03..2025-09-28, parameters fitted on earlier 2025 starts):',
        '  $ propgrade backtest --sport mlb --gamelogs ../shared/history/mlb_pitcher_game_logs_2025.csv \\',
        '      --mlb-strikeouts ../shared/history/mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv --from 2025-06-03 --to 2025-09-28',
      ].join('\n'),
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(backtestOptionsSchema, raw);
      if (opts.sport === 'wnba' || opts.sport === 'mlb') {
        const run = opts.sport === 'wnba' ? await wnbaReport(opts) : await mlbReport(opts);
        const { report, warnings, started } = run;
        for (const w of warnings.slice(0, 5)) ctx.verbose(`warning: ${w}`);
        if (warnings.length > 0) ctx.progress(`${warnings.length} input row(s) or file(s) skipped (--verbose lists the first 5)`);
        const { rows, ...summary } = report;
        const wallTimeMs = Math.round(performance.now() - started);
        ctx.result({ ...summary, rows: opts.rows ? rows : undefined, wallTimeMs, skippedInputRows: warnings.length }, (d) => renderReport(d, ctx.color));
        return;
      }
      if (opts.props.length === 0) throw badInput('at least one --props <csv> is required');
      if (!opts.gamelogs) throw badInput('--gamelogs <csv> is required');
      const gamelogsFile = opts.gamelogs;
      const [{ loadHistoricalPropsCsv }, { loadNbaGameLogsCsv }, { loadNbaThreesResultsCsv }, { loadStrikeoutQuotesCsv }, { runBacktest }] = await Promise.all([
        import('../feeds/history/props.js'),
        import('../feeds/history/nba-gamelogs.js'),
        import('../feeds/history/nba-threes-results.js'),
        import('../feeds/history/mlb-strikeouts.js'),
        import('../jobs/backtest/nba.js'),
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
      const logs = loadNbaGameLogsCsv(readText(gamelogsFile));
      warnings.push(...logs.warnings);
      const threes = opts.threesResults ? loadNbaThreesResultsCsv(readText(opts.threesResults)) : null;
      if (threes) warnings.push(...threes.warnings);
      const strikeouts = opts.mlbStrikeouts ? loadStrikeoutQuotesCsv(readText(opts.mlbStrikeouts)) : null;
      if (strikeouts) warnings.push(...strikeouts.warnings);
      if (props.length === 0) throw new AppError('NOT_FOUND', 'no usable prop rows in --props');
      if (logs.rows.length === 0) throw new AppError('NOT_FOUND', 'no usable game-log rows in --gamelogs');
      for (const w of warnings.slice(0, 5)) ctx.verbose(`warning: ${w}`);
      if (warnings.length > 0) ctx.progress(`${warnings.length} input row(s) skipped (--verbose lists the first 5)`);

      const report = runBacktest({
        props,
        fitProps,
        gamelogs: logs.rows,
        threesResults: threes?.rows ?? [],
        mlbStrikeouts: strikeouts?.rows ?? [],
        from: opts.from,
        to: opts.to,
        fitBefore: opts.fitBefore ?? '2025-10-21',
      });
      const wallTimeMs = Math.round(performance.now() - started);
      const { rows, ...summary } = report;
      ctx.result({ ...summary, rows: opts.rows ? rows : undefined, wallTimeMs, skippedInputRows: warnings.length }, (d) =>
        renderReport(d, ctx.color),
      );
    });
}

const f4 = (v: number): string => v.toFixed(4);
const pctf = (v: number): string => `${(v * 100).toFixed(1)}%`;
const pct1 = (v: number): string => `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`;
const ci = (c: [number, number] | null, f: (v: number) => string): string => (c ? `${f(c[0])} .. ${f(c[1])}` : '-');

type Report = Omit<BacktestReport, 'rows'> & { wallTimeMs: number };

function tierTable(title: string, tiers: Partial<Record<string, TierClaim>>, color: boolean): string {
  const rows = Object.entries(tiers).map(([g, t]) => [
    g,
    (t as TierClaim).n,
    show((t as TierClaim).hitRate, pctf),
    pct1((t as TierClaim).claimedEvPct),
    show((t as TierClaim).roiPct.value, pct1),
    ci((t as TierClaim).roiPct.ci95, pct1),
    (t as TierClaim).claimInside === null ? '-' : (t as TierClaim).claimInside ? 'yes' : 'NO',
  ]);
  return `\n${title}\n${renderTable(['grade', 'n', 'hit', 'claimed EV', 'ROI', 'ROI 95% CI (games)', 'claim inside'], rows, color)}`;
}

function clvLine(name: string, c: ClvSummary | null): string {
  if (!c) return `${name}: no data`;
  return `${name}: ${c.description}. A/A+ matched ${c.n} (${c.withProjection} with a projection, ${c.marketOnly} from the market alone); beat the later fair ${c.beat} = ${show(c.beatShare, pctf)} (95% CI ${ci(c.ci95, pctf)}); mean CLV ${show(c.meanClvPts, (v) => `${v.toFixed(2)} pts`)}; ${leadLine(c)}`;
}

/** The beat share by how long before the start the later read was taken: one band's figure never stands for another's. */
function leadLine(c: ClvSummary): string {
  if (c.beatCloseByLead === null) return 'lead time of the later read before the start: not in the data';
  const bands = c.beatCloseByLead.filter((b) => b.n > 0);
  if (bands.length === 0) return 'no later read with a lead time';
  return `by the later read's lead before the start: ${bands.map((b) => `${CLOSE_LEAD_LABEL[b.band]} ${b.beat} of ${b.n} beat${b.pct === null ? ` (n < ${MIN_SAMPLE})` : ` = ${b.pct.toFixed(1)}%`}`).join('; ')}`;
}

function renderReport(r: Report, color: boolean): string {
  const out: string[] = [];
  out.push(`Back-test ${r.window.from}..${r.window.to} (parameters fitted before ${r.window.fitBefore}${r.window.inSample ? '; WINDOW OVERLAPS TRAINING' : ''})`);
  const c = r.counts;
  out.push(
    `prop rows ${c.propRows}, ladders ${c.ladders}, main lines ${c.mainLines} (graded ${c.graded}, refused ${c.refused}, void ${c.void}), scored rows ${c.scoredRows} by fair source ${Object.entries(c.bySource).map(([k, v]) => `${k} ${v}`).join(', ')}; wall time ${(r.wallTimeMs / 1000).toFixed(1)} s`,
  );
  out.push(
    `rules: consensus = mean ${r.rules.consensusMethod} no-vig P of the other books at the line, full at ${r.rules.minConsensusBooks}+ books; outlier when a price's implied probability is ${(r.rules.outlierProbGap * 100).toFixed(1)} pts under the fair; nudge weights ${JSON.stringify(r.params.nudgeWeights)}`,
  );
  out.push('\nProbability scoring at main lines, one P(over) per prop: final (consensus nudged by the model) vs the all-books consensus; differences are final minus consensus, 95% CI over games');
  out.push(
    renderTable(
      ['market', 'n', 'LL final', 'LL consensus', 'final - consensus', '95% CI', 'LL model', 'model - consensus', 'Brier final', 'Brier consensus'],
      Object.entries(r.logLoss).map(([m, s]) => [
        m,
        s.n,
        show(s.logLoss.final, f4),
        show(s.logLoss.consensus, f4),
        show(s.finalMinusConsensus.value, f4),
        ci(s.finalMinusConsensus.ci95, f4),
        show(s.logLoss.model, f4),
        show(s.modelMinusConsensus.value, f4),
        show(s.brier.final, f4),
        show(s.brier.consensus, f4),
      ]),
      color,
    ),
  );
  out.push(tierTable('Claims per tier, main lines (both sides, graded price = best credible price)', r.perTier.mainLines, color));
  out.push(tierTable('Claims per tier, alt rungs priced market-implied', r.perTier.marketImpliedRungs, color));
  out.push(tierTable('Claims per tier, thin consensus (1-2 other books)', r.perTier.thinConsensus, color));
  out.push(tierTable('Claims per tier, every graded row', r.perTier.allRows, color));
  out.push('\nSlope of realised profit on claimed EV (an honest claim has slope 1), 95% CI over games');
  out.push(
    renderTable(
      ['rows', 'n', 'slope', '95% CI'],
      Object.entries(r.calibrationSlope).map(([k, s]) => [wireKey(k), s.n, show(s.value, (v) => v.toFixed(2)), ci(s.ci95, (v) => v.toFixed(2))]),
      color,
    ),
  );
  out.push('\nCalibration by decile: final P(over) at main lines | market-implied P(over) on alt rungs');
  out.push(
    renderTable(
      ['bin', 'n final', 'pred', 'obs', 'n implied', 'pred', 'obs'],
      r.calibration.final.map((b, i) => {
        const m = r.calibration.marketImpliedRungs[i];
        return [`${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`, b.n, show(b.meanPredicted, f4), show(b.observed, f4), show(m?.n), show(m?.meanPredicted, f4), show(m?.observed, f4)];
      }),
      color,
    ),
  );
  out.push('\nClosing-line value (no outcomes needed)');
  out.push(clvLine('NBA', r.clv.nbaThrees));
  out.push(clvLine('MLB', r.clv.mlbStrikeouts));
  if (r.clv.wnba !== undefined) out.push(clvLine('WNBA', r.clv.wnba));
  const s = r.sampleSize;
  out.push(
    `\nSample size: pinning ROI to +/-${s.roiHalfWidthPct}% at 95% needs about ${show(s.betsNeeded)} bets (profit sd ${show(s.profitSd, (v) => v.toFixed(2))}, design effect of same-game bets ${show(s.designEffect, (v) => v.toFixed(2))}); the A/A+ tiers hold ${s.betsInTopTiers}. ${s.note}`,
  );
  return out.join('\n');
}

type BacktestOptions = z.output<typeof backtestOptionsSchema>;

/** WNBA: the historical Odds API responses and the ESPN box scores (src/jobs/backtest/wnba.ts). */
async function wnbaReport(opts: BacktestOptions) {
  if (!opts.wnbaOdds || !opts.boxScores || !opts.games) throw badInput('--sport wnba needs --wnba-odds <dir>, --box-scores <csv> and --games <csv>');
  const { runWnbaBacktest } = await import('../jobs/backtest/wnba.js');
  const committed = opts.committed ? (await import('../domain/model/fitted-params.js')).FITTED_PARAMS : null;
  const started = performance.now();
  const out = runWnbaBacktest({ oddsDir: opts.wnbaOdds, boxScores: opts.boxScores, games: opts.games, ...(opts.fitBefore ? { fitBefore: opts.fitBefore } : {}), ...(opts.from ? { from: opts.from } : {}), ...(opts.to ? { to: opts.to } : {}), ...(committed ? { params: committed } : {}) });
  return { ...out, started };
}

/** MLB pitcher strikeouts: the props file's quotes and the pitcher game logs (src/jobs/backtest/mlb-command.ts). */
async function mlbReport(opts: BacktestOptions) {
  if (!opts.mlbStrikeouts) throw badInput('--sport mlb needs --mlb-strikeouts <csv> (the props evaluated)');
  if (!opts.gamelogs) throw badInput('--sport mlb needs --gamelogs <csv> (the MLB pitcher game logs)');
  const { runMlbBacktestCommand } = await import('../jobs/backtest/mlb-command.js');
  const started = performance.now();
  const out = runMlbBacktestCommand({ gamelogs: opts.gamelogs, quotes: opts.mlbStrikeouts, from: opts.from, to: opts.to, fitBefore: opts.fitBefore, at: opts.at }, readText);
  return { ...out, started };
}
