import { createRouter, eventHandler, type EventHandler, type H3Event } from 'h3';
import { z } from 'zod';
import type { Route } from './route.js';

/** A path segment that stands for itself in a router path (no parameter, wildcard or escape). */
const PLAIN_SEGMENT = /^[A-Za-z0-9_.~-]+$/;
/** At most this many concrete paths per route. */
const MAX_PER_ROUTE = 32;

export interface StaticPath {
  route: Route;
  /** The route's path with every parameter filled in, e.g. `/api/snapshot/nba`. */
  path: string;
  /** The params h3's router gives the route for that path, e.g. `{ sport: 'nba' }`. */
  params: Record<string, string>;
}

/**
 * The concrete paths of the routes whose every path parameter is a zod enum of plain values
 * (`/api/snapshot/:sport`: `/api/snapshot/nba`, `/mlb`, `/wnba`, `/soccer`), each kept only if
 * h3's own router, holding every route and `extraPaths`, already answers that path with that route
 * and those params. registerStaticPaths adds them to the app's router: radix3 (h3's router)
 * finds a static path with one map lookup, where a path with a parameter costs a walk of its
 * segments and a copy of the match on every request (~3 µs of server CPU under load, measured
 * in docs/performance.md). Nothing a client sees changes: the same handler answers, with the same params.
 */
export function staticPathsOf(routes: readonly Route[], extraPaths: readonly string[] = []): StaticPath[] {
  // A router like the app's, whose handlers only say which route the router picked.
  const probe = createRouter({ preemptive: true });
  for (const route of routes) {
    probe[route.method === 'GET' ? 'get' : 'post'](
      route.path,
      eventHandler((event) => {
        event.context['probed'] = route;
      }),
    );
  }
  for (const path of extraPaths) probe.get(path, eventHandler(() => undefined));
  const picked = (path: string, method: string): { route: unknown; params: unknown } | null => {
    const event = { path, method, context: {} as Record<string, unknown> } as unknown as H3Event;
    try {
      void (probe.handler(event) as Promise<unknown>).catch(() => undefined);
    } catch {
      return null;
    }
    return { route: event.context['probed'], params: event.context.params };
  };
  const out: StaticPath[] = [];
  for (const route of routes) {
    for (const candidate of candidates(route)) {
      const got = picked(candidate.path, route.method);
      if (got?.route === route && sameParams(got.params, candidate.params)) out.push({ route, ...candidate });
    }
  }
  return out;
}

/** Every filling of the route's parameters from their enums, or none when one is not an enum. */
function candidates(route: Route): Array<{ path: string; params: Record<string, string> }> {
  const segments = route.path.split('/');
  const names = segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1));
  if (names.length === 0 || !(route.params instanceof z.ZodObject)) return [];
  const shape = route.params.shape as Record<string, z.ZodType | undefined>;
  let fillings: Array<Record<string, string>> = [{}];
  for (const name of names) {
    const schema = shape[name];
    if (!(schema instanceof z.ZodEnum)) return [];
    const values = (schema.options as unknown[]).filter((v): v is string => typeof v === 'string' && PLAIN_SEGMENT.test(v));
    fillings = fillings.flatMap((f) => values.map((v) => ({ ...f, [name]: v })));
    if (fillings.length > MAX_PER_ROUTE) return [];
  }
  return fillings.map((params) => ({ path: segments.map((s) => (s.startsWith(':') ? params[s.slice(1)]! : s)).join('/'), params }));
}

function sameParams(a: unknown, b: Record<string, string>): boolean {
  if (typeof a !== 'object' || a === null) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => (a as Record<string, unknown>)[k] === b[k]);
}

/** Where routes are registered: h3's router, or the app's table that also keeps its plain GET paths. */
export interface RouteTable {
  get(path: string, handler: EventHandler): unknown;
  post(path: string, handler: EventHandler): unknown;
}

/**
 * Registers each static path on the app's router with its route's handler (`handlerOf`), handing
 * over the params the router's walk would have given (a static match gives none).
 */
export function registerStaticPaths(router: RouteTable, paths: readonly StaticPath[], handlerOf: (route: Route) => EventHandler): void {
  for (const { route, path, params } of paths) {
    const handler = handlerOf(route);
    router[route.method === 'GET' ? 'get' : 'post'](
      path,
      eventHandler((event) => {
        event.context.params = { ...params };
        return handler(event);
      }),
    );
  }
}
