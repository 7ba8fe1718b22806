import type { Command } from 'commander';
import { z } from 'zod';
import { GRADED_SPORTS, gradedSportSchema, type GradedSport } from '../domain/sports.js';
import { isIsoDate } from '../domain/time.js';
import type { SettleSummary } from '../pipeline/settle.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const targetSchema = z.union([z.literal('all'), gradedSportSchema]);
const optionsSchema = z.object({ date: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional() });

export function registerSettle(program: Command, io: CliIO): void {
  program
    .command('settle')
    .description('Settle pending ledger entries against real box scores and record closing-line value')
    .argument('[sport]', 'all | mlb | nba | wnba | soccer', 'all')
    .option('--date <yyyy-mm-dd>', 'settle only this ET game date (default: every date with pending entries)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade settle nba --replay data/replay --now 2025-11-06T12:00:00Z\n  $ propgrade settle all --date 2025-11-05\n\nRe-running changes nothing already settled. Exit 1 when results were unavailable for every date.',
    )
    .action(async (target: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const which = parseOptions(targetSchema, target);
      const opts = parseOptions(optionsSchema, raw);
      const sports: GradedSport[] = which === 'all' ? [...GRADED_SPORTS] : [which];
      const { openRunEnvironment } = await import('./_run.js');
      const { buildResultsSource } = await import('../pipeline/wiring.js');
      const { runSettle } = await import('../pipeline/settle.js');
      const env = await openRunEnvironment(ctx);
      try {
        const sources = await buildResultsSource(ctx.config, { replayDir: env.replayDir, recordDir: ctx.options.record ?? null, now: env.now, log: env.log });
        const summaries: SettleSummary[] = [];
        for (const sport of sports) {
          summaries.push(await runSettle(sport, { store: env.store, results: sources.results, now: env.now, log: env.log, ...(opts.date ? { date: opts.date } : {}) }));
        }
        await sources.close();
        ctx.result({ now: env.now.toISOString(), runs: summaries }, (d) =>
          renderTable(
            ['Sport', 'Status', 'Dates', 'Hit', 'Miss', 'Push', 'Void', 'Still pending', 'Box scores', 'Note'],
            d.runs.map((s) => [s.sport, s.status, s.dates.join(' ') || '-', s.settled.hit, s.settled.miss, s.settled.push, s.settled.void, s.stillPending, s.playerGamesWritten, show(s.message ?? (s.unavailableDates.length ? `unavailable: ${s.unavailableDates.join(' ')}` : null))]),
            ctx.color,
          ),
        );
        const failed = summaries.some((s) => s.status === 'locked') || (which !== 'all' && summaries.some((s) => s.status === 'failed')) || (which === 'all' && summaries.every((s) => s.status === 'failed'));
        io.exitCode = failed ? 1 : 0;
      } finally {
        await env.close();
      }
    });
}
