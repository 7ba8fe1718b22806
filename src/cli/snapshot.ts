import type { Command } from 'commander';
import { z } from 'zod';
import { GRADED_SPORTS, gradedSportSchema, type GradedSport } from '../domain/sports.js';
import { addDays } from '../domain/time.js';
import { badInput } from '../errors.js';
import type { SlateRead } from '../reads/slate.js';
import type { SnapshotSummary } from '../jobs/snapshot-run.js';
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
      '\nExamples:\n  $ propgrade snapshot all --replay data/replay          # bundled real data, no keys\n  $ propgrade snapshot nba --replay data/replay --now 2025-11-05T15:05:00Z\n  $ ODDS_API_KEY=... propgrade snapshot all               # live providers\n\nExit codes: 0 every sport graded, had nothing to grade or is not in the replayed recording;\n1 a sport failed for real (no usable answer from its provider) or another run holds the lock; 2 bad usage.',
    )
    .action(async (target: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      if (target === 'mma') throw badInput('mma is not graded: it has fight cards and moneyline/round-total odds only');
      const which = parseOptions(targetSchema, target);
      const opts = parseOptions(optionsSchema, raw);
      const sports: GradedSport[] = which === 'all' ? [...GRADED_SPORTS] : [which];
      const { openRunEnvironment } = await import('./_run.js');
      const { runSnapshotJob } = await import('../jobs/snapshot.js');
      const env = await openRunEnvironment(ctx, { creates: true });
      try {
        const summaries = await runSnapshotJob({
          store: env.store,
          config: ctx.config,
          sports,
          now: env.now,
          pinned: ctx.explicitNow() !== null,
          replayDir: env.replayDir,
          recordDir: ctx.options.record ?? null,
          log: env.log,
          ...(io.live ? { live: io.live } : {}),
          // Feed warnings are collected per sport: one summary line each, every line under --verbose.
          sportLog: (sport) => {
            const warnings: string[] = [];
            return {
              log: { info: (m: string) => env.log.info(m), warn: (m: string) => (ctx.options.verbose ? env.log.warn(m) : void warnings.push(m)) },
              done: () => {
                if (warnings.length === 0) return;
                const more = warnings.length > 1 ? ` (+${warnings.length - 1} more)` : '';
                env.log.warn(`${sport}: ${warnings.length} feed warning${warnings.length === 1 ? '' : 's'}: ${warnings[0]}${more}; --verbose shows every line`);
              },
            };
          },
          onSeedCheck: () => {
            if (io.isTTY && env.replayDir) ctx.progress(`checking the recorded history in ${env.replayDir} (the first use imports it)…`);
          },
        });
        const { readSlate } = await import('../reads/slate.js');
        const { renderSlate, slateJson } = await import('./slate.js');
        const slates: Array<{ sport: GradedSport; slate: NonNullable<Awaited<ReturnType<typeof readSlate>>> }> = [];
        // `--quiet --json` shows no slate anywhere (no rows, no next commands): none is read.
        const slatesShown = !(opts.quiet && ctx.options.json);
        for (const s of summaries) {
          if (s.status !== 'ok' || !slatesShown) continue;
          const slate = await readSlate(env.store, s.sport, { all: opts.all });
          if (slate) slates.push({ sport: s.sport, slate });
        }
        const exitCode = snapshotExitCode(summaries);
        const { afterSnapshotRuns, afterSnapshotLine } = await import('../jobs/after-snapshot.js');
        const after = await afterSnapshotRuns(env.store, ctx.config, env.now, env.log, { replay: env.replayDir !== null, wallNow: new Date() });
        const data = { now: env.now.toISOString(), exitCode: exitCode, runs: summaries, after, slates: opts.quiet ? [] : await Promise.all(slates.map((s) => slateJson(s.sport, s.slate))) };
        ctx.result(data, () => {
          const table = renderTable(
            ['Sport', 'Status', 'Events', 'Rows', 'Graded', 'Refused', 'Dropped', 'Moves', 'Ledger +', 'Closings', 'Note'],
            summaries.map((s) => [s.sport, s.status, s.events, s.rows, s.graded, s.refused, s.dropped, s.moves, s.ledgerInserted, s.closingsCaptured, show(s.message)]),
            ctx.color,
          );
          const rendered = opts.quiet ? [] : slates.map((s) => renderSlate(ctx, s.sport, s.slate));
          return [...rendered, '', table, afterSnapshotLine(after), ...nextSteps(slates, env.replayDir)].join('\n');
        });
        io.exitCode = exitCode;
      } finally {
        await env.close();
      }
    });
}

/**
 * Commands worth trying next, built from the slates just printed (a real graded main-line row of each
 * sport), each runnable as printed from a clone (`npx`): the sports of a replayed store are each read
 * on their own clock, so every scan here grades.
 */
function nextSteps(slates: ReadonlyArray<{ sport: GradedSport; slate: SlateRead }>, replayDir: string | null): string[] {
  if (slates.length === 0) return [];
  const out = ['', 'Next:'];
  for (const { sport, slate } of slates) {
    const row = slate.games.flatMap((g) => g.rows).find((r) => r.grade !== null && r.isMainLine);
    out.push(`  npx propgrade slate ${sport} --all                 # every line of the ${sport} slate`);
    if (row) out.push(`  npx propgrade scan --player "${row.player}" --stat ${row.statType} --line ${row.line} --direction ${row.side} --sport ${sport}`);
    if (replayDir) out.push(`  npx propgrade settle ${sport} --replay ${replayDir} --now ${settleAfter(slate)}   # settle after the games`);
    else out.push(`  npx propgrade settle ${sport}                   # the morning after the games`);
  }
  return out;
}

/** Noon UTC the day after the slate's ET date: every game of the slate is final by then. */
function settleAfter(slate: SlateRead): string {
  return `${addDays(slate.snapshot.slateDate, 1)}T12:00:00Z`;
}

/**
 * One rule for a run and for `all` (README "Running for real"): exit 1 when any sport failed for real
 * (its provider answered nothing usable) or another run holds the lock; exit 0 when every sport
 * graded, had nothing to grade (no games, off-season) or is not in the replayed recording.
 */
export function snapshotExitCode(summaries: readonly SnapshotSummary[]): 0 | 1 {
  return summaries.some((s) => s.status === 'failed' || s.status === 'locked') ? 1 : 0;
}
