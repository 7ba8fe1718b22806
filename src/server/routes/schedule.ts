import { z } from 'zod';
import { gradedSportSchema } from '../../domain/sports.js';
import { AppError } from '../../errors.js';
import { readScheduleInjuries, readScheduleLineups, readSchedulePitchers } from '../../reads/schedule.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { injuriesSchema, lineupsSchema, pitchersSchema } from '../wire/answers-core.js';

export const scheduleParamsSchema = z.object({ sport: gradedSportSchema });

/**
 * The schedule views read the latest snapshot's rows, held once per snapshot (reads/snapshot-rows.ts),
 * and sit behind the stats limit like every store-derived read (docs/api.md "Limits"). As of the
 * request's clock when it is an as-of time (explicit or the system's: the newest snapshot taken by
 * then, issue 41 item 5); a replayed store on its own clock reads its newest snapshot.
 */
export function scheduleRoutes(deps: ServerDeps): Route[] {
  const asOf = (sport: string): Date | null => (deps.outcomesAsOfClock ? deps.now(sport) : null);
  return [
    defineRoute({
      method: 'GET',
      path: '/api/schedule/:sport/lineups',
      tag: 'schedule',
      access: 'public',
      response: lineupsSchema,
      summary: 'Lineup status per player (CONFIRMED with batting slot, NOT_IN, PROJECTED)',
      description: 'From what the latest snapshot stored; no provider call. Nothing stored: available false. Rate-limited.',
      statsLimited: true,
      params: scheduleParamsSchema,
      maxAge: 600,
      handle: ({ params }) => readScheduleLineups(deps.store, params.sport, asOf(params.sport)),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/schedule/:sport/injuries',
      tag: 'schedule',
      access: 'public',
      response: injuriesSchema,
      summary: 'Injury chips (OUT, GTD, PROB) per player',
      description: 'From what the latest snapshot stored; an unknown status has no chip. Nothing stored: available false. Rate-limited.',
      statsLimited: true,
      params: scheduleParamsSchema,
      maxAge: 600,
      handle: ({ params }) => readScheduleInjuries(deps.store, params.sport, asOf(params.sport)),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/schedule/:sport/pitchers',
      tag: 'schedule',
      access: 'public',
      response: pitchersSchema,
      summary: 'Probable starting pitchers per game (MLB only), with a best-effort ERA',
      description:
        "A pitcher is listed when the latest MLB snapshot priced his strikeouts (books post that market for the probable starter). ERA is 9 x ER / IP over his stored box-score lines, null when they don't carry both. Other sports: 404. Rate-limited.",
      statsLimited: true,
      params: scheduleParamsSchema,
      maxAge: 600,
      errors: [404],
      handle: async ({ params }) => {
        if (params.sport !== 'mlb') throw new AppError('NOT_FOUND', 'probable pitchers exist for mlb only');
        return readSchedulePitchers(deps.store, deps.now('mlb'), asOf('mlb'));
      },
    }),
  ];
}
