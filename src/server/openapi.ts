import { z } from 'zod';
import { INTERNAL_KEY_HEADER } from './internal-key.js';
import type { Route } from './route.js';

type JsonSchema = Record<string, unknown>;

/** Request shapes as a client sends them (before zod defaults and transforms). */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete out['$schema'];
  return out;
}

const errorEnvelope: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
  },
};

const STATUS_TEXT: Record<number, string> = {
  304: 'Not modified (If-None-Match matched the ETag)',
  400: 'Bad input: the message names the field',
  401: 'Missing or wrong internal key',
  403: 'Not allowed for this tier',
  404: 'Not found',
  409: 'Another run holds the lock',
  413: 'Body over the size cap',
  429: 'Rate limited; see Retry-After',
};

function parameters(route: Route): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const s = jsonSchema(schema);
    const props = (s['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s['required'] ?? []) as string[]);
    for (const [name, prop] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop, ...(prop['description'] ? { description: prop['description'] } : {}) });
    }
  }
  if (route.access === 'tier-shaped' || route.access === 'tier-gated') {
    out.push({ name: 'Authorization', in: 'header', required: false, schema: { type: 'string' }, description: 'Bearer <token>; no token = free tier' });
  }
  return out;
}

/**
 * The OpenAPI 3.1 document of every route, generated from the route table: the same zod schemas
 * that validate path, query and body at request time.
 */
export function buildOpenApi(routes: readonly Route[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const responses: Record<string, JsonSchema> = { '200': { description: 'OK', content: { 'application/json': { schema: {} } } } };
    const statuses = new Set<number>([...route.errors, 404]);
    if (route.params || route.query || route.body) statuses.add(400);
    if (route.body) statuses.add(413);
    if (route.statsLimited) statuses.add(429);
    if (route.access === 'internal') statuses.add(401);
    if (route.access === 'tier-gated') statuses.add(403);
    for (const s of [...statuses].sort()) {
      responses[String(s)] = s === 304 ? { description: STATUS_TEXT[s] } : { description: STATUS_TEXT[s] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    const op: JsonSchema = {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      'x-access': route.access,
      parameters: parameters(route),
      responses,
      ...(route.access === 'internal' ? { security: [{ internalKey: [] }] } : {}),
      ...(route.access === 'tier-shaped' || route.access === 'tier-gated' ? { security: [{}, { bearer: [] }] } : {}),
    };
    if (route.body) op['requestBody'] = { required: true, content: { 'application/json': { schema: jsonSchema(route.body) } } };
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  paths['/openapi.json'] = { get: { summary: 'This document', tags: ['meta'], 'x-access': 'public', parameters: [], responses: { '200': { description: 'OpenAPI 3.1 document' } } } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'propgrade API',
      version,
      description:
        'Pre-graded player props from the cached snapshot, and the public record. See docs/api.md. Wire format of every JSON body: snake_case keys (the seed field gradedAt keeps its spelling); numbers rounded at the edge: probabilities 4 decimals, American odds whole numbers, percentages 1 decimal, projections and averages 2, anything else at most 6. The store keeps full precision. A missing value is null, never 0.',
    },
    'x-wire-format': { keys: 'snake_case (gradedAt verbatim)', probabilities: 4, american_odds: 0, percentages: 1, projections: 2, other: 6 },
    paths,
    components: {
      schemas: { Error: errorEnvelope },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API token from `propgrade users add`' },
        internalKey: { type: 'apiKey', in: 'header', name: INTERNAL_KEY_HEADER },
      },
    },
  };
}
