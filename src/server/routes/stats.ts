import { z } from 'zod';
import { gradedSportSchema } from '../../domain/sports.js';
import { statSpellings } from '../../domain/stats.js';
import { shapeRow } from '../../domain/tiers.js';
import { isIsoDate } from '../../domain/time.js';
import { AppError } from '../../errors.js';
import { readArsenal } from '../../reads/arsenal.js';
import { readShowcase } from '../../reads/showcase.js';
import { readCascade } from '../../reads/stats-cascade.js';
import { unresolvedMessage, type UnresolvedName } from '../../reads/stats-common.js';
import { toWire } from '../../wire.js';
import { DEPTH_SPORTS, readDepth } from '../../reads/stats-depth.js';
import { readGame } from '../../reads/stats-game.js';
import { readLeaders } from '../../reads/stats-leaders.js';
import { readLineups } from '../../reads/stats-lineup.js';
import { readPlayerStats } from '../../reads/stats-player.js';
import type { ServerDeps } from '../context.js';
import { contextGuard, type ContextReadOptions } from '../context-reads.js';
import { defineRoute, type Route } from '../route.js';
import { DATE_WINDOWS, requireDateInWindow, requireSeasonInWindow, windowText } from '../date-window.js';
import { isoDateDoc } from '../wire/registry.js';
import { arsenalSchema, cascadeSchema, depthSchema, gameBoxSchema, leadersSchema, lineupSchema, playerStatsSchema, showcaseSchema } from '../wire/answers-stats.js';

/**
 * Context routes II (issue 17; docs/stats.md): stats, pitcher arsenal, lineup/depth/cascade, desk
 * showcase. Provider-backed answers go through the context cache (TTL, single flight,
 * stale-on-error); store-derived ones are cached under the version of the data they read. A
 * provider or store failure hides the feature with its reason (200), never a 5xx; a name that does
 * not resolve is a 404 whose details carry the candidates (ambiguous) or did-you-mean suggestions
 * (unknown). player, leaders, game and cascade are rate-limited (the stats limit, docs/api.md "Limits"):
 * each is computed once per stored data and parameters in a bounded in-process memo (reads/memo.ts).
 */

const name = z.string().trim().min(1, 'a name').max(60, 'at most 60 characters');
const isoDate = z.string().refine(isIsoDate, { error: (iss) => `expected a date yyyy-mm-dd, got '${String(iss.input)}'` }).meta(isoDateDoc);
const minGames = z.coerce.number().int().min(1).max(200);

export const statsPlayerParamsSchema = z.object({ name });
export const statsSportQuerySchema = z.object({ sport: gradedSportSchema.optional().describe('nba, wnba, mlb or soccer; default: every sport the store knows (a name in two sports is ambiguous)') });
export const statsLeadersQuerySchema = z.object({
  sport: gradedSportSchema.default('nba'),
  stat: z.string().trim().min(1).max(40).meta({ enum: statSpellings() }).describe('a stat of the sport: points, rebounds, assists, threes, pra, blocks, steals; hits, total_bases, home_runs, strikeouts; shots, shots_on_target'),
  season: z.string().trim().max(9).optional().describe('2024-25 or 2024 (nba, soccer); 2025 (mlb, wnba); default: the season of the clock'),
  min_games: minGames.optional().describe('minimum played games (default: 70% of the most games any team has stored this season, rounded up)'),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
export const statsGameParamsSchema = z.object({ id: z.string().trim().max(40).regex(/^(?:[A-Za-z0-9]{1,40}|\d{4}-\d{2}-\d{2}:[A-Za-z]{2,4})$/, 'a provider game id, or <yyyy-mm-dd>:<TEAM> for a stored game') });
export const statsGameQuerySchema = z.object({ sport: gradedSportSchema.optional().describe('the provider to ask when the store does not hold the game (default nba)') });
export const arsenalQuerySchema = z.object({ season: z.coerce.number().int().min(2015).max(2100).optional().describe('Savant season (default: the clock’s year from April, else the previous year)') });
export const lineupQuerySchema = z.object({ sport: gradedSportSchema.default('mlb'), date: isoDate.optional().describe('ET date (default: today at the server clock)') });
export const depthQuerySchema = z.object({
  team: z.string().trim().min(2).max(40).describe('any team spelling: ESPN, NBA.com or Savant code, or the full name'),
  sport: z.enum(DEPTH_SPORTS).optional().describe('nba, wnba or mlb; default: the league whose store holds the team, else the first that tables it'),
});
export const cascadeQuerySchema = z.object({
  player: name,
  sport: gradedSportSchema.optional(),
  min_games: minGames.optional().describe('raise the minimum n per side (never below the documented 5)'),
});
export const showcaseQuerySchema = z.object({ sport: gradedSportSchema.optional() });

/** Cache-Control max-age of each answer (server-side TTLs: docs/stats.md). */
export const STATS_MAX_AGE = { player: 300, leaders: 300, game: 60, arsenal: 3600, lineup: 120, depth: 600, cascade: 300, showcase: 60 } as const;

export type StatsRouteOptions = ContextReadOptions;

/** A name that did not resolve: 404 with the candidates (never a guess) or did-you-mean suggestions. */
export function unresolvedError(u: UnresolvedName, what: string): AppError {
  const details = u.status === 'ambiguous' ? { reason: 'ambiguous', query: u.query, candidates: u.candidates } : { reason: 'unknown', query: u.query, suggestions: u.suggestions };
  return new AppError('NOT_FOUND', unresolvedMessage(u, what), { details: toWire(details) });
}

export function statsRoutes(deps: ServerDeps, options: StatsRouteOptions = {}): Route[] {
  // A bug or a store failure hides the feature (200, with the reason); input errors and 404s stay what they are; a replayed store without its recording is 503.
  const guarded = contextGuard(deps, options);

  return [
    defineRoute({
      method: 'GET',
      path: '/api/stats/player/:name',
      tag: 'stats',
      access: 'tier-shaped',
      response: playerStatsSchema,
      summary: "Player profile, season averages and recent form from stored real game lines, archetype, tonight's graded props",
      description:
        'The name resolves through the name normalizer: ambiguous (two players, or a name in two sports) is a 404 with details.candidates, never a guess; unknown is a 404 with did-you-mean details.suggestions. Every average carries its n; a player with no stored lines gets available: false and no figures. props are the main-line graded rows of today’s snapshot, tier-shaped. Rate-limited.',
      params: statsPlayerParamsSchema,
      query: statsSportQuerySchema,
      maxAge: STATS_MAX_AGE.player,
      statsLimited: true,
      errors: [404],
      handle: ({ params, query, caller }) =>
        guarded({ player: params.name }, async (d) => {
          const view = await readPlayerStats(d, params.name, query.sport ? { sport: query.sport } : {});
          if ('status' in view) throw unresolvedError(view, 'player');
          return { ...view, props: view.props.map((r) => shapeRow(r, caller.tier)) };
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/stats/leaders',
      tag: 'stats',
      access: 'public',
      response: leadersSchema,
      summary: 'Per-game stat leaders of a season from stored real game lines, with the documented minimum games played',
      description:
        'Average over each player’s played games carrying the stat (basketball: minutes > 0). Qualifies with at least 70% of the most games any team has stored in the season (rounded up), or min_games. Covers the players the store holds. Rate-limited.',
      query: statsLeadersQuerySchema,
      maxAge: STATS_MAX_AGE.leaders,
      statsLimited: true,
      handle: ({ query }) =>
        guarded({ sport: query.sport, stat: query.stat }, (d) =>
          readLeaders(d, { sport: query.sport, stat: query.stat, limit: query.limit, ...(query.season !== undefined ? { season: query.season } : {}), ...(query.min_games !== undefined ? { minGames: query.min_games } : {}) }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/stats/game/:id',
      tag: 'stats',
      access: 'public',
      response: gameBoxSchema,
      summary: 'The box score of one game: stored history first, else the provider (ESPN summary; MLB Stats API live feed)',
      description:
        'id: a provider game id, or <yyyy-mm-dd>:<TEAM> for a stored game whose source carried none (that team and its opponent on the date). Provider answers are cached 5 minutes; nothing found: available false with the reason. Rate-limited.',
      params: statsGameParamsSchema,
      query: statsGameQuerySchema,
      maxAge: STATS_MAX_AGE.game,
      statsLimited: true,
      upstream: true,
      errors: [503],
      handle: ({ params, query }) => guarded({ gameId: params.id }, (d) => readGame(d, params.id, query.sport ? { sport: query.sport } : {})),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/stats/pitcher/:name/arsenal',
      tag: 'stats',
      access: 'public',
      response: arsenalSchema,
      summary: 'Pitcher arsenal from Baseball Savant: per pitch type usage %, whiff %, velocity, ranked by usage, and strikeout %',
      description:
        'Both season CSVs cached 24 hours. A missing velocity or whiff value is null, never 0. An unknown pitcher, an unknown data shape or an upstream error: {found: false} with the reason (an unknown name also carries did-you-mean suggestions). Two pitchers sharing the name: 404 with details.candidates. Season: 2015 (Statcast) through the data clock’s year, else 400.',
      params: statsPlayerParamsSchema,
      query: arsenalQuerySchema,
      maxAge: STATS_MAX_AGE.arsenal,
      upstream: true,
      errors: [404, 503],
      handle: ({ params, query }) => {
        if (query.season !== undefined) requireSeasonInWindow('season', query.season, deps.now('mlb'));
        return guarded(
          {},
          async (d) => {
            const view = await readArsenal(d, params.name, query.season !== undefined ? { season: query.season } : {});
            if ('status' in view) throw unresolvedError(view, 'pitcher');
            return view;
          },
          (reason) => ({ found: false, query: params.name, reason }),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/stats/lineup',
      tag: 'stats',
      access: 'public',
      response: lineupSchema,
      summary: "The day's lineups per team with each player's CONFIRMED (batting slot), NOT_IN or PROJECTED state (MLB)",
      description:
        'The same rule as /api/schedule/{sport}/lineups, over the MLB Stats API: posted lineups from the schedule, and for a started game its starting nine from the live feed. Cached 10 minutes. Other sports: available false.' + ` ${windowText('date', DATE_WINDOWS.lineup)}`,
      query: lineupQuerySchema,
      maxAge: STATS_MAX_AGE.lineup,
      upstream: true,
      errors: [503],
      handle: ({ query }) => {
        if (query.date) requireDateInWindow('date', query.date, deps.now(query.sport), DATE_WINDOWS.lineup);
        return guarded({ sport: query.sport }, (d) => readLineups(d, query.sport, query.date ? { date: query.date } : {}));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/stats/depth',
      tag: 'stats',
      access: 'public',
      response: depthSchema,
      summary: 'Depth chart per position from the provider’s team roster, with its source and time',
      description:
        'ESPN team roster (cached one hour) by position; within a position ordered by stored minutes per game (basketball) or games (MLB) this season, then the roster’s order. Unknown team: 404.',
      query: depthQuerySchema,
      maxAge: STATS_MAX_AGE.depth,
      upstream: true,
      errors: [404, 503],
      handle: ({ query }) =>
        guarded({ team: query.team }, async (d) => {
          const view = await readDepth(d, query.team, query.sport ? { sport: query.sport } : {});
          if ('status' in view) throw new AppError('NOT_FOUND', `unknown team ${query.team}${query.sport ? ` in ${query.sport}` : ''}`);
          return view;
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/stats/cascade',
      tag: 'stats',
      access: 'public',
      response: cascadeSchema,
      summary: 'With/without split: teammates’ minutes and per-stat averages in games with and without a player, from real game lines',
      description:
        'Window: the player’s current stint with his team. A teammate is shown only when both sides reach 5 played games (min_games may raise it). Not a model guess. Ambiguous or unknown player: 404 with details. Rate-limited.',
      query: cascadeQuerySchema,
      maxAge: STATS_MAX_AGE.cascade,
      statsLimited: true,
      errors: [404],
      handle: ({ query }) =>
        guarded({ player: query.player }, async (d) => {
          const view = await readCascade(d, query.player, { ...(query.sport ? { sport: query.sport } : {}), ...(query.min_games !== undefined ? { minGames: query.min_games } : {}) });
          if ('status' in view) throw unresolvedError(view, 'player');
          return view;
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/desk-showcase',
      tag: 'stats',
      access: 'public',
      response: showcaseSchema,
      summary: 'Desk showcase: a real alternate-line ladder of an A or B prop with the most grade variation, or {available: false}',
      description:
        'Per rung: line, book price, fair price, grade, and the edge only when plausible (within ±10%, credible price; else null with edge_note). A same-team correlation tile (0.34) only with two real same-team legs. No Kelly tile. Reads the stored board. Rate-limited.',
      query: showcaseQuerySchema,
      maxAge: STATS_MAX_AGE.showcase,
      // Its first read per snapshot builds the ladder (about 100 ms of CPU): limited like the other store reads.
      statsLimited: true,
      handle: ({ query }) => guarded({}, (d) => readShowcase(d, query.sport ? { sport: query.sport } : {})),
    }),
  ];
}
