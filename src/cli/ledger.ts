import type { Command } from 'commander';
import { z } from 'zod';
import { normalizeName } from '../domain/names.js';
import { isIsoDate } from '../domain/time.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, signedAmerican, type CliIO } from './_io.js';

const optionsSchema = z.object({
  date: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional(),
  team: z.string().trim().toUpperCase().optional(),
  player: z.string().trim().min(1).optional(),
  sport: z.string().optional(),
  pending: z.boolean().default(false),
  user: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100_000).default(200),
});

export function registerLedger(program: Command, io: CliIO): void {
  program
    .command('ledger')
    .description('List ledger entries (the public record unless --user is given)')
    .option('--date <yyyy-mm-dd>', 'ET game date')
    .option('--team <abbr>', 'team abbreviation')
    .option('--player <name>', 'player name (matched by normalized key)')
    .option('--sport <sport>', 'sport')
    .option('--pending', 'only unsettled entries', false)
    .option('--user <id>', "a user's own scans instead of the public record")
    .option('--limit <n>', 'at most n entries', '200')
    .addHelpText('after', '\nExamples:\n  $ propgrade ledger --date 2025-11-05\n  $ propgrade ledger --player "LeBron James" --json')
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { listLedger } = await import('../store/repo/ledger.js');
      const env = await openRunEnvironment(ctx, { needsReplayClock: false, readClock: true });
      try {
        const entries = listLedger(
          env.store.db,
          {
            ...(opts.date ? { date: opts.date } : {}),
            ...(opts.team ? { team: opts.team } : {}),
            ...(opts.sport ? { sport: opts.sport } : {}),
            ...(opts.player ? { playerKey: normalizeName(opts.player).key } : {}),
            pending: opts.pending,
            ...(opts.user ? { userId: opts.user } : { publicOnly: true }),
          },
          opts.limit,
        );
        ctx.result(entries, (list) =>
          list.length === 0
            ? 'No ledger entries match.'
            : renderTable(
                ['Date', 'Player', 'Team', 'Opp', 'Stat', 'Line', 'Side', 'Grade', 'Locked', 'Close', 'CLV', 'Outcome', 'Actual'],
                list.map((e) => [
                  e.gameDate,
                  e.player,
                  show(e.team),
                  show(e.opponent),
                  e.statType,
                  e.line,
                  e.side,
                  show(e.grade),
                  show(e.lockedPrice, signedAmerican),
                  e.closingLine === null ? '-' : `${e.closingLine === e.line ? '' : `${e.closingLine} `}${show(e.closingPrice, signedAmerican)}`,
                  show(e.clvVerdict),
                  e.outcome,
                  show(e.actualValue),
                ]),
                ctx.color,
              ),
        );
      } finally {
        await env.close();
      }
    });
}
