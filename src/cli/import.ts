import type { Command } from 'commander';
import { z } from 'zod';
import { gradedSportSchema } from '../domain/sports.js';
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
      '\nA file whose header is none of the three layouts is refused (exit 2), naming the columns each importer looks for.\n\nExamples:\n  $ propgrade import gamelogs ../shared/history/nba_player_game_logs_2024-25_and_2025-26.csv\n  $ propgrade import gamelogs ../shared/history/mlb_pitcher_game_logs_2025.csv   # detected as mlb\n  $ propgrade import gamelogs ../shared/history/wnba_player_box_scores_2019-2026.csv   # dated by wnba_games_2019-2026.csv beside it',
    )
    .action(async (file: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { planImport, runImportJob } = await import('../jobs/import.js');
      const plan = planImport({ file, sport: opts.sport, games: opts.games, force: opts.force });
      const env = await openRunEnvironment(ctx, { needsReplayClock: false, creates: true });
      try {
        const result = await runImportJob(env.store, plan, env.now);
        // What a skipped row is depends on the importer: only the WNBA box scores leave out rows of other leagues' games.
        const why = plan.sport === 'wnba' ? 'not WNBA games or unreadable' : 'unreadable';
        const skipped = (n: number | undefined) => (n ? ` (${n} rows skipped: ${why})` : '');
        ctx.result(result, (r) => (r.skipped ? `${r.file}: already imported (use --force to re-import)` : `${r.file}: ${r.written} ${r.sport} player-games written${skipped(r.skippedRows)}`));
      } finally {
        await env.close();
      }
    });
}
