import { z } from 'zod';
import { gradedSportSchema } from '../../domain/sports.js';
import { playerSearch } from '../../reads/players.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { playerSearchSchema } from '../wire/answers-core.js';

export const playerSearchQuerySchema = z.object({
  q: z.string().trim().min(2, 'at least 2 characters').max(60),
  sport: gradedSportSchema.default('mlb'),
  limit: z.coerce.number().int().min(1).max(25).default(10),
});

export function playerRoutes(deps: ServerDeps): Route[] {
  const search = playerSearch(deps.store);
  return [
    defineRoute({
      method: 'GET',
      path: '/api/players/search',
      tag: 'players',
      access: 'public',
      response: playerSearchSchema,
      summary: 'Player search over stored names',
      description:
        'Ranked exact normalized key, then surname prefix, then folded substring. MLB searches every stored MLB player; other sports search cached names only (players the stored snapshots graded). No provider call.',
      query: playerSearchQuerySchema,
      maxAge: 300,
      statsLimited: true,
      handle: async ({ query }) => {
        const found = await search(query.sport, query.q, query.limit, deps.now(query.sport));
        return { sport: query.sport, q: query.q, results: found.map((h) => ({ player: h.player, key: h.key, team: h.team, lastSeen: h.lastSeen })) };
      },
    }),
  ];
}
