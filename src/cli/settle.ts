import type { Command } from 'commander';
import { z } from 'zod';
import { GRADED_SPORTS, gradedSportSchema, type GradedSport } from '../domain/sports.js';
import { isIsoDate } from '../domain/time.js';
import type { ClvCounts, SettleSummary } from '../jobs/settle.js';
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
      '\nBox scores come from ESPN and the MLB Stats API, which need no key (ODDS_API_KEY is not used here).\n' +
        'An entry is due once its game has started; the summary counts CLV (beat, faded, flat, no close) of what it settled.\n\n' +
        'Examples:\n  $ propgrade settle nba --replay data/replay --now 2025-11-06T12:00:00Z\n  $ propgrade settle all --date 2025-11-05\n\n' +
        'Re-running changes nothing already settled. Exit 1 when results were unavailable for every date.',
    )
    .action(async (target: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const which = parseOptions(targetSchema, target);
      const opts = parseOptions(optionsSchema, raw);
      const sports: GradedSport[] = which === 'all' ? [...GRADED_SPORTS] : [which];
      const { openRunEnvironment } = await import('./_run.js');
      const { runSettleJob } = await import('../jobs/settle.js');
      const env = await openRunEnvironment(ctx);
      try {
        const summaries = await runSettleJob({ store: env.store, config: ctx.config, sports, now: env.now, replayDir: env.replayDir, recordDir: ctx.options.record ?? null, log: env.log, date: opts.date, ...(io.live ? { live: io.live } : {}) });
        const clv = totalClv(summaries);
        // A --now suggestion only makes sense where the clock is chosen: a replay or an explicit --now.
        const clockChosen = env.replayDir !== null || ctx.explicitNow() !== null;
        ctx.result({ now: env.now.toISOString(), runs: summaries, clv }, (d) => renderSettle(d.runs, d.clv, d.now, clockChosen, ctx.color, opts.date === undefined));
        const failed = summaries.some((s) => s.status === 'locked') || (which !== 'all' && summaries.some((s) => s.status === 'failed')) || (which === 'all' && summaries.every((s) => s.status === 'failed'));
        io.exitCode = failed ? 1 : 0;
      } finally {
        await env.close();
      }
    });
}

function totalClv(runs: readonly SettleSummary[]): ClvCounts {
  const t: ClvCounts = { beat: 0, faded: 0, flat: 0, noClose: 0 };
  for (const r of runs) for (const k of ['beat', 'faded', 'flat', 'noClose'] as const) t[k] += r.clv[k];
  return t;
}

function settledCount(s: SettleSummary): number {
  return s.settled.hit + s.settled.miss + s.settled.push + s.settled.void;
}

/** "4 beat, 44 faded, 4 flat; 281 without a close". */
export function clvSummary(c: ClvCounts): string {
  return `${c.beat} beat, ${c.faded} faded, ${c.flat} flat; ${c.noClose} without a close`;
}

/** `notDueCounted`: the run counted the entries not due yet (not with --date, not when another run held the lock); else the column shows '-'. */
function renderSettle(runs: readonly SettleSummary[], clv: ClvCounts, now: string, clockChosen: boolean, color: boolean, notDueCounted: boolean): string {
  const table = renderTable(
    ['Sport', 'Status', 'Dates', 'Hit', 'Miss', 'Push', 'Void', 'Still pending', 'Not due', 'Final games', 'Player lines', 'Note'],
    runs.map((s) => [
      s.sport,
      s.status,
      s.dates.join(' ') || '-',
      s.settled.hit,
      s.settled.miss,
      s.settled.push,
      s.settled.void,
      s.stillPending,
      // Counted and null: pendingByDate found no entry waiting for its game, a real 0. Not counted: '-'.
      notDueCounted && s.status !== 'locked' ? (s.notDue?.pending ?? 0) : '-',
      s.finalGames,
      s.playerGamesWritten,
      s.dates.length === 0 && s.notDue ? 'none due yet (below)' : show(s.message ?? (s.unavailableDates.length ? `unavailable: ${s.unavailableDates.join(' ')}` : null)),
    ]),
    color,
  );
  const lines: string[] = [
    'Final games: games whose final box score this run read; Player lines: their player rows stored as history (projections read them).',
  ];
  for (const s of runs) {
    const n = settledCount(s);
    if (n > 0) lines.push(`${s.sport} CLV of the ${n} settled: ${clvSummary(s.clv)}`);
    if (s.notDue) {
      const when = clockChosen ? `settle after the games, e.g. --now ${s.notDue.settleAfter}` : `settle after the games (all over by ${s.notDue.settleAfter})`;
      const head = s.dates.length === 0 ? `${s.notDue.pending} pending, none due yet` : `${s.notDue.pending} more pending, not due yet`;
      lines.push(`${s.sport}: ${head}: their games start after ${now.replace('.000Z', 'Z')} (the first at ${s.notDue.firstStart}); ${when}`);
    }
  }
  if (runs.filter((s) => settledCount(s) > 0).length > 1) lines.push(`CLV of all settled: ${clvSummary(clv)}`);
  return `${table}\n${lines.join('\n')}`;
}
