import { z } from 'zod';

/**
 * The wire schemas of the API's answers: what toWire writes (snake_case keys, the seed's
 * `gradedAt` verbatim, rounded numbers, null for a missing value). /openapi.json is generated
 * from them (components.schemas), and the contract test validates live answers against that
 * document. A schema named here is shared by $ref wherever it is used.
 */
const named = new Map<string, z.ZodType>();

/** Names a wire schema: it becomes `components.schemas[id]`. */
export function wireSchema<T extends z.ZodType>(id: string, schema: T): T {
  const held = named.get(id);
  if (held && held !== schema) throw new Error(`two wire schemas are named ${id}`);
  named.set(id, schema);
  return schema;
}

/** Every named wire schema, in naming order. */
export function namedWireSchemas(): ReadonlyMap<string, z.ZodType> {
  return named;
}

/** A yyyy-mm-dd date as the server checks it (the refine stays the route's; this only documents it). */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const isoDateDoc = { format: 'date', pattern: DATE_PATTERN, minLength: 10, maxLength: 10 } as const;

/** A calendar date on the wire (yyyy-mm-dd). */
export const wireDate = () => z.string().meta(isoDateDoc);
/** An instant on the wire (ISO 8601 as Date#toISOString or a provider writes it). */
export const wireInstant = () => z.string().meta({ description: 'ISO 8601 instant' });
/** A number, or null when it cannot be computed from real data (never 0 in its place). */
export const num = () => z.number().nullable();
export const int = () => z.number().int();
