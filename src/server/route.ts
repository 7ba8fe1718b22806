import { eventHandler, type EventHandler, type H3Event } from 'h3';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { toWire } from '../wire.js';
import { hasModelPriceEntitlement } from '../domain/tiers.js';
import { ONBOARDING_HEADER, onboardingFor } from '../accounts/preferences.js';
import { ANONYMOUS, resolveBearer, type Caller } from '../accounts/users.js';
import type { ServerDeps } from './context.js';
import { keptPerUrl, readJsonBody, readParams, readQuery, requestHeader } from './input.js';
import { requireInternalKey } from './internal-key.js';
import { COMPRESS_MIN_BYTES, encodedOnce, sendNegotiated, type Encodings } from './compress.js';
import { bearerChallenge } from './envelope.js';
import { clientCaller } from './client-address.js';
import type { Verdict } from './rate-limit.js';
import type { Env } from '../config.js';

/**
 * Access classes (docs/api.md): `public` is the same for everyone; `tier-shaped` answers everyone
 * but withholds model fields from callers without the entitlement; `tier-gated` refuses them;
 * `auth` needs a valid bearer token (none, unknown or revoked: 401, before any input is read);
 * `desk` is the founder desk: a valid bearer token (else 401) of an email on DESK_ALLOWLIST (else
 * 403), whatever the tier; `internal` needs the internal key.
 */
export type Access = 'public' | 'tier-shaped' | 'tier-gated' | 'auth' | 'desk' | 'internal';

/** Answers that depend on who calls: they vary by Authorization and are never publicly cached. */
export function perCaller(access: Access): boolean {
  return access === 'tier-shaped' || access === 'tier-gated' || access === 'auth' || access === 'desk';
}

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
  /** The OpenAPI operationId; default: the method and the path's words (getSnapshotBySport). */
  operationId?: string;
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
  /** The route may call a provider: apply the per-caller upstream budget (docs/api.md "Upstream rationing"). */
  upstream?: boolean;
  /**
   * The success answer's wire shape (snake_case, as toWire writes it), for the OpenAPI document
   * and the contract test; `html` for a page. Name it with wireSchema() to share it.
   */
  response: z.ZodType | 'html';
  /** Statuses the route answers besides 200 and those its input, access and limits imply. */
  errors?: number[];
  /**
   * The params and query schemas are pure functions of the URL (no clock, store or randomness in
   * a refine, transform or default), and the handler never changes what it is given: the parsed
   * input of a URL is then kept and shared by later requests for the same URL (input.ts
   * keptPerUrl). For routes polled at the same few URLs, where the parse is a fixed cost per request.
   */
  inputPerUrl?: boolean;
  handle(input: RouteInput<P, Q, B>): unknown;
}

/** A route with its schemas kept: the router serves it and the OpenAPI generator describes it. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  operationId: string | undefined;
  summary: string;
  description: string | undefined;
  tag: string;
  access: Access;
  params: z.ZodType | undefined;
  query: z.ZodType | undefined;
  body: z.ZodType | undefined;
  response: z.ZodType | 'html';
  /** Seconds of max-age (Cache-Control); undefined: no-store. */
  maxAge: number | undefined;
  statsLimited: boolean;
  upstream: boolean;
  errors: number[];
  handler(deps: ServerDeps): EventHandler;
}

/**
 * Resolved once per request and kept on the event. A request without a token is the anonymous
 * caller at once (resolveBearer's own first answer, no store read), so an anonymous poll does not
 * wait on a promise for it; a token is looked up in the store.
 */
export function callerOf(event: H3Event, deps: ServerDeps): Caller | Promise<Caller> {
  const cached = event.context['caller'] as Caller | undefined;
  if (cached) return cached;
  const authorization = requestHeader(event, 'authorization');
  if (authorization === undefined || authorization === '') return (event.context['caller'] = ANONYMOUS);
  return resolveBearer(deps.store, authorization).then((caller) => (event.context['caller'] = caller));
}

/**
 * The onboarding signal on every per-caller answer (auth, tier-shaped and tier-gated routes) to a
 * user who still has to onboard: `x-onboarding-required: /onboarding`. Public answers never carry
 * it, so a shared cache cannot hand one user's signal to another. GET /api/me carries the same
 * signal as a field.
 */
export function signalOnboarding(event: H3Event, caller: Caller, cutoff: string): void {
  if (!caller.authenticated || !caller.user) return;
  const state = onboardingFor(caller.user, cutoff);
  if (state.required) event.node.res.setHeader(ONBOARDING_HEADER, state.redirect);
}

/**
 * Who a per-caller limit or meter counts: the user of a valid token, else the client address
 * (client-address.ts: behind a TRUSTED_PROXIES proxy, the nearest untrusted X-Forwarded-For hop),
 * an IPv6 one as its /64.
 */
export function clientKey(event: H3Event, caller: Caller, config: Env): string {
  if (caller.user) return `user:${caller.user.id}`;
  return `ip:${clientCaller(event, config)}`;
}

/**
 * Cache headers. Tier-shaped answers vary by Authorization: private whenever the request carried
 * a token (a shared cache must never hand one caller's shaping to another), public otherwise.
 */
export function setCacheHeaders(event: H3Event, access: Access, caller: Caller, method: string, maxAge: number | undefined): void {
  const res = event.node.res;
  const shaped = perCaller(access);
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
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    tag: def.tag,
    access: def.access,
    params: def.params,
    query: def.query,
    body: def.body,
    response: def.response,
    maxAge: def.maxAge,
    statsLimited: def.statsLimited ?? false,
    upstream: def.upstream ?? false,
    errors: def.errors ?? [],
    handler: (deps) => {
      /** The answer once the input is read: cache headers, the route's own handling, then the body. */
      const answer = (input: RouteInput<P, Q, B>) => {
        setCacheHeaders(input.event, def.access, input.caller, def.method, def.maxAge);
        const out = def.handle(input);
        return out instanceof Promise ? out.then((o) => toBody(input.event, o)) : toBody(input.event, out);
      };
      const readInput = (event: H3Event) => ({
        params: (def.params ? readParams(event, def.params) : undefined) as Infer<P>,
        query: (def.query ? readQuery(event, def.query) : undefined) as Infer<Q>,
      });
      const inputOf = def.inputPerUrl ? keptPerUrl(readInput) : readInput;
      /** The rest of the request once the caller is known: access by caller, limits, input, then the answer. */
      const admitted = (event: H3Event, caller: Caller) => {
        if (def.access === 'auth' && (!caller.authenticated || !caller.user)) {
          throw new AppError('UNAUTHORIZED', 'this route needs a valid API token: send Authorization: Bearer <token>', { challenge: bearerChallenge(caller.presentedToken) });
        }
        if (perCaller(def.access)) signalOnboarding(event, caller, deps.config.ONBOARDING_CUTOFF);
        if (def.access === 'tier-gated' && !hasModelPriceEntitlement(caller.tier)) {
          throw new AppError('FORBIDDEN', 'this route needs a paid tier (analyst or desk)');
        }
        const rest = () => {
          const { params, query } = inputOf(event);
          if (!def.body) return answer({ event, caller, params, query, body: undefined as Infer<B> });
          return readJsonBody(event, def.body, deps.limits.bodyBytes).then((body) => answer({ event, caller, params, query, body: body as Infer<B> }));
        };
        // One budget across every provider-capable route: a new date or id there costs provider attempts.
        const afterUpstream = () =>
          def.upstream
            ? afterLimit(
                deps.limiter.hit(`upstream:${clientKey(event, caller, deps.config)}`, deps.limits.upstreamPerWindow, deps.limits.upstreamWindowSeconds, deps.wallNow()),
                () => `rate limit: ${deps.limits.upstreamPerWindow} requests per ${deps.limits.upstreamWindowSeconds} s across the routes that may call a provider`,
                rest,
              )
            : rest();
        if (!def.statsLimited) return afterUpstream();
        return afterLimit(
          deps.limiter.hit(`stats:${clientKey(event, caller, deps.config)}`, deps.limits.statsPerWindow, deps.limits.statsWindowSeconds, deps.wallNow()),
          () => `rate limit: ${deps.limits.statsPerWindow} requests per ${deps.limits.statsWindowSeconds} s on this route`,
          afterUpstream,
        );
      };
      // Synchronous up to the route's own handling (a token, a body, or an async route, makes it a
      // promise): each await of the request's path costs a trip through the microtask queue.
      return eventHandler((event) => {
        // Access is decided before any input is read: a refused call runs nothing.
        if (def.access === 'internal') requireInternalKey(event, deps.config.INTERNAL_API_KEY);
        const caller = callerOf(event, deps);
        return caller instanceof Promise ? caller.then((c) => admitted(event, c)) : admitted(event, caller);
      });
    },
  };
}

/**
 * A limit's verdict, then the rest of the request: synchronous when the verdict is (a limit held in
 * this process's memory), chained when the store counts it (servers sharing PostgreSQL). A refusal
 * is 429 with Retry-After.
 */
export function afterLimit<T>(verdict: Verdict | Promise<Verdict>, message: () => string, next: () => T): T | Promise<T> {
  const admit = (v: Verdict): T => {
    if (!v.ok) throw new AppError('RATE_LIMITED', message(), { retryAfter: v.retryAfter });
    return next();
  };
  return verdict instanceof Promise ? verdict.then(admit) : admit(verdict);
}

/**
 * The route's answer on the wire: an object as wire JSON, a string as HTML; either compressed by
 * negotiation from 1 KB (compress.ts), when it is written here and the handler's value becomes
 * undefined (answered). A smaller body goes back to h3 as before, JSON already serialized. Bodies
 * a route has already written (the snapshot route's cached bytes) pass through untouched.
 */
/** Every JSON answer names its charset (RFC 8259 says UTF-8; a client should not have to guess). */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers a read hands out again and again unchanged (context-reads.ts: a kept answer, scrubbed
 * once): their wire JSON and its compressed forms are made once per object, not on every request
 * (a 178 KB live answer cost 4-5 ms of CPU a poll to walk, serialize and gzip again).
 */
const sharedWire = new WeakMap<object, { json: string; bytes: Buffer; encodings: Encodings } | null>();

/** Marks `answer` as shared: nothing may change it from now on, and its bytes are made once. */
export function shareAnswer<T extends object>(answer: T): T {
  if (!sharedWire.has(answer)) sharedWire.set(answer, null);
  return answer;
}

function toBody(event: H3Event, out: unknown): unknown {
  if (typeof out === 'string') return sendNegotiated(event, Buffer.from(out, 'utf8'), 'text/html') ? undefined : out;
  if (out === undefined || out === null || typeof out !== 'object' || Buffer.isBuffer(out)) return out;
  const shared = sharedWire.get(out);
  if (shared !== undefined) {
    let wire = shared;
    if (wire === null) {
      const json = JSON.stringify(toWire(out));
      const bytes = Buffer.from(json, 'utf8');
      sharedWire.set(out, (wire = { json, bytes, encodings: encodedOnce(bytes) }));
    }
    if (wire.bytes.length >= COMPRESS_MIN_BYTES && sendNegotiated(event, wire.bytes, JSON_TYPE, wire.encodings)) return undefined;
    if (!event.node.res.hasHeader('content-type')) event.node.res.setHeader('content-type', JSON_TYPE);
    return wire.json;
  }
  const json = JSON.stringify(toWire(out));
  if (Buffer.byteLength(json, 'utf8') >= COMPRESS_MIN_BYTES && sendNegotiated(event, Buffer.from(json, 'utf8'), JSON_TYPE)) return undefined;
  const res = event.node.res;
  // h3 sends a string as HTML unless a type is set: this one is JSON, and says its charset.
  if (!res.hasHeader('content-type')) res.setHeader('content-type', JSON_TYPE);
  return json;
}
