import { z } from 'zod';
import { gradedSportSchema } from '../../domain/sports.js';
import { shapeRow } from '../../domain/tiers.js';
import { AppError } from '../../errors.js';
import { readTeamHub, resolveTeam } from '../../reads/team-hub.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { teamHubSchema } from '../wire/answers-core.js';

export const teamParamsSchema = z.object({ abbr: z.string().trim().min(2).max(40) });
export const teamQuerySchema = z.object({ sport: gradedSportSchema.optional() });

export function teamRoutes(deps: ServerDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/team/:abbr',
      tag: 'team',
      access: 'tier-shaped',
      response: teamHubSchema,
      summary: "Team hub: roster, per-player season averages, archetype, tonight's graded props",
      description:
        'abbr is any known spelling (ESPN, NBA.com or Savant code, full name). sport picks the league when the code exists in several; without it the league with stored players wins. Unknown team: 404. Cached 15 minutes (kv_cache); props are tier-shaped per caller.',
      params: teamParamsSchema,
      query: teamQuerySchema,
      maxAge: 300,
      statsLimited: true,
      errors: [404],
      handle: async ({ caller, params, query }) => {
        const ref = await resolveTeam(deps.store, params.abbr, query.sport);
        if (!ref) throw new AppError('NOT_FOUND', `unknown team ${params.abbr}${query.sport ? ` in ${query.sport}` : ''}`);
        const hub = await readTeamHub(deps.store, ref, deps.now());
        return { ...hub, props: hub.props.map((r) => shapeRow(r, caller.tier)) };
      },
    }),
  ];
}
