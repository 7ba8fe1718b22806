import type { Command } from 'commander';
import { z } from 'zod';
import { isIsoDate } from '../domain/time.js';
import { gradedSportSchema } from '../domain/sports.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, type CliIO } from './_io.js';

const isoDate = z.string().refine(isIsoDate, 'expected yyyy-mm-dd');
const optionsSchema = z.object({ from: isoDate, to: isoDate });

export function registerBackfill(program: Command, io: CliIO): void {
  program
    .command('backfill')
    .description('Fill projection history from real final box scores over a date range (no ledger changes)')
    .argument('<sport>', 'mlb | nba | wnba | soccer')
    .requiredOption('--from <yyyy-mm-dd>', 'first ET date')
    .requiredOption('--to <yyyy-mm-dd>', 'last ET date')
    .addHelpText('after', '\nExamples:\n  $ propgrade backfill nba --from 2025-10-21 --to 2025-11-03\n  $ propgrade backfill nba --replay data/replay --now 2025-11-06T12:00:00Z --from 2025-11-04 --to 2025-11-05')
    .action(async (sportArg: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = parseOptions(gradedSportSchema, sportArg);
      const opts = parseOptions(optionsSchema, raw);
      const { checkBackfillRange, runBackfillJob } = await import('../jobs/backfill.js');
      checkBackfillRange(opts.from, opts.to);
      const { openRunEnvironment } = await import('./_run.js');
      const env = await openRunEnvironment(ctx, { creates: true });
      try {
        const summary = await runBackfillJob({ store: env.store, config: ctx.config, sport, from: opts.from, to: opts.to, now: env.now, replayDir: env.replayDir, recordDir: ctx.options.record ?? null, log: env.log });
        ctx.result(summary, (s) =>
          renderTable(['Sport', 'From', 'To', 'Dates', 'Final games', 'Player-games', 'Unavailable'], [[s.sport, s.from, s.to, s.dates, s.finalGames, s.playerGames, s.unavailableDates.join(' ') || '-']], ctx.color),
        );
        if (summary.unavailableDates.length === summary.dates) io.exitCode = 1;
      } finally {
        await env.close();
      }
    });
}
