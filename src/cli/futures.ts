import type { Command } from 'commander';
import { z } from 'zod';
import { gradedSportsOf } from '../domain/sports.js';
import { FUTURES_SPORTS, type FuturesView } from '../reads/futures.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, show, signedAmerican, type CliIO } from './_io.js';
import { freshnessLine, withContext } from './live.js';

// The one sport schema, narrowed to the sports with a futures market.
const sportArg = gradedSportsOf(FUTURES_SPORTS);
const optionsSchema = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(200).default(15),
  refresh: z.boolean().default(false),
});

export function registerFutures(program: Command, io: CliIO): void {
  program
    .command('futures')
    .description('Championship futures: best price across the allowed books and the move since the previous price')
    .argument('<sport>', 'mlb | nba | wnba')
    .option('--limit <n>', 'selections per market to show (favourites first)', '15')
    .option('--refresh', 'skip a fresh cached board and ask the provider (spends a credit live)', false)
    .addHelpText(
      'after',
      '\nNeeds FUTURES_ENABLED=1. One Odds API outrights call per sport per 12 hours, outside the daily snapshot budget\n' +
        '(logged under odds-api:futures-credits:<date>). Move is on implied probability: shortening, drifting or flat;\n' +
        'a selection without a previous price has neither. WNBA has no futures key at The Odds API.\n\n' +
        'Examples:\n  $ FUTURES_ENABLED=1 propgrade futures nba\n  $ FUTURES_ENABLED=1 propgrade futures mlb --replay data/replay',
    )
    .action(async (sportRaw: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = parseOptions(sportArg, sportRaw);
      const opts = parseOptions(optionsSchema, raw);
      const { readFutures } = await import('../reads/futures.js');
      await withContext(ctx, async (deps) => {
        const view = await readFutures(deps, sport, { refresh: opts.refresh });
        ctx.result(view, (v) => renderFutures(ctx, v, opts.limit));
      });
    });
}

export function renderFutures(ctx: CliContext, v: FuturesView, limit: number): string {
  if (!v.available) return `No ${v.sport} futures: ${v.reason}.`;
  const out = [ctx.c.bold(`${v.sport.toUpperCase()} futures — books updated ${ctx.dateTime(v.updatedAt)}`), freshnessLine(ctx, v, 'outrights')];
  for (const m of v.markets) {
    out.push(ctx.c.bold(m.title));
    out.push(
      renderTable(
        ['Selection', 'Best', 'Book', 'Books', 'Prev', 'Move'],
        m.selections.slice(0, limit).map((s) => [s.name, signedAmerican(s.price), s.book, s.books, show(s.prevPrice, signedAmerican), show(s.move)]),
        ctx.color,
      ),
    );
    if (m.selections.length > limit) out.push(ctx.c.dim(`${m.selections.length - limit} more: --limit ${m.selections.length} shows them`));
  }
  return out.join('\n');
}
