import type { Command } from 'commander';
import { z } from 'zod';
import { leadText } from '../domain/close-lead.js';
import { GRADED_SPORTS, gradedSportSchema, type GradedSport } from '../domain/sports.js';
import { badInput } from '../errors.js';
import type { CloseJobResult, CloseSummary } from '../jobs/close.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

// Literal here so `--help` loads no job module; test/cli/close.test.ts holds them to jobs/close-due.ts.
const WITHIN_DEFAULT = 15;
const WITHIN_MAX = 120;

const targetSchema = z.union([z.literal('all'), gradedSportSchema]);
const optionsSchema = z.object({ within: z.coerce.number().int().min(1).max(WITHIN_MAX).default(WITHIN_DEFAULT) });

export function registerClose(program: Command, io: CliIO): void {
  program
    .command('close')
    .description('Take the close of each game starting within the next minutes that has none yet: its odds only, the ledger re-priced')
    .argument('<sport>', 'all | mlb | nba | wnba | soccer')
    .option('--within <minutes>', `games starting within this many minutes of now (1 to ${WITHIN_MAX})`, String(WITHIN_DEFAULT))
    .addHelpText(
      'after',
      '\nMeant to run every 5 minutes (crontab.example, deploy/systemd/propgrade-close.timer): each game a snapshot\n' +
        'graded gets its close at most --within minutes before its start. Only the games in the window without\n' +
        "a close cost credits (one event-odds call each, within ODDS_API_DAILY_BUDGET); a second run in the same\n" +
        'window fetches nothing. It holds the sport\'s snapshot lock. The window is on the data clock (--now,\n' +
        'PROPGRADE_NOW, a replay\'s time, else the wall clock); a replayed close is stamped when it was recorded.\n\n' +
        'Examples:\n  $ ODDS_API_KEY=... propgrade close all\n  $ propgrade close nba --within 10 --json\n\n' +
        'Exit codes: 0 every sport took its due closes or had none due; 1 a sport\'s odds were unavailable for\n' +
        'every due game, or another run holds the lock; 2 bad usage.',
    )
    .action(async (target: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      if (target === 'mma') throw badInput('mma is not graded: it has no ledger closes to take');
      const which = parseOptions(targetSchema, target);
      const opts = parseOptions(optionsSchema, raw);
      const sports: GradedSport[] = which === 'all' ? [...GRADED_SPORTS] : [which];
      const { openRunEnvironment } = await import('./_run.js');
      const { runCloseJob } = await import('../jobs/close.js');
      const env = await openRunEnvironment(ctx);
      ctx.dataNow = env.now;
      try {
        const result = await runCloseJob({
          store: env.store,
          config: ctx.config,
          sports,
          now: env.now,
          withinMinutes: opts.within,
          replayDir: env.replayDir,
          recordDir: ctx.options.record ?? null,
          log: env.log,
          ...(io.live ? { live: io.live } : {}),
        });
        const exitCode = result.runs.some((r) => r.status === 'failed' || r.status === 'locked') ? 1 : 0;
        ctx.result({ now: env.now.toISOString(), exitCode, ...result }, (d) => render(ctx, d));
        io.exitCode = exitCode;
      } finally {
        await env.close();
      }
    });
}

function render(ctx: { color: boolean; dateTime(iso: string): string }, d: CloseJobResult & { now: string }): string {
  const table = renderTable(
    ['Sport', 'Status', 'Window ends', 'In window', 'Had a close', 'Fetched', 'Closes taken', 'Prices', 'Ledger re-priced', 'Note'],
    d.runs.map((r) => [r.sport, r.status, ctx.dateTime(r.window.to), r.inWindow, r.alreadyClosed, r.fetched, taken(r).length, sum(taken(r), 'prices'), sum(taken(r), 'closings'), show(r.message)]),
    ctx.color,
  );
  const lines = [table];
  for (const r of d.runs) {
    for (const e of r.events) {
      const what = e.status === 'captured' ? `close taken ${leadText(e.leadMinutes)} before the start (${e.prices} prices, ${e.closings} ledger entries re-priced)` : `${e.status.replace('_', ' ')}: ${e.reason ?? '-'}`;
      lines.push(`  ${r.sport} ${e.game} (${ctx.dateTime(e.commenceTime)}): ${what}`);
    }
  }
  const c = d.credits;
  lines.push(`Odds API credits: ${c.spent} spent by this run; ${c.spentToday} today (ET, wall clock)${c.dailyBudget === null ? ', no daily budget set (ODDS_API_DAILY_BUDGET)' : ` of ${c.dailyBudget}`}`);
  return lines.join('\n');
}

const taken = (r: CloseSummary) => r.events.filter((e) => e.status === 'captured');
const sum = (events: CloseSummary['events'], k: 'prices' | 'closings') => events.reduce((n, e) => n + e[k], 0);
