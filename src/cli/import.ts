import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { gradedSportSchema } from '../domain/sports.js';
import { badInput } from '../errors.js';
import { contextFor, parseOptions } from './_context.js';
import type { CliIO } from './_io.js';

const optionsSchema = z.object({ sport: gradedSportSchema.default('nba'), force: z.boolean().default(false) });

export function registerImport(program: Command, io: CliIO): void {
  const imp = program.command('import').description('Import real history into the store');
  imp
    .command('gamelogs')
    .description('Import a per-player game-log CSV (projection history); idempotent')
    .argument('<csv>', 'game-log file, e.g. the NBA.com PlayerGameLog export in ../shared/history')
    .option('--sport <sport>', 'sport of the file', 'nba')
    .option('--force', 're-import a file already imported', false)
    .addHelpText('after', '\nExample:\n  $ propgrade import gamelogs ../shared/history/nba_player_game_logs_2024-25_and_2025-26.csv')
    .action(async (file: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      if (!existsSync(file)) throw badInput(`no such file: ${file}`);
      const { openRunEnvironment } = await import('./_run.js');
      const { importGameLogs, supportedGameLogSports } = await import('../pipeline/import-history.js');
      const env = await openRunEnvironment(ctx, { needsReplayClock: false });
      try {
        const result = importGameLogs(env.store, opts.sport, file, env.now, { force: opts.force });
        if (!result) throw badInput(`--sport ${opts.sport}: no game-log importer (supported: ${supportedGameLogSports().join(', ')})`);
        ctx.result(result, (r) => (r.skipped ? `${r.file}: already imported (use --force to re-import)` : `${r.file}: ${r.written} ${r.sport} player-games written`));
      } finally {
        await env.close();
      }
    });
}
