import { z } from 'zod';
import { gradedSportSchema, gradedSportsOf, sportSchema } from '../../domain/sports.js';
import { isIsoDate } from '../../domain/time.js';
import { AppError } from '../../errors.js';
import { readCombat, readFight } from '../../reads/combat.js';
import { FUTURES_SPORTS, readFutures } from '../../reads/futures.js';
import { readLive } from '../../reads/live.js';
import { readNews } from '../../reads/news.js';
import type { ServerDeps } from '../context.js';
import { contextGuard, type ContextReadOptions } from '../context-reads.js';
import { defineRoute, type Route } from '../route.js';
import { DATE_WINDOWS, requireDateInWindow, windowText } from '../date-window.js';
import { isoDateDoc } from '../wire/registry.js';
import { combatSchema, fightSchema, futuresSchema, liveSchema, newsSchema } from '../wire/answers-context.js';

/**
 * Context routes I (issue 16; docs/context.md, docs/live.md): live tracking, news wire, futures,
 * fight cards. Unlike the snapshot reads these may call providers, but only through the context
 * cache (TTL, single flight, stale-on-error): an upstream failure answers the last good value
 * marked `stale` with its age, or the feature's hidden state `{available: false, reason}`. Never a
 * fabricated value and never a 5xx for a provider's sake.
 */

const isoDate = z.string().refine(isIsoDate, { error: (iss) => `expected a date yyyy-mm-dd, got '${String(iss.input)}'` }).meta(isoDateDoc);

export const liveParamsSchema = z.object({ sport: gradedSportSchema });
export const liveQuerySchema = z.object({ date: isoDate.optional().describe('ET game date (default: today at the server clock)') });
export const newsParamsSchema = z.object({ sport: sportSchema });
export const newsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).optional().describe('items to return, newest first (default: all)') });
export const futuresParamsSchema = z.object({ sport: gradedSportsOf(FUTURES_SPORTS) });
export const combatParamsSchema = z.object({ date: isoDate });
export const fightParamsSchema = z.object({ id: z.string().max(20).regex(/^\d{1,20}$/, 'expected an ESPN bout id (digits)') });

/** Cache-Control max-age of each answer (the server-side TTLs are in docs/context.md). */
export const CONTEXT_MAX_AGE = { live: 30, news: 300, futures: 900, combat: 300 } as const;

/** Where the routes read from: default PROPGRADE_REPLAY, else a replayed store's recording (never a provider), else live (context-reads.ts). */
export type ContextRouteOptions = ContextReadOptions;

export function contextRoutes(deps: ServerDeps, options: ContextRouteOptions = {}): Route[] {
  // A bug or a store failure hides the feature (200, with the reason); input errors stay 4xx; a replayed store without its recording is 503.
  const guarded = contextGuard(deps, options);

  return [
    defineRoute({
      method: 'GET',
      path: '/api/live/:sport',
      summary: 'Live tracking of today’s ledger and slate props (labelled tracking; never changes a grade)',
      description:
        'Per player and stat with a public ledger entry or a slate-card row on the ET date: the locked line and side, the real current value from the live box score and a tracking state while the game runs (HIT, ON PACE, NEEDS N, HOLDS, LINE PASSED), a final one once it is over (HIT, MISS, PUSH, VOID: the ledger outcome once settled, else the final box score by the settlement rule; docs/live.md), with a count per state, closest to hitting first. Box scores are cached 90 s.' + ` ${windowText('date', DATE_WINDOWS.live)}`,
      tag: 'context',
      access: 'public',
      response: liveSchema,
      params: liveParamsSchema,
      query: liveQuerySchema,
      maxAge: CONTEXT_MAX_AGE.live,
      upstream: true,
      errors: [503],
      handle: ({ params, query }) => {
        if (query.date) requireDateInWindow('date', query.date, deps.now(params.sport), DATE_WINDOWS.live);
        return guarded({ sport: params.sport }, (d) => readLive({ ...d, now: deps.now(params.sport) }, params.sport, query.date ? { date: query.date } : {}));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/news/:sport',
      summary: 'News wire from ESPN (athlete and team only from the item’s categories), newest first',
      description: 'Items deduplicated by id, newest first; cached 15 minutes.',
      tag: 'context',
      access: 'public',
      response: newsSchema,
      params: newsParamsSchema,
      query: newsQuerySchema,
      maxAge: CONTEXT_MAX_AGE.news,
      upstream: true,
      errors: [503],
      handle: ({ params, query }) => guarded({ sport: params.sport }, (d) => readNews(d, params.sport, query.limit !== undefined ? { limit: query.limit } : {})),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/futures/:sport',
      summary: 'Championship futures (mlb, nba, wnba): best price across the allowed books, move vs the previous price',
      description:
        'Only with FUTURES_ENABLED=1; one Odds API outrights call per sport per 12 hours, outside the daily snapshot budget. Selections carry prev_price and move (shortening, drifting, flat on implied probability) only when a previous price exists. WNBA has no futures key: hidden with that reason.',
      tag: 'context',
      access: 'public',
      response: futuresSchema,
      params: futuresParamsSchema,
      maxAge: CONTEXT_MAX_AGE.futures,
      upstream: true,
      errors: [503],
      handle: ({ params }) => guarded({ sport: params.sport }, (d) => readFutures(d, params.sport)),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/combat/:date',
      summary: 'MMA fight cards (UFC, PFL) for an ET date with moneyline and round-total odds; empty off-card',
      description:
        'Per bout: two fighters with tale of the tape, best moneyline and round-total prices across the allowed books (joined by normalized fighter names), style blend and a style-edge model read (not a grade). Method, round and KO markets are data-limited.' + ` ${windowText('date', DATE_WINDOWS.combat)}`,
      tag: 'context',
      access: 'public',
      response: combatSchema,
      params: combatParamsSchema,
      maxAge: CONTEXT_MAX_AGE.combat,
      upstream: true,
      errors: [503],
      handle: ({ params }) => {
        requireDateInWindow('date', params.date, deps.now(), DATE_WINDOWS.combat);
        return guarded({ date: params.date }, (d) => readCombat(d, params.date));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/fight/:id',
      summary: 'One bout by ESPN id (404 for an unknown id)',
      tag: 'context',
      access: 'public',
      response: fightSchema,
      params: fightParamsSchema,
      maxAge: CONTEXT_MAX_AGE.combat,
      upstream: true,
      errors: [404, 503],
      handle: ({ params }) =>
        guarded({ id: params.id }, async (d) => {
          const fight = await readFight(d, params.id);
          if (fight === null) throw new AppError('NOT_FOUND', `no fight card holds bout ${params.id}`);
          return fight.available ? fight : { id: params.id, ...fight };
        }),
    }),
  ];
}
