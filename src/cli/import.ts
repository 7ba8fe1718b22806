import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { gradedSportSchema } from '../domain/sports.js';
import { badInput } from '../errors.js';
import { contextFor, parseOptions } from './_context.js';
import type { CliIO } from './_io.js';

const optionsSchema = z.object({ sport: gradedSportSchema.optional(), force: z.boolean().default(false), games: z.string().min(1).optional() });

export function registerImport(program: Command, io: CliIO): void {
  const imp = program.command('import').description('Import real history into the store');
  imp
    .command('gamelogs')
    .description('Import a per-player game-log CSV (projection history); idempotent')
    .argument('<csv>', 'game-log file: the NBA.com PlayerGameLog export, the MLB pitcher game logs or the ESPN WNBA box scores in ../shared/history')
    .option('--sport <sport>', 'sport of the file (default: told from its header)')
    .option('--games <csv>', 'WNBA: the games file that dates the box scores (default: the wnba_games*.csv beside it)')
    .option('--force', 're-import a file already imported', false)
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade import gamelogs ../shared/history/nba_player_game_logs_2024-25_and_2025-26.csv\n  $ propgrade import gamelogs ../shared/history/mlb_pitcher_game_logs_2025.csv   # detected as mlb\n  $ propgrade import gamelogs ../shared/history/wnba_player_box_scores_2019-2026.csv   # dated by wnba_games_2019-2026.csv beside it',
    )
    .action(async (file: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      if (!existsSync(file)) throw badInput(`no such file: ${file}`);
      if (opts.games && !existsSync(opts.games)) throw badInput(`no such file: ${opts.games}`);
      const { openRunEnvironment } = await import('./_run.js');
      const { detectGameLogSport, importGameLogs, supportedGameLogSports } = await import('../jobs/import-history.js');
      const { siblingGamesFile } = await import('../feeds/history/wnba-box-scores.js');
      const detected = detectGameLogSport(file);
      if (opts.sport && detected && opts.sport !== detected) throw badInput(`--sport ${opts.sport}, but ${file} is a ${detected} game-log file`);
      const sport = opts.sport ?? detected;
      if (!sport) throw badInput(`${file}: unknown game-log layout (supported: ${supportedGameLogSports().join(', ')}); pass --sport`);
      if (sport === 'wnba' && !opts.games && !siblingGamesFile(file)) throw badInput(`${file}: WNBA box scores need their games file (--games <wnba_games csv>)`);
      const env = await openRunEnvironment(ctx, { needsReplayClock: false });
      try {
        const result = importGameLogs(env.store, sport, file, env.now, { force: opts.force, ...(opts.games ? { games: opts.games } : {}) });
        if (!result) throw badInput(`--sport ${sport}: no game-log importer (supported: ${supportedGameLogSports().join(', ')})`);
        const skipped = (n: number | undefined) => (n ? ` (${n} rows skipped: not WNBA games or unreadable)` : '');
        ctx.result(result, (r) => (r.skipped ? `${r.file}: already imported (use --force to re-import)` : `${r.file}: ${r.written} ${r.sport} player-games written${skipped(r.skippedRows)}`));
      } finally {
        await env.close();
      }
    });
}
