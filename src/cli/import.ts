import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { gradedSportSchema } from '../domain/sports.js';
import { badInput } from '../errors.js';
import { contextFor, parseOptions } from './_context.js';
import type { CliIO } from './_io.js';

const optionsSchema = z.object({ sport: gradedSportSchema.optional(), force: z.boolean().default(false) });

export function registerImport(program: Command, io: CliIO): void {
  const imp = program.command('import').description('Import real history into the store');
  imp
    .command('gamelogs')
    .description('Import a per-player game-log CSV (projection history); idempotent')
    .argument('<csv>', 'game-log file: the NBA.com PlayerGameLog export or the MLB pitcher game logs in ../shared/history')
    .option('--sport <sport>', 'sport of the file (default: detected from its header)')
    .option('--force', 're-import a file already imported', false)
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade import gamelogs ../shared/history/nba_player_game_logs_2024-25_and_2025-26.csv\n  $ propgrade import gamelogs ../shared/history/mlb_pitcher_game_logs_2025.csv   # detected as mlb',
    )
    .action(async (file: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      if (!existsSync(file)) throw badInput(`no such file: ${file}`);
      const { openRunEnvironment } = await import('./_run.js');
      const { importGameLogs, supportedGameLogSports, detectGameLogSport } = await import('../pipeline/import-history.js');
      const detected = detectGameLogSport(file);
      const supported = supportedGameLogSports().join(', ');
      if (opts.sport && detected && opts.sport !== detected) throw badInput(`${file} is a ${detected} game-log file, not ${opts.sport}`);
      const sport = opts.sport ?? detected;
      if (!sport) throw badInput(`${file}: not a game-log layout propgrade knows (supported: ${supported}); its header names the columns it has`);
      const env = await openRunEnvironment(ctx, { needsReplayClock: false });
      try {
        const result = importGameLogs(env.store, sport, file, env.now, { force: opts.force });
        if (!result) throw badInput(`--sport ${sport}: no game-log importer (supported: ${supported})`);
        ctx.result(result, (r) => (r.skipped ? `${r.file}: already imported (use --force to re-import)` : `${r.file}: ${r.written} ${r.sport} player-games written`));
      } finally {
        await env.close();
      }
    });
}
