import type { Command } from 'commander';
import { z } from 'zod';
import { sportSchema } from '../domain/sports.js';
import type { NewsView } from '../reads/news.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';
import { freshnessLine, withContext } from './live.js';

const optionsSchema = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(15),
  refresh: z.boolean().default(false),
});

export function registerNews(program: Command, io: CliIO): void {
  program
    .command('news')
    .description('The news wire from ESPN: newest first, athlete and team only from the item’s own categories')
    .argument('<sport>', 'nba | wnba | mlb | soccer | mma')
    .option('--limit <n>', 'items to show (1-100)', '15')
    .option('--refresh', 'skip a fresh cached answer and ask ESPN', false)
    .addHelpText(
      'after',
      '\nCached 15 minutes in the store; a provider failure shows the last good answer marked stale.\n\nExamples:\n  $ propgrade news nba\n  $ propgrade news mlb --replay data/replay --limit 5\n  $ propgrade news wnba --json',
    )
    .action(async (sportArg: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = parseOptions(sportSchema, sportArg);
      const opts = parseOptions(optionsSchema, raw);
      const { readNews } = await import('../reads/news.js');
      await withContext(ctx, async (deps) => {
        const view = await readNews(deps, sport, { limit: opts.limit, refresh: opts.refresh });
        ctx.result(view, (v) => renderNews(ctx, v));
      });
    });
}

function cut(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

export function renderNews(ctx: CliContext, v: NewsView): string {
  if (!v.available) return `No ${v.sport} news: ${v.reason}.`;
  if (v.items.length === 0) return [freshnessLine(ctx, v, `${v.sport} news`), 'The feed has no items right now.'].join('\n');
  const table = renderTable(
    ['Published', 'Headline', 'Athlete', 'Team', 'Type'],
    v.items.map((i) => [i.published ? ctx.dateTime(i.published) : '-', cut(i.headline, 70), show(i.athlete?.name), show(i.team ? (i.team.abbr ?? i.team.name) : null), show(i.type)]),
    ctx.color,
  );
  return [ctx.c.bold(`${v.sport.toUpperCase()} news wire — ${v.count} item${v.count === 1 ? '' : 's'}, newest first`), freshnessLine(ctx, v, 'ESPN news'), table].join('\n');
}
