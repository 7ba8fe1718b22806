import type { Command } from 'commander';
import { z } from 'zod';
import { gradedSportSchema } from '../domain/sports.js';
import type { SlateRead } from '../pipeline/slate-read.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { pct, renderTable, show, signedAmerican, type CliIO } from './_io.js';

const optionsSchema = z.object({
  all: z.boolean().default(false),
  graded: z.boolean().default(false),
});

export function registerSlate(program: Command, io: CliIO): void {
  program
    .command('slate')
    .description('Show the cached graded slate of the latest snapshot (reads the store only)')
    .argument('<sport>', 'mlb | nba | wnba | soccer')
    .option('--all', 'every row, not just the top 6 per game', false)
    .option('--graded', 'hide refused reads (no projection)', false)
    .addHelpText('after', '\nExamples:\n  $ propgrade slate nba\n  $ propgrade slate nba --all --json')
    .action(async (sportArg: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = parseOptions(gradedSportSchema, sportArg);
      const opts = parseOptions(optionsSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { readSlate } = await import('../pipeline/slate-read.js');
      const env = await openRunEnvironment(ctx, { needsReplayClock: false, readClock: true });
      try {
        const slate = readSlate(env.store, sport, { all: opts.all, gradedOnly: opts.graded });
        if (!slate) {
          ctx.result({ sport, available: false }, () => `No ${sport} snapshot yet. Run \`propgrade snapshot ${sport}\` first.`);
          return;
        }
        ctx.result(await slateJson(sport, slate), () => renderSlate(ctx, sport, slate));
      } finally {
        await env.close();
      }
    });
}

export async function slateJson(sport: string, slate: SlateRead) {
  const { gradedRowView } = await import('../pipeline/views.js');
  return {
    sport,
    available: true,
    snapshot: { id: slate.snapshot.id, taken_at: slate.snapshot.takenAt, slate_date: slate.snapshot.slateDate, graded: slate.snapshot.gradedCount, rows: slate.snapshot.rowCount },
    games: slate.games.map((g) => ({ event_id: g.eventId, game: g.game, commence_time: g.commenceTime, hidden: g.hidden, rows: g.rows.map(gradedRowView) })),
  };
}

const gradeColor = (ctx: CliContext, grade: string | null): string => {
  if (grade === null) return ctx.c.dim('—');
  if (grade === 'A+' || grade === 'A') return ctx.c.green(grade);
  if (grade === 'B') return ctx.c.cyan(grade);
  if (grade === 'F') return ctx.c.red(grade);
  return grade;
};

export function renderSlate(ctx: CliContext, sport: string, slate: SlateRead): string {
  const s = slate.snapshot;
  const lines = [ctx.c.bold(`${sport.toUpperCase()} slate ${s.slateDate} — snapshot ${s.takenAt} — ${s.gradedCount} graded of ${s.rowCount} rows`)];
  for (const g of slate.games) {
    lines.push('', ctx.c.bold(`${g.game}  ${g.commenceTime}`));
    lines.push(
      renderTable(
        ['Grade', 'Player', 'Team', 'Stat', 'Line', 'Side', 'Proj', 'Book', 'Price', 'Fair', 'P(win)', 'EV', 'Move'],
        g.rows.map((r) => [
          gradeColor(ctx, r.grade),
          r.player,
          show(r.team),
          r.statType,
          r.line,
          r.side,
          show(r.projection, (v) => v.toFixed(1)),
          show(r.book),
          show(r.bookOdds, signedAmerican),
          show(r.fairOdds, signedAmerican),
          show(r.pWin, (v) => pct(v)),
          show(r.evPct, (v) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`),
          r.lineDelta === null ? '' : `${r.lineDelta > 0 ? '+' : ''}${r.lineDelta} ${r.lineDirection ?? ''}`.trim(),
        ]),
        ctx.color,
      ),
    );
    if (g.hidden > 0) lines.push(ctx.c.dim(`  … ${g.hidden} more (use --all)`));
  }
  return lines.join('\n');
}
