import type { Command } from 'commander';
import { z } from 'zod';
import { sportSchema } from '../domain/sports.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const pinSchema = z.object({
  text: z.string().trim().min(1, 'pin text is empty').max(200, 'pin text is over 200 characters'),
  sport: sportSchema.optional(),
  hours: z.coerce.number().positive().max(24 * 14).optional(),
});

export function registerTicker(program: Command, io: CliIO): void {
  const ticker = program
    .command('ticker')
    .description('Show the ticker (line MOVEs from snapshot runs plus manual pins; hidden below 4 real items)')
    .addHelpText('after', '\nExamples:\n  $ propgrade ticker\n  $ propgrade ticker pin "Doubleheader today: lineups at 11am" --hours 12')
    .action(async (_raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { openRunEnvironment } = await import('./_run.js');
      const { readTicker } = await import('../reads/ticker.js');
      const env = await openRunEnvironment(ctx, { readClock: true });
      ctx.dataNow = env.now;
      try {
        const t = await readTicker(env.store, env.now, ctx.config.TICKER_MANUAL);
        ctx.result(t, (d) =>
          d.visible
            ? renderTable(['Kind', 'Sport', 'At', 'Text'], d.items.map((i) => [i.kind, show(i.sport), i.at ? ctx.dateTime(i.at) : '-', i.text]), ctx.color)
            : `Ticker hidden: ${d.count} real item${d.count === 1 ? '' : 's'} (needs at least 4).`,
        );
      } finally {
        await env.close();
      }
    });

  ticker
    .command('pin')
    .description('Pin a manual ticker item')
    .argument('<text>', 'the item text')
    .option('--sport <sport>', 'sport the pin belongs to')
    .option('--hours <n>', 'expire after n hours (default: never)')
    .addHelpText('after', '\nExample:\n  $ propgrade ticker pin "Rain delay risk at Wrigley" --sport mlb --hours 6')
    .action(async (text: string, raw: { sport?: string; hours?: string }, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(pinSchema, { text, ...raw });
      const { openRunEnvironment } = await import('./_run.js');
      const { pinTickerItem } = await import('../jobs/ticker.js');
      const env = await openRunEnvironment(ctx, { readClock: true });
      try {
        const pinned = await pinTickerItem(env.store, opts, env.now);
        ctx.result(pinned, (d) => `Pinned: ${d.pinned}${d.expiresAt ? ` (until ${d.expiresAt})` : ''}`);
      } finally {
        await env.close();
      }
    });
}
