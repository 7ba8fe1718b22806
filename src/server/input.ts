import { createError, getQuery, getRouterParams, type H3Event } from 'h3';
import type { z } from 'zod';
import { AppError, describeZodIssues } from '../errors.js';

/** Default cap for JSON request bodies (bytes). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** A validator for h3's readers: zod parse, and a BAD_INPUT naming each bad field on failure. */
export function validate<S extends z.ZodType>(schema: S, where: string): (data: unknown) => z.infer<S> {
  return (data) => {
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new AppError('BAD_INPUT', `invalid ${where}: ${describeZodIssues(parsed.error.issues, '', data)}`);
    return parsed.data;
  };
}

/**
 * h3's validateData (behind getValidatedQuery and getValidatedRouterParams) without its await: the
 * same result, and on failure the same error (a 400 "Validation Error" H3Error carrying what the
 * validator threw as its data), thrown at once instead of through a rejected promise. A route reads
 * its path and query on every request, and the two awaits cost more than the zod parse.
 */
function validateNow<T>(data: unknown, fn: (data: unknown) => T): T {
  let res: T;
  try {
    res = fn(data);
    if (res === false) throw validationError();
  } catch (error) {
    throw validationError(error);
  }
  if (res === true) return data as T;
  return res ?? (data as T);
}

function validationError(cause?: unknown) {
  return createError({ status: 400, statusMessage: 'Validation Error', message: (cause as Error | undefined)?.message || 'Validation Error', data: cause });
}

/** The query, validated (as h3's getValidatedQuery, synchronously). */
export function readQuery<S extends z.ZodType>(event: H3Event, schema: S): z.infer<S> {
  return validateNow(getQuery(event), validate(schema, 'query'));
}

/** The decoded path parameters, validated (as h3's getValidatedRouterParams with decode, synchronously). */
export function readParams<S extends z.ZodType>(event: H3Event, schema: S): z.infer<S> {
  return validateNow(getRouterParams(event, { decode: true }), validate(schema, 'path'));
}

/** URLs kept per route by keptPerUrl (oldest dropped first), and the longest URL kept. */
const KEPT_URLS = 256;
const KEPT_URL_LENGTH = 1024;

/**
 * `read` (a route's path and query parsing) kept per URL: the requests for a URL already seen
 * share its parsed input instead of parsing it again. Sound only when `read` is a pure function
 * of `event.path` (the router's params and h3's query both come from it) whose schemas use no
 * clock, store or randomness; the kept value is frozen through, so no handler can change it for
 * the next request. A refusal throws and is not kept. Bounded in count and in URL length.
 */
export function keptPerUrl<T extends object>(read: (event: H3Event) => T): (event: H3Event) => T {
  const kept = new Map<string, T>();
  return (event) => {
    const url = event.path;
    const known = kept.get(url);
    if (known !== undefined) return known;
    const fresh = deepFreeze(read(event));
    if (url.length <= KEPT_URL_LENGTH) {
      if (kept.size >= KEPT_URLS) kept.delete(kept.keys().next().value as string);
      kept.set(url, fresh);
    }
    return fresh;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A request header by its lower-case name, as h3's getRequestHeader answers it (a repeated header
 * node keeps as an array is joined with ", "), without copying every request header to read one.
 */
export function requestHeader(event: H3Event, name: string): string | undefined {
  const value = event.node.req.headers[name];
  return Array.isArray(value) ? value.filter(Boolean).join(', ') : value;
}

/**
 * Reads the raw body with a byte cap: a declared Content-Length over the cap is refused before
 * reading, and a body that grows past the cap while streaming (chunked, or a lying header) is cut
 * off at the cap. `tooLarge` builds the 413 so each caller can name its own limit.
 */
export async function readCappedBody(event: H3Event, limit: number, tooLarge: () => AppError = () => new AppError('TOO_LARGE', `request body exceeds ${limit} bytes`, { details: { limit } })): Promise<Buffer> {
  const req = event.node.req;
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        // Drain and drop the rest so the connection can still carry the 413.
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve());
    req.once('error', reject);
  });
  return Buffer.concat(chunks);
}

/** Reads a capped JSON body, then JSON.parse and the zod schema, each failure a 400. */
export async function readJsonBody<S extends z.ZodType>(event: H3Event, schema: S, limit = DEFAULT_BODY_LIMIT): Promise<z.infer<S>> {
  const body = await readCappedBody(event, limit);
  const text = body.toString('utf8');
  if (text.trim() === '') throw new AppError('BAD_INPUT', 'invalid body: expected a JSON object');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('BAD_INPUT', 'invalid body: not valid JSON');
  }
  return validate(schema, 'body')(json);
}
