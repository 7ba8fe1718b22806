import { z } from 'zod';
import { gradedSportSchema, sportSchema } from '../../domain/sports.js';
import { isIsoDate } from '../../domain/time.js';
import { AppError } from '../../errors.js';
import { readCombat, readFight } from '../../reads/combat.js';
import { ContextCache } from '../../store/cache.js';
import { contextProviders, type ContextProviders } from '../../feeds/factory.js';
import type { ContextDeps } from '../../feeds/context.js';
import { FUTURES_SPORTS, readFutures } from '../../reads/futures.js';
import { readLive } from '../../reads/live.js';
import { readNews } from '../../reads/news.js';
import { silentLogger } from '../../feeds/sources.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
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
export const futuresParamsSchema = z.object({ sport: z.enum(FUTURES_SPORTS, { error: (iss) => `sport must be mlb, nba or wnba, got '${String(iss.input)}'` }) });
export const combatParamsSchema = z.object({ date: isoDate });
export const fightParamsSchema = z.object({ id: z.string().regex(/^\d{1,20}$/, 'expected an ESPN bout id (digits)') });

/** Cache-Control max-age of each answer (the server-side TTLs are in docs/context.md). */
export const CONTEXT_MAX_AGE = { live: 30, news: 300, futures: 900, combat: 300 } as const;

export interface ContextRouteOptions {
  /** Where the routes read from; default: PROPGRADE_REPLAY, else live ESPN/MLB plus the Odds API with ODDS_API_KEY. */
  providers?: (deps: ServerDeps) => ContextProviders;
  cache?: ContextCache;
}

export function contextRoutes(deps: ServerDeps, options: ContextRouteOptions = {}): Route[] {
  const cache = options.cache ?? new ContextCache(deps.store, () => deps.wallNow().getTime());
  let providers: ContextProviders | null = null;
  // Built on first use: a broken PROPGRADE_REPLAY hides these routes' data instead of stopping the server.
  const contextDeps = (): ContextDeps | { failure: string } => {
    try {
      providers ??= options.providers ? options.providers(deps) : contextProviders(deps.config, { replayDir: null, now: () => deps.now() });
    } catch (err) {
      return { failure: err instanceof Error ? err.message : String(err) };
    }
    return { store: deps.store, config: deps.config, cache, providers, now: deps.now(), wallNow: deps.wallNow, log: silentLogger };
  };

  /** A bug or a store failure hides the feature (200, with the reason) rather than answering 5xx; input errors stay 4xx. */
  const guarded = async (hidden: Record<string, unknown>, read: (d: ContextDeps) => Promise<unknown>): Promise<unknown> => {
    const d = contextDeps();
    if ('failure' in d) return { ...hidden, available: false, reason: d.failure };
    try {
      return await read(d);
    } catch (err) {
      if (err instanceof AppError) throw err;
      return { ...hidden, available: false, reason: 'internal error while reading this feature; it stays hidden until a read succeeds' };
    }
  };

  return [
    defineRoute({
      method: 'GET',
      path: '/api/live/:sport',
      summary: 'Live tracking of today’s ledger and slate props (labelled tracking; never changes a grade)',
      description:
        'Per player and stat with a public ledger entry or a slate-card row on the ET date: the locked line and side, the real current value from the live box score and a tracking state while the game runs (HIT, ON PACE, NEEDS N, HOLDS, LINE PASSED), a final one once it is over (HIT, MISS, PUSH, VOID: the ledger outcome once settled, else the final box score by the settlement rule; docs/live.md), with a count per state, closest to hitting first. Box scores are cached 90 s.',
      tag: 'context',
      access: 'public',
      response: liveSchema,
      params: liveParamsSchema,
      query: liveQuerySchema,
      maxAge: CONTEXT_MAX_AGE.live,
      handle: ({ params, query }) => guarded({ sport: params.sport }, (d) => readLive(d, params.sport, query.date ? { date: query.date } : {})),
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
      handle: ({ params }) => guarded({ sport: params.sport }, (d) => readFutures(d, params.sport)),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/combat/:date',
      summary: 'MMA fight cards (UFC, PFL) for an ET date with moneyline and round-total odds; empty off-card',
      description:
        'Per bout: two fighters with tale of the tape, best moneyline and round-total prices across the allowed books (joined by normalized fighter names), style blend and a style-edge model read (not a grade). Method, round and KO markets are data-limited.',
      tag: 'context',
      access: 'public',
      response: combatSchema,
      params: combatParamsSchema,
      maxAge: CONTEXT_MAX_AGE.combat,
      handle: ({ params }) => guarded({ date: params.date }, (d) => readCombat(d, params.date)),
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
      errors: [404],
      handle: ({ params }) =>
        guarded({ id: params.id }, async (d) => {
          const fight = await readFight(d, params.id);
          if (fight === null) throw new AppError('NOT_FOUND', `no fight card holds bout ${params.id}`);
          return fight.available ? fight : { id: params.id, ...fight };
        }),
    }),
  ];
}
