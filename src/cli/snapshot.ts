import type { Command } from 'commander';
import { z } from 'zod';
import { GRADED_SPORTS, gradedSportSchema, type GradedSport } from '../domain/sports.js';
import { badInput } from '../errors.js';
import type { SnapshotSummary } from '../pipeline/snapshot.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const targetSchema = z.union([z.literal('all'), gradedSportSchema]);

const optionsSchema = z.object({
  quiet: z.boolean().default(false),
  all: z.boolean().default(false),
});

export function registerSnapshot(program: Command, io: CliIO): void {
  program
    .command('snapshot')
    .description('Run the snapshot pipeline: fetch odds, grade and lock props, track line moves, write the ledger')
    .argument('[sport]', 'all | mlb | nba | wnba | soccer (mma is never graded)', 'all')
    .option('--quiet', 'print the run summary only, not the slate', false)
    .option('--all', 'print every slate row, not just the top 6 per game', false)
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade snapshot all --replay data/replay          # bundled real data, no keys\n  $ propgrade snapshot nba --replay data/replay --now 2025-11-05T15:05:00Z\n  $ ODDS_API_KEY=... propgrade snapshot all               # live providers\n\nExit codes: 0 ok (or nothing to grade), 1 a run failed or another run holds the lock, 2 bad usage.',
    )
    .action(async (target: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      if (target === 'mma') throw badInput('mma is not graded: it has fight cards and moneyline/round-total odds only');
      const which = parseOptions(targetSchema, target);
      const opts = parseOptions(optionsSchema, raw);
      const sports: GradedSport[] = which === 'all' ? [...GRADED_SPORTS] : [which];
      const { openRunEnvironment } = await import('./_run.js');
      const { buildOddsSource } = await import('../pipeline/wiring.js');
      const { runSnapshot } = await import('../pipeline/snapshot.js');
      const { ensureReplaySeed } = await import('../pipeline/import-history.js');
      const env = await openRunEnvironment(ctx);
      try {
        const { kvGet, kvSet } = await import('../store/repo/kv.js');
        const { easternDate } = await import('../domain/time.js');
        const creditsKey = `odds-api:credits:${easternDate(env.now)}`;
        // No record for today means no run has spent a credit today: a real count of zero.
        const spentToday = kvGet<number>(env.store.db, creditsKey, env.now) ?? 0;
        const sources = await buildOddsSource(ctx.config, { replayDir: env.replayDir, recordDir: ctx.options.record ?? null, now: env.now, log: env.log, creditsSpentToday: spentToday });
        if (env.replayDir) ensureReplaySeed(env.store, env.replayDir, sources.seed, env.now, env.log);
        const summaries: SnapshotSummary[] = [];
        for (const sport of sports) {
          env.log.info(`${sport}: snapshot run at ${env.now.toISOString()}`);
          summaries.push(
            await runSnapshot(sport, { store: env.store, odds: sources.odds, status: sources.status, now: env.now, allowedBooks: ctx.config.ALLOWED_BOOKS, log: env.log, source: env.replayDir ? 'replay' : 'live' }),
          );
        }
        await sources.close();
        // Replayed calls cost nothing; live ones count against the day's budget across runs.
        if (!env.replayDir) kvSet(env.store.db, creditsKey, sources.budget.state().spent, env.now, 3 * 86_400);
        const { readSlate } = await import('../pipeline/slate-read.js');
        const { renderSlate, slateJson } = await import('./slate.js');
        const slates: Array<{ sport: GradedSport; slate: NonNullable<ReturnType<typeof readSlate>> }> = [];
        for (const s of summaries) {
          if (s.status !== 'ok') continue;
          const slate = readSlate(env.store, s.sport, { all: opts.all });
          if (slate) slates.push({ sport: s.sport, slate });
        }
        const data = { now: env.now.toISOString(), runs: summaries, slates: opts.quiet ? [] : await Promise.all(slates.map((s) => slateJson(s.sport, s.slate))) };
        ctx.result(data, () => {
          const table = renderTable(
            ['Sport', 'Status', 'Events', 'Rows', 'Graded', 'Refused', 'Dropped', 'Moves', 'Ledger +', 'Closings', 'Note'],
            summaries.map((s) => [s.sport, s.status, s.events, s.rows, s.graded, s.refused, s.dropped, s.moves, s.ledgerInserted, s.closingsCaptured, show(s.message)]),
            ctx.color,
          );
          const rendered = opts.quiet ? [] : slates.map((s) => renderSlate(ctx, s.sport, s.slate));
          return [...rendered, '', table].join('\n');
        });
        io.exitCode = snapshotExitCode(summaries, which === 'all');
      } finally {
        await env.close();
      }
    });
}

/**
 * A single sport's run must succeed. For `all`, a sport with no data (off-season, not in a
 * replay) is not a failure, but a failed run or a held lock is.
 */
export function snapshotExitCode(summaries: readonly SnapshotSummary[], all: boolean): 0 | 1 {
  if (summaries.some((s) => s.status === 'locked')) return 1;
  if (!all) return summaries.every((s) => s.status === 'ok' || s.status === 'empty') ? 0 : 1;
  if (summaries.some((s) => s.status === 'ok')) return 0;
  return summaries.every((s) => s.status === 'empty') ? 0 : 1;
}
