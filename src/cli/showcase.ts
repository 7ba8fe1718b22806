import { capLegendLines, formatEvPct, markedGrade } from '../domain/model/grading.js';
import type { Command } from 'commander';
import { z } from 'zod';
import { gradedSportSchema } from '../domain/sports.js';
import type { Claim } from '../domain/showcase.js';
import { localClock, localDateTime } from '../domain/time.js';
import type { ShowcaseView } from '../reads/showcase.js';
import { marketCell } from './slate.js';
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

const edge = formatEvPct;

/** What each column means (every label has its legend line). */
const SHOWCASE_LEGEND = [
  'Main = main (the line most books offer) or alt (an alternate line). Grade = EV of the price against the market (A+ ≥ +5%, A +2..5%, B 0..+2%, C −4..0%, F below); X* = capped.',
  "Graded = the price, book and time the grade was computed on. Book / Price = the best price now; Fair = the market's no-vig fair price now.",
  'Market = how the fair was formed: N books (other books at the line), implied (an alternate line priced from the main line), thin N (1-2 other books), own book.',
  'Edge now = the EV of the price now against the fair now, % of stake.',
].join('\n');

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
      show(markedGrade(r.grade, r.capReason)),
      graded(r.claim),
      show(r.book),
      signedAmerican(r.bookOdds),
      show(r.fairOdds, signedAmerican),
      marketCell(r),
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
    ctx.c.dim(SHOWCASE_LEGEND),
    ...capLegendLines(v.rungs).map((l) => ctx.c.dim(`  ${l}`)),
    ...(dashes.length > 0 ? [ctx.c.dim('Edge not shown:'), ...dashes.map((d) => ctx.c.dim(d))] : []),
    tile,
  ].join('\n');
}
