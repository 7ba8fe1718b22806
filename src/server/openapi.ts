import { z } from 'zod';
import { ONBOARDING_HEADER } from '../accounts/preferences.js';
import { INTERNAL_KEY_HEADER } from './internal-key.js';
import { perCaller, type Access, type Route } from './route.js';
import { errorEnvelopeSchema } from './wire/rows.js';
import { namedWireSchemas } from './wire/registry.js';

type JsonSchema = Record<string, unknown>;

const SCHEMAS = '#/components/schemas/';

const inputs = new WeakMap<z.ZodType, JsonSchema>();

/** Request shapes as a client sends them (before zod defaults and transforms); converted once per schema. */
function inputSchema(schema: z.ZodType): JsonSchema {
  let out = inputs.get(schema);
  if (!out) {
    out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete out['$schema'];
    inputs.set(schema, out);
  }
  return structuredClone(out);
}

/** `GET /api/snapshot/:sport` -> getSnapshotBySport. */
export function operationIdOf(route: Pick<Route, 'method' | 'path' | 'operationId'>): string {
  if (route.operationId) return route.operationId;
  const words = route.path
    .split('/')
    .filter((w) => w !== '' && w !== 'api')
    .map((w) => (w.startsWith(':') ? `by-${w.slice(1)}` : w))
    .flatMap((w) => w.split(/[-_]/));
  return route.method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** The error answers every operation may give, by status: one envelope, headers where they matter. */
const ERROR_RESPONSES: Record<number, { name: string; description: string; headers?: Record<string, JsonSchema> }> = {
  400: { name: 'BadInput', description: 'Bad input: the message names the field' },
  401: {
    name: 'Unauthorized',
    description: 'Missing, unknown or revoked credentials',
    headers: { 'WWW-Authenticate': { description: 'The challenge: Bearer realm="propgrade" (RFC 9110 11.6.1, RFC 6750; error="invalid_token" when a token was sent), InternalKey on the internal routes', required: true, schema: { type: 'string' } } },
  },
  403: { name: 'Forbidden', description: 'Not allowed for this caller' },
  404: { name: 'NotFound', description: 'Not found (the details may carry candidates or suggestions)' },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path exists but not with this method',
    headers: { Allow: { description: 'The methods the path answers (RFC 9110 10.2.1)', required: true, schema: { type: 'string' } } },
  },
  409: { name: 'Conflict', description: 'Conflicts with the current state (another run holds the lock, no customer, another code)' },
  410: { name: 'Gone', description: 'Valid once, expired now' },
  413: { name: 'TooLarge', description: 'Body over the size cap' },
  429: {
    name: 'RateLimited',
    description: 'Rate limited or metered out',
    headers: { 'Retry-After': { required: true, description: 'Seconds until a request may succeed', schema: { type: 'integer', minimum: 0 } } },
  },
  502: { name: 'Upstream', description: 'An outbound platform (Stripe, listmonk, Ghost) failed or refused' },
  500: { name: 'Internal', description: 'A bug: the envelope says `internal error` and nothing more (no stack, no internal text)' },
  503: { name: 'Unavailable', description: 'Not configured on this server, a dependency could not start, or (UNAVAILABLE_ON_REPLAY) a provider-backed read on a replayed store whose recording this server cannot read: no provider is called' },
};

/** Response headers clients rely on, shared by reference. */
const HEADERS: Record<string, JsonSchema> = {
  CacheControl: { description: '`public, max-age=N` (no token), `private, max-age=N` (per-caller answer to a token), or `no-store`', schema: { type: 'string' } },
  Vary: { description: 'Authorization on per-caller routes, Accept-Encoding where the body is negotiated, Origin when CORS is configured', schema: { type: 'string' } },
  ETag: { description: 'Strong validator of this representation; send it back in If-None-Match for a 304', schema: { type: 'string' } },
  Onboarding: { description: 'Present (value `/onboarding`) when the caller was created on or after ONBOARDING_CUTOFF and has not set onboarding_complete', schema: { type: 'string', enum: ['/onboarding'] } },
  ContentEncoding: { description: 'The coding negotiated by Accept-Encoding (gzip, br) when the body is compressed', schema: { type: 'string' } },
  ContentSecurityPolicy: { description: 'A strict policy with a per-answer nonce: no external assets', schema: { type: 'string' } },
};
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** What each tag groups (docs/api.md has the routes in full). */
const TAGS: Record<string, string> = {
  accounts: 'Who the token belongs to, preferences, the scan meter',
  billing: 'Stripe webhooks, the billing portal, founder pricing',
  board: 'The ticker and the hero prop',
  content: 'Newsletter subscription',
  context: 'Live tracking, news, futures, fight cards (through the context cache)',
  desk: 'The founder desk (DESK_ALLOWLIST)',
  grading: 'Scan, analyze and parlay grading on demand',
  internal: 'Operator and cron routes (internal key)',
  meta: 'This document',
  operations: 'Liveness and readiness for load balancers and monitors',
  players: 'Player search over stored names',
  record: 'The public record: accuracy and the model ledger',
  schedule: 'Lineups, injuries and probable pitchers from the latest snapshot',
  slips: 'Bet slip reading and grading',
  snapshot: 'The graded slate and the pipeline status',
  stats: 'Stats from stored game lines and the providers, the desk showcase',
  team: 'The team hub',
};

/** The security requirement of each access class (see route.ts Access). */
const SECURITY: Record<Access, JsonSchema[]> = {
  public: [],
  'tier-shaped': [{}, { bearer: [] }],
  'tier-gated': [{ bearer: [] }],
  auth: [{ bearer: [] }],
  desk: [{ bearer: [] }],
  internal: [{ internalKey: [] }],
};

const ACCESS_TEXT: Record<Access, string> = {
  public: 'Public: the same answer for everyone.',
  'tier-shaped': "Tier-shaped: answers everyone; without an analyst or desk token (none, unknown or revoked) the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record; a parlay's projection_payout) is withheld and model_price_locked is true. The market's side (grade, p_win, ev_pct, fair prices) is free.",
  'tier-gated': 'Tier-gated: analyst or desk token; any other caller gets 403.',
  auth: 'Auth: a valid bearer token (none, unknown or revoked: 401).',
  desk: 'Founder desk: a valid bearer token (else 401) whose email is on DESK_ALLOWLIST (else 403), whatever the tier.',
  internal: `Internal: the ${INTERNAL_KEY_HEADER} header (INTERNAL_API_KEY); missing, wrong or unconfigured: 401.`,
};

const UPSTREAM_TEXT =
  'May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.';

function parameters(route: Route): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const s = inputSchema(schema);
    const props = (s['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s['required'] ?? []) as string[]);
    for (const [name, prop] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop, ...(prop['description'] ? { description: prop['description'] } : {}) });
    }
  }
  if (route.path === '/api/snapshot/:sport') {
    out.push({ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'An ETag of this URL: 304 when it still matches' });
  }
  return out;
}

/** The statuses a route answers besides 200: its own list, and what its input, access and limits imply. */
export function errorStatuses(route: Route): number[] {
  const statuses = new Set<number>(route.errors);
  if (route.params || route.query || route.body) statuses.add(400);
  if (route.body) statuses.add(413);
  if (route.statsLimited || route.upstream) statuses.add(429);
  if (route.access === 'internal' || route.access === 'auth' || route.access === 'desk') statuses.add(401);
  if (route.access === 'tier-gated' || route.access === 'desk') statuses.add(403);
  statuses.add(405);
  statuses.add(500);
  return [...statuses].filter((s) => s !== 304 && s !== 200).sort((a, b) => a - b);
}

function successResponse(route: Route, schemaIds: Map<z.ZodType, string>): JsonSchema {
  const headers: Record<string, JsonSchema> = { 'Cache-Control': header('CacheControl'), Vary: header('Vary'), 'Content-Encoding': header('ContentEncoding') };
  if (perCaller(route.access)) headers[ONBOARDING_HEADER] = header('Onboarding');
  if (route.path === '/api/snapshot/:sport') headers['ETag'] = header('ETag');
  if (route.response === 'html') {
    headers['Content-Security-Policy'] = header('ContentSecurityPolicy');
    return { description: 'The page (strict Content-Security-Policy, no external assets)', headers, content: { 'text/html': { schema: { type: 'string' } } } };
  }
  const id = schemaIds.get(route.response);
  if (!id) throw new Error(`the answer schema of ${route.method} ${route.path} has no name`);
  return { description: 'OK', headers, content: { 'application/json': { schema: { $ref: SCHEMAS + id } } } };
}

/** The named wire schemas' JSON Schemas, converted once per set of names (every app builds a document). */
let namedCache: { size: number; schemas: Record<string, JsonSchema> } | null = null;

/** Named wire schemas plus each route's answer (named after its operation when it has no name). */
function componentSchemas(routes: readonly Route[]): { schemas: Record<string, JsonSchema>; ids: Map<z.ZodType, string> } {
  const named = namedWireSchemas();
  const ids = new Map<z.ZodType, string>([...named].map(([id, schema]) => [schema, id]));
  const allNamed = routes.every((r) => r.response === 'html' || ids.has(r.response));
  if (allNamed && namedCache?.size === named.size) return { schemas: structuredClone(namedCache.schemas), ids };
  const converted = convertSchemas(routes);
  if (allNamed) namedCache = { size: named.size, schemas: structuredClone(converted.schemas) };
  return converted;
}

function convertSchemas(routes: readonly Route[]): { schemas: Record<string, JsonSchema>; ids: Map<z.ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  const ids = new Map<z.ZodType, string>();
  for (const [id, schema] of namedWireSchemas()) {
    registry.add(schema, { id });
    ids.set(schema, id);
  }
  for (const route of routes) {
    if (route.response === 'html' || ids.has(route.response)) continue;
    const id = `${operationIdOf(route).replace(/^./, (c) => c.toUpperCase())}Answer`;
    registry.add(route.response, { id });
    ids.set(route.response, id);
  }
  const out = z.toJSONSchema(registry, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any', uri: (id) => SCHEMAS + id }) as { schemas: Record<string, JsonSchema> };
  for (const s of Object.values(out.schemas)) {
    delete s['$schema'];
    delete s['$id'];
  }
  return { schemas: out.schemas, ids };
}

/**
 * The OpenAPI 3.1 document of every route, generated from the route table: the zod schemas that
 * validate path, query and body at request time, and the wire schemas of the answers.
 */
export function buildOpenApi(routes: readonly Route[], version: string): JsonSchema {
  const { schemas, ids } = componentSchemas(routes);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const responses: Record<string, JsonSchema> = { '200': successResponse(route, ids) };
    if (route.errors.includes(304)) {
      responses['304'] = { description: 'Not modified: If-None-Match matched the ETag (no body)', headers: { ETag: header('ETag'), 'Cache-Control': header('CacheControl'), Vary: header('Vary') } };
    }
    for (const status of errorStatuses(route)) {
      const known = ERROR_RESPONSES[status];
      if (!known) throw new Error(`${route.method} ${route.path} declares status ${status}, which has no error response`);
      responses[String(status)] = { $ref: `#/components/responses/${known.name}` };
    }
    const description = [route.description, ACCESS_TEXT[route.access], route.upstream ? UPSTREAM_TEXT : undefined].filter(Boolean).join('\n\n');
    const op: JsonSchema = {
      operationId: operationIdOf(route),
      summary: route.summary,
      description,
      tags: [route.tag],
      'x-access': route.access,
      ...(route.upstream ? { 'x-upstream': true } : {}),
      security: SECURITY[route.access],
      parameters: parameters(route),
      responses,
    };
    if (route.body) op['requestBody'] = { required: true, content: { 'application/json': { schema: inputSchema(route.body) } } };
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'getOpenapiJson',
      summary: 'This document',
      description: ACCESS_TEXT.public,
      tags: ['meta'],
      'x-access': 'public',
      security: [],
      responses: {
        '200': { description: 'The OpenAPI 3.1 document', headers: { 'Cache-Control': header('CacheControl'), Vary: header('Vary'), 'Content-Encoding': header('ContentEncoding') }, content: { 'application/json': { schema: { $ref: `${SCHEMAS}OpenApiDocument` } } } },
        '405': { $ref: '#/components/responses/MethodNotAllowed' },
        '500': { $ref: '#/components/responses/Internal' },
      },
    },
  };
  const errorRef = { $ref: SCHEMAS + ids.get(errorEnvelopeSchema)! };
  const responses: Record<string, JsonSchema> = {};
  for (const e of Object.values(ERROR_RESPONSES)) {
    // A per-caller route signals onboarding before it refuses, so its errors may carry the header too.
    const headers = { 'Cache-Control': header('CacheControl'), Vary: header('Vary'), [ONBOARDING_HEADER]: header('Onboarding'), ...e.headers };
    responses[e.name] = { description: e.description, headers, content: { 'application/json': { schema: errorRef } } };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'propgrade API',
      version,
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' },
      description:
        'Pre-graded player props from the cached snapshot, and the public record. See docs/api.md. Wire format of every JSON body: snake_case keys (the seed field gradedAt keeps its spelling); numbers rounded at the edge: probabilities 4 decimals, American odds whole numbers, percentages 1 decimal, projections and averages 2, anything else at most 6. The store keeps full precision. A missing value is null, never 0. Every GET also answers HEAD (the same status and headers, no body).',
    },
    servers: [{ url: '/', description: 'The server that serves this document (`propgrade serve`)' }],
    'x-wire-format': { keys: 'snake_case (gradedAt verbatim)', probabilities: 4, american_odds: 0, percentages: 1, projections: 2, other: 6 },
    tags: [...new Set([...routes.map((r) => r.tag), 'meta'])].sort().map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      schemas: {
        ...schemas,
        OpenApiDocument: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string', const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } } },
      },
      responses,
      headers: HEADERS,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API token from `propgrade users add`; no token is the free tier on tier-shaped routes' },
        internalKey: { type: 'apiKey', in: 'header', name: INTERNAL_KEY_HEADER, description: 'INTERNAL_API_KEY, for the cron and the operator' },
      },
    },
  };
}

/** GET /metrics is served beside the routes (metrics-route.ts): its operation is written here. */
export function describeMetricsRoute(doc: Record<string, unknown>): void {
  const paths = doc['paths'] as Record<string, JsonSchema>;
  paths['/metrics'] = {
    get: {
      operationId: 'getMetrics',
      summary: 'Prometheus metrics',
      description: `Internal: the ${INTERNAL_KEY_HEADER} header, or Authorization: Bearer <INTERNAL_API_KEY> for scrapers that can only send that; missing, wrong or unconfigured: 401. The Prometheus text exposition format: HTTP requests by route template and status, latency histograms, bytes out, cache look-ups, process figures, and the runs' own figures read from the store (last success per job and sport, run duration, snapshot rows, graded, refused, settled, Odds API credits spent and left today). Never cached.`,
      tags: ['operations'],
      'x-access': 'internal',
      security: [{ internalKey: [] }, { bearer: [] }],
      responses: {
        '200': { description: 'Prometheus text format 0.0.4', headers: { 'Cache-Control': { $ref: '#/components/headers/CacheControl' } }, content: { 'text/plain': { schema: { type: 'string', description: 'Content-Type: text/plain; version=0.0.4; charset=utf-8' } } } },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '405': { $ref: '#/components/responses/MethodNotAllowed' },
        '500': { $ref: '#/components/responses/Internal' },
      },
    },
  };
}
