import type { Command } from 'commander';
import { z } from 'zod';
import { gradedSportSchema } from '../domain/sports.js';
import type { Claim } from '../domain/showcase.js';
import { localClock, localDateTime } from '../domain/time.js';
import type { ShowcaseView } from '../reads/showcase.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, show, signedAmerican, teamText, type CliIO } from './_io.js';
import { freshnessLine, withContext } from './live.js';

const optionsSchema = z.object({ refresh: z.boolean().default(false) });

/** `propgrade showcase [sport]`: the desk showcase of the latest graded board (docs/stats.md). */
export function registerShowcase(program: Command, io: CliIO): void {
  program
    .command('showcase')
    .description('The desk showcase: a real alternate-line ladder with its grades, or nothing when none exists')
    .argument('[sport]', 'nba | wnba | mlb | soccer (default: every sport with a stored board)')
    .option('--refresh', 'skip a cached answer and read the board again', false)
    .addHelpText(
      'after',
      '\nThe A or B prop whose ladder rungs show the most grade variation. Per rung: line, grade with the price, book and time it\n' +
        'was graded on (Graded), the book price and fair price now, and the edge now (EV of the price now at the fair now) only\n' +
        'within ±10% at a credible price, else "-" with the reason. A same-team\n' +
        'correlation tile (0.34) appears only with two real same-team legs. No Kelly tile. Nothing real: says so, exit 0.\n\n' +
        'Examples:\n  $ propgrade showcase            # after `propgrade snapshot nba --replay data/replay`\n  $ propgrade showcase nba --json',
    )
    .action(async (sportRaw: string | undefined, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = sportRaw === undefined ? undefined : parseOptions(gradedSportSchema, sportRaw);
      const opts = parseOptions(optionsSchema, raw);
      const { readShowcase } = await import('../reads/showcase.js');
      await withContext(ctx, async (deps) => {
        const view = await readShowcase(deps, { ...(sport ? { sport } : {}), refresh: opts.refresh });
        ctx.result(view, (v) => renderShowcase(ctx, v));
      });
    });
}

const edge = (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(1)}%`;

export function renderShowcase(ctx: CliContext, v: ShowcaseView): string {
  if (!v.available) return `No desk showcase: ${v.reason}.`;
  const tz = ctx.config.PROPGRADE_TZ;
  // A grade sits with the price it was computed on (Graded); Book, Price, Fair and Edge are the market now.
  const graded = (c: Claim | null | undefined): string => (c ? `${signedAmerican(c.odds)} ${c.book} ${localClock(c.gradedAt, tz)}` : '-');
  const table = renderTable(
    ['Line', 'Main', 'Grade', 'Graded', 'Book', 'Price', 'Fair', 'Market', 'Edge now'],
    v.rungs.map((r) => [
      r.line,
      r.mainLine ? 'main' : 'alt',
      show(r.grade),
      graded(r.claim),
      show(r.book),
      signedAmerican(r.bookOdds),
      show(r.fairOdds, signedAmerican),
      show(r.fairSource),
      r.edgePct === null ? '-' : edge(r.edgePct),
    ]),
    ctx.color,
  );
  const dashes = v.rungs.filter((r) => r.edgePct === null && r.edgeNote !== null).map((r) => `  ${r.line}: ${r.edgeNote}`);
  const tile = v.correlation
    ? `Correlation tile: ${v.correlation.coefficient} (same team) — ${v.correlation.legs.map((l) => `${l.player} ${l.stat} ${l.side} ${l.line} (${l.grade ?? '-'})`).join(' + ')}`
    : ctx.c.dim(`No correlation tile: ${v.correlationNote ?? 'no second same-team leg'}.`);
  return [
    ctx.c.bold(`Desk showcase — ${v.player} (${teamText(v.team)}) ${v.stat} ${v.side}, ${v.game}, ${localDateTime(v.commenceTime, ctx.config.PROPGRADE_TZ)}`),
    `Prop: ${v.prop.grade} at ${v.prop.line}${v.prop.mainLine ? ' (main line)' : ' (alternate)'}${v.prop.claim ? `, graded at ${graded(v.prop.claim)}` : ''}; ${v.variation.distinctGrades} distinct grades on ${v.rungs.length} rungs (${v.variation.grades.map((g) => `${g.grade} ×${g.rungs}`).join(', ')})`,
    ctx.c.dim(`Board: ${v.sport} snapshot ${v.snapshotId} of ${v.slateDate}${v.latest ? ' (the latest stored, not today’s)' : ''}. Grades are EV claims at the Graded price and time; Book, Price, Fair and Edge now are the market at this board (docs/model.md §3).`),
    freshnessLine(ctx, v, 'showcase'),
    table,
    ...(dashes.length > 0 ? [ctx.c.dim('Edge not shown:'), ...dashes.map((d) => ctx.c.dim(d))] : []),
    tile,
  ].join('\n');
}
