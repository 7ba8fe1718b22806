import { eventHandler, getRequestHeader, type EventHandler, type H3Event } from 'h3';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { toWire } from '../wire.js';
import { hasModelPriceEntitlement } from '../domain/tiers.js';
import { resolveBearer, type Caller } from '../pipeline/users.js';
import type { ServerDeps } from './context.js';
import { readJsonBody, readParams, readQuery } from './input.js';
import { requireInternalKey } from './internal-key.js';

/**
 * Access classes (docs/api.md): `public` is the same for everyone; `tier-shaped` answers everyone
 * but withholds model fields from callers without the entitlement; `tier-gated` refuses them;
 * `internal` needs the internal key.
 */
export type Access = 'public' | 'tier-shaped' | 'tier-gated' | 'internal';

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface RouteInput<P, Q, B> {
  event: H3Event;
  caller: Caller;
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
}

export interface RouteDef<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  method: 'GET' | 'POST';
  /** h3 path, `:name` for a parameter. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** Seconds of max-age for GET responses; POSTs and internal routes are never cached. */
  maxAge?: number;
  /** Apply the stats-like read limit. */
  statsLimited?: boolean;
  /** Example response statuses besides 200 and the envelope errors, for the OpenAPI document. */
  errors?: number[];
  handle(input: RouteInput<P, Q, B>): unknown;
}

/** A route with its schemas kept: the router serves it and the OpenAPI generator describes it. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description: string | undefined;
  tag: string;
  access: Access;
  params: z.ZodType | undefined;
  query: z.ZodType | undefined;
  body: z.ZodType | undefined;
  statsLimited: boolean;
  errors: number[];
  handler(deps: ServerDeps): EventHandler;
}

/** Resolved once per request and kept on the event. */
export function callerOf(event: H3Event, deps: ServerDeps): Caller {
  const cached = event.context['caller'] as Caller | undefined;
  if (cached) return cached;
  const caller = resolveBearer(deps.store, getRequestHeader(event, 'authorization'));
  event.context['caller'] = caller;
  return caller;
}

/** The client address; behind the proxy this is the proxy's, which is why valid tokens key by user. */
export function clientKey(event: H3Event, caller: Caller): string {
  if (caller.user) return `user:${caller.user.id}`;
  return `ip:${event.node.req.socket.remoteAddress ?? 'unknown'}`;
}

/**
 * Cache headers. Tier-shaped answers vary by Authorization: private whenever the request carried
 * a token (a shared cache must never hand one caller's shaping to another), public otherwise.
 */
export function setCacheHeaders(event: H3Event, access: Access, caller: Caller, method: string, maxAge: number | undefined): void {
  const res = event.node.res;
  const shaped = access === 'tier-shaped' || access === 'tier-gated';
  if (shaped) res.appendHeader('vary', 'Authorization');
  if (method !== 'GET' || access === 'internal' || maxAge === undefined) {
    res.setHeader('cache-control', 'no-store');
    return;
  }
  res.setHeader('cache-control', `${shaped && caller.presentedToken ? 'private' : 'public'}, max-age=${maxAge}`);
}

export function defineRoute<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  def: RouteDef<P, Q, B>,
): Route {
  return {
    method: def.method,
    path: def.path,
    summary: def.summary,
    description: def.description,
    tag: def.tag,
    access: def.access,
    params: def.params,
    query: def.query,
    body: def.body,
    statsLimited: def.statsLimited ?? false,
    errors: def.errors ?? [],
    handler: (deps) =>
      eventHandler(async (event) => {
        // Access is decided before any input is read: a refused call runs nothing.
        if (def.access === 'internal') requireInternalKey(event, deps.config.INTERNAL_API_KEY);
        const caller = callerOf(event, deps);
        if (def.access === 'tier-gated' && !hasModelPriceEntitlement(caller.tier)) {
          throw new AppError('FORBIDDEN', 'this route needs a paid tier (analyst or desk)');
        }
        if (def.statsLimited) {
          const verdict = deps.limiter.hit(`stats:${clientKey(event, caller)}`, deps.limits.statsPerWindow, deps.limits.statsWindowSeconds, deps.now());
          if (!verdict.ok) {
            throw new AppError('RATE_LIMITED', `rate limit: ${deps.limits.statsPerWindow} requests per ${deps.limits.statsWindowSeconds} s on this route`, { retryAfter: verdict.retryAfter });
          }
        }
        const params = (def.params ? await readParams(event, def.params) : undefined) as Infer<P>;
        const query = (def.query ? await readQuery(event, def.query) : undefined) as Infer<Q>;
        const body = (def.body ? await readJsonBody(event, def.body, deps.limits.bodyBytes) : undefined) as Infer<B>;
        setCacheHeaders(event, def.access, caller, def.method, def.maxAge);
        const out = await def.handle({ event, caller, params, query, body });
        // Bodies a route has already written (precompressed snapshots) pass through untouched.
        return out === undefined || out === null || typeof out !== 'object' || Buffer.isBuffer(out) ? out : toWire(out);
      }),
  };
}
