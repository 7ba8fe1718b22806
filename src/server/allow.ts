import { createError, eventHandler, type EventHandler, type H3Event } from 'h3';
import { requestHeader } from './input.js';
import { pathOf } from './paths.js';

/**
 * The methods each path answers, for `Allow` (RFC 9110 10.2.1): on a 405 (which MUST carry it)
 * and on a plain OPTIONS. GET brings HEAD (app.ts answers HEAD with the GET handler) and every
 * path answers OPTIONS (the CORS middleware). Matched on the raw path, segment by segment, as
 * h3's router matches it: a `:name` segment takes any one non-empty segment.
 */
export type AllowOf = (path: string) => string | null;

const ORDER = ['GET', 'HEAD', 'POST', 'OPTIONS'] as const;

export function allowOf(routes: ReadonlyArray<{ method: 'GET' | 'POST'; path: string }>): AllowOf {
  const patterns = routes.map((r) => ({ method: r.method, segments: r.path.split('/') }));
  const known = new Map<string, string | null>();
  const compute = (path: string): string | null => {
    const methods = new Set<string>();
    if (path === '*') {
      // OPTIONS * asks about the server as a whole (RFC 9110 9.3.7).
      for (const p of patterns) methods.add(p.method);
    } else {
      const segments = path.split('/');
      for (const p of patterns) {
        if (p.segments.length !== segments.length) continue;
        if (p.segments.every((s, i) => (s.startsWith(':') ? segments[i] !== '' : s === segments[i]))) methods.add(p.method);
      }
    }
    if (methods.size === 0) return null;
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return ORDER.filter((m) => methods.has(m)).join(', ');
  };
  return (path) => {
    const hit = known.get(path);
    if (hit !== undefined) return hit;
    const value = compute(path);
    // Bounded: a client choosing paths cannot grow the map without end.
    if (known.size < 1024) known.set(path, value);
    return value;
  };
}

/**
 * The router's last route (`/**`, every method): what no route answers. A path some route
 * answers is a 405 with Allow; any other is a 404. Thrown as h3 errors with a `message` and no
 * `statusMessage`, so h3 neither puts the text in the status line nor warns about it (its own
 * router does both, with the request's path in the text); the envelope carries the message.
 */
export function unmatched(allow: AllowOf): EventHandler {
  return eventHandler((event) => {
    const path = pathOf(event.path);
    const allowed = allow(path);
    if (allowed === null) throw createError({ statusCode: 404, message: `Cannot find any route matching ${path}.` });
    event.node.res.setHeader('allow', allowed);
    throw createError({ statusCode: 405, message: `Method ${event.method} is not allowed on this route (Allow: ${allowed}).` });
  });
}

/**
 * OPTIONS (run by the app's middleware before CORS answers it, 204): a known path says what it
 * allows. A plain OPTIONS on a path no route answers is a 404; a CORS preflight is left to the
 * CORS middleware as before.
 */
export function optionsAllow(event: H3Event, allow: AllowOf): void {
  const allowed = allow(pathOf(event.path));
  if (allowed !== null) {
    event.node.res.setHeader('allow', allowed);
    return;
  }
  const preflight = requestHeader(event, 'origin') !== undefined && requestHeader(event, 'access-control-request-method') !== undefined;
  if (!preflight) throw createError({ statusCode: 404, message: `Cannot find any route matching ${pathOf(event.path)}.` });
}
