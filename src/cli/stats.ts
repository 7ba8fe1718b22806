import type { Command } from 'commander';
import { z } from 'zod';
import { gradedSportSchema, gradedSportsOf } from '../domain/sports.js';
import { isIsoDate } from '../domain/time.js';
import { AppError } from '../errors.js';
import { contextFor, parseOptions } from './_context.js';
import type { CliIO } from './_io.js';
import { withContext } from './live.js';

/**
 * `propgrade stats <view>`: the stats routes' data (docs/stats.md) through the same cache on the
 * run's clock, as a table or --json. A hidden state prints its reason and exits 0; a name that does
 * not resolve prints the candidates or did-you-mean names and exits 1; bad input exits 2.
 */

const sportOption = z.object({ sport: gradedSportSchema.optional(), refresh: z.boolean().default(false) });
const nameArg = z.string().trim().min(1, 'a name').max(60, 'at most 60 characters');
const minGames = z.coerce.number({ error: 'min-games must be a number' }).int().min(1).max(200);

const leadersOptions = z.object({
  sport: gradedSportSchema.default('nba'),
  stat: z.string().trim().min(1, 'a stat such as points'),
  season: z.string().trim().optional(),
  minGames: minGames.optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(10),
  refresh: z.boolean().default(false),
});
const gameArg = z.string().trim().regex(/^(?:[A-Za-z0-9]{1,40}|\d{4}-\d{2}-\d{2}:[A-Za-z]{2,4})$/, 'a provider game id, or <yyyy-mm-dd>:<TEAM> for a stored game');
const arsenalOptions = z.object({ season: z.coerce.number({ error: 'season must be a year' }).int().min(2015).max(2100).optional(), refresh: z.boolean().default(false) });
const lineupOptions = z.object({
  date: z.string().refine(isIsoDate, { error: (iss) => `date must be yyyy-mm-dd, got '${String(iss.input)}'` }).optional(),
  refresh: z.boolean().default(false),
});
const depthOptions = z.object({ sport: gradedSportsOf(['nba', 'wnba', 'mlb']).optional(), refresh: z.boolean().default(false) });
const cascadeOptions = sportOption.extend({ minGames: minGames.optional() });

const REFRESH = ['--refresh', 'skip a fresh cached answer and read again'] as const;

export function registerStats(program: Command, io: CliIO): void {
  const stats = program
    .command('stats')
    .description('Player, leaders, game, pitcher arsenal, lineup, depth and cascade views from stored real data')
    .addHelpText(
      'after',
      '\nEvery figure comes from real rows and carries its n; a value the data does not hold is "-" (null in --json), never 0.\n\n' +
        'Examples:\n' +
        '  $ propgrade stats player "Jalen Brunson" --replay data/replay\n' +
        '  $ propgrade stats leaders --stat threes --season 2024-25 --replay data/replay\n' +
        '  $ propgrade stats game 2025-11-03:NY --replay data/replay\n' +
        '  $ propgrade stats arsenal "Carlos Rodón" --season 2022 --replay data/replay\n' +
        '  $ propgrade stats lineup mlb --date 2023-08-22 --replay data/replay\n' +
        '  $ propgrade stats depth ATL --sport mlb --replay data/replay\n' +
        '  $ propgrade stats cascade "Joel Embiid" --replay data/replay',
    );

  stats
    .command('player')
    .description("A player's profile, season averages and last 5 games from stored game lines, archetype, tonight's graded main lines")
    .argument('<name>', 'player name (resolved by normalized key; ambiguous names are refused with the candidates)')
    .option('--sport <sport>', 'nba | wnba | mlb | soccer (default: every sport the store knows)')
    .option(...REFRESH)
    .addHelpText('after', '\nExit codes: 0 a view (or a player with no stored lines: the reason), 1 the name did not resolve, 2 bad input.\n\nExamples:\n  $ propgrade stats player "Jalen Brunson" --replay data/replay\n  $ propgrade stats player Brunsn --replay data/replay   # did you mean Jalen Brunson? (exit 1)')
    .action(async (nameRaw: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const name = parseOptions(nameArg, nameRaw);
      const opts = parseOptions(sportOption, raw);
      const [{ readPlayerStats }, views] = await Promise.all([import('../reads/stats-player.js'), import('./stats-views.js')]);
      await withContext(ctx, async (deps) => {
        const view = await readPlayerStats(deps, name, { ...(opts.sport ? { sport: opts.sport } : {}), refresh: opts.refresh });
        ctx.result(view, (v) => views.renderPlayer(ctx, v));
        if ('status' in view) io.exitCode = 1;
      });
    });

  stats
    .command('leaders')
    .description('Per-game leaders of one stat in a season, from stored game lines, with the documented minimum games played')
    .option('--sport <sport>', 'nba | wnba | mlb | soccer', 'nba')
    .requiredOption('--stat <stat>', 'points, rebounds, assists, threes, pra, blocks, steals (nba, wnba); hits, total_bases, home_runs, strikeouts (mlb); shots, shots_on_target (soccer)')
    .option('--season <season>', '2024-25 or 2024 (nba, soccer), 2025 (mlb, wnba); default: the season of the clock')
    .option('--min-games <n>', 'minimum played games (default: 70% of the most games any team has stored this season, rounded up)')
    .option('--limit <n>', 'leaders to show (1-100)', '10')
    .option(...REFRESH)
    .addHelpText('after', '\nExamples:\n  $ propgrade stats leaders --stat points --replay data/replay\n  $ propgrade stats leaders --stat threes --season 2024-25 --limit 5 --replay data/replay')
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(leadersOptions, raw);
      const [{ readLeaders }, views] = await Promise.all([import('../reads/stats-leaders.js'), import('./stats-views.js')]);
      await withContext(ctx, async (deps) => {
        const view = await readLeaders(deps, { sport: opts.sport, stat: opts.stat, limit: opts.limit, refresh: opts.refresh, ...(opts.season ? { season: opts.season } : {}), ...(opts.minGames !== undefined ? { minGames: opts.minGames } : {}) });
        ctx.result(view, (v) => views.renderLeaders(ctx, v));
      });
    });

  stats
    .command('game')
    .description('The box score of one game: stored history first, else the provider')
    .argument('<id>', 'a provider game id (ESPN event id, MLB gamePk), or <yyyy-mm-dd>:<TEAM> for a stored game')
    .option('--sport <sport>', 'which provider to ask when the store does not hold the game (default nba)')
    .option(...REFRESH)
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade stats game 2025-11-03:NY --replay data/replay                       # from the stored history\n  $ propgrade stats game 716896 --sport mlb --replay data/replay                  # MLB Stats API live feed (recorded)\n  $ propgrade stats game c13de17fcb4b3e9c45de21f479151ed5 --replay data/replay   # ESPN summary of a 2025-11-04 game (recorded)',
    )
    .action(async (idRaw: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const id = parseOptions(gameArg, idRaw);
      const opts = parseOptions(sportOption, raw);
      const [{ readGame }, views] = await Promise.all([import('../reads/stats-game.js'), import('./stats-views.js')]);
      await withContext(ctx, async (deps) => {
        const view = await readGame(deps, id, { ...(opts.sport ? { sport: opts.sport } : {}), refresh: opts.refresh });
        ctx.result(view, (v) => views.renderGame(ctx, v));
      });
    });

  stats
    .command('arsenal')
    .description("A pitcher's arsenal from Baseball Savant: usage, whiff %, velocity per pitch type, and strikeout %")
    .argument('<pitcher>', 'pitcher name (two pitchers sharing it are refused with the candidates)')
    .option('--season <year>', 'Savant season (default: the clock’s year from April, else the previous year)')
    .option(...REFRESH)
    .addHelpText(
      'after',
      '\nA missing velocity or whiff value shows "-" (null in --json), never 0. Unknown pitcher or no data: found false with the reason (exit 0).\n\n' +
        'Examples:\n  $ propgrade stats arsenal "Carlos Rodón" --season 2022 --replay data/replay\n  $ propgrade stats arsenal "Kodai Senga" --replay data/replay --now 2026-01-24T00:00:00Z',
    )
    .action(async (nameRaw: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const name = parseOptions(nameArg, nameRaw);
      const opts = parseOptions(arsenalOptions, raw);
      const [{ readArsenal }, views] = await Promise.all([import('../reads/arsenal.js'), import('./stats-views.js')]);
      await withContext(ctx, async (deps) => {
        const view = await readArsenal(deps, name, { ...(opts.season !== undefined ? { season: opts.season } : {}), refresh: opts.refresh });
        ctx.result(view, (v) => views.renderArsenal(ctx, v));
        if ('status' in view) io.exitCode = 1;
      });
    });

  stats
    .command('lineup')
    .description("The day's lineups per team: CONFIRMED (batting slot), NOT_IN or PROJECTED per player (MLB)")
    .argument('[sport]', 'mlb (lineup states exist for MLB batting orders only)', 'mlb')
    .option('--date <yyyy-mm-dd>', 'ET date (default: today at the run clock)')
    .option(...REFRESH)
    .addHelpText('after', '\nExamples:\n  $ propgrade stats lineup mlb --date 2023-08-22 --replay data/replay\n  $ propgrade stats lineup mlb --json')
    .action(async (sportRaw: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = parseOptions(gradedSportSchema, sportRaw);
      const opts = parseOptions(lineupOptions, raw);
      const [{ readLineups }, views] = await Promise.all([import('../reads/stats-lineup.js'), import('./stats-views.js')]);
      await withContext(ctx, async (deps) => {
        const view = await readLineups(deps, sport, { ...(opts.date ? { date: opts.date } : {}), refresh: opts.refresh });
        ctx.result(view, (v) => views.renderLineups(ctx, v));
      });
    });

  stats
    .command('depth')
    .description("A team's depth chart per position from the provider's roster, with its source and time")
    .argument('<team>', 'any team spelling: ESPN, NBA.com or Savant code, or the full name')
    .option('--sport <sport>', 'nba | wnba | mlb (default: the league whose store holds the team)')
    .option(...REFRESH)
    .addHelpText('after', '\nExit codes: 0 a chart (or the reason there is none), 1 unknown team, 2 bad input.\n\nExamples:\n  $ propgrade stats depth ATL --sport mlb --replay data/replay\n  $ propgrade stats depth LAL --replay data/replay --now 2026-05-24T00:00:00Z')
    .action(async (teamRaw: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const team = parseOptions(z.string().trim().min(2, 'a team code or name').max(40), teamRaw);
      const opts = parseOptions(depthOptions, raw);
      const [{ readDepth }, views] = await Promise.all([import('../reads/stats-depth.js'), import('./stats-views.js')]);
      await withContext(ctx, async (deps) => {
        const view = await readDepth(deps, team, { ...(opts.sport ? { sport: opts.sport } : {}), refresh: opts.refresh });
        if ('status' in view) throw new AppError('NOT_FOUND', `unknown team '${team}'${opts.sport ? ` in ${opts.sport}` : ''}`);
        ctx.result(view, (v) => views.renderDepth(ctx, v));
      });
    });

  stats
    .command('cascade')
    .description("With/without split: teammates' minutes and averages in games with and without a player (real game lines)")
    .argument('<player>', 'player name (resolved as in `stats player`)')
    .option('--sport <sport>', 'nba | wnba | mlb | soccer (default: every sport the store knows)')
    .option('--min-games <n>', 'raise the minimum played games per side (never below 5)')
    .option(...REFRESH)
    .addHelpText('after', '\nA teammate is shown only when both sides reach the minimum; this is a with/without split, not a model guess.\n\nExamples:\n  $ propgrade stats cascade "Joel Embiid" --replay data/replay\n  $ propgrade stats cascade "Luka Doncic" --min-games 8 --json')
    .action(async (nameRaw: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const name = parseOptions(nameArg, nameRaw);
      const opts = parseOptions(cascadeOptions, raw);
      const [{ readCascade }, views] = await Promise.all([import('../reads/stats-cascade.js'), import('./stats-views.js')]);
      await withContext(ctx, async (deps) => {
        const view = await readCascade(deps, name, { ...(opts.sport ? { sport: opts.sport } : {}), ...(opts.minGames !== undefined ? { minGames: opts.minGames } : {}), refresh: opts.refresh });
        ctx.result(view, (v) => views.renderCascade(ctx, v));
        if ('status' in view) io.exitCode = 1;
      });
    });
}
