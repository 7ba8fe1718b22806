import { z } from 'zod';

/**
 * One error family for the whole program. The CLI maps `exitCode`, the HTTP server maps
 * `status`; both print `message` only (never a stack) unless asked to be verbose.
 * The shared kernel beside the floors: it imports nothing of ours (only zod), so every floor, the
 * domain included, may throw these without importing upward (eslint.config.js holds it).
 */
export type ErrorCode =
  | 'BAD_INPUT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'TOO_LARGE'
  | 'RATE_LIMITED'
  | 'CONFLICT'
  | 'UNAVAILABLE'
  /** A provider-backed read on a replayed store that has no recording to answer from: 503, and no outbound request. */
  | 'UNAVAILABLE_ON_REPLAY'
  /** An outbound platform (listmonk, Ghost) failed or refused what we sent: 502. */
  | 'UPSTREAM'
  /** Something that was valid has run out (a founder code past FOUNDER_CODE_EXPIRY): 410. */
  | 'EXPIRED'
  /** A feature whose configuration is missing (Stripe keys, founder codes): 503, never a crash. */
  | 'NOT_CONFIGURED'
  | 'INTERNAL';

const STATUS: Record<ErrorCode, number> = {
  BAD_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TOO_LARGE: 413,
  RATE_LIMITED: 429,
  CONFLICT: 409,
  UNAVAILABLE: 503,
  UNAVAILABLE_ON_REPLAY: 503,
  UPSTREAM: 502,
  EXPIRED: 410,
  NOT_CONFIGURED: 503,
  INTERNAL: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Seconds, for RATE_LIMITED. */
  readonly retryAfter: number | undefined;

  /** The error behind this one, kept off `cause` on purpose: h3's createError takes an error's `cause` in its place and the code would be lost (a 500). */
  readonly underlying: unknown;
  /** For UNAUTHORIZED over HTTP: the WWW-Authenticate challenge (RFC 9110 11.6.1); absent, the server sends its bearer challenge. */
  readonly challenge: string | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: unknown; retryAfter?: number; cause?: unknown; challenge?: string } = {}) {
    super(message);
    this.underlying = options.cause;
    this.challenge = options.challenge;
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }

  get status(): number {
    return STATUS[this.code];
  }

  /** Bad usage or bad input (an oversize file included) exits 2; everything else that fails exits 1. */
  get exitCode(): 1 | 2 {
    return this.code === 'BAD_INPUT' || this.code === 'TOO_LARGE' ? 2 : 1;
  }
}

export function badInput(message: string, details?: unknown): AppError {
  return new AppError('BAD_INPUT', message, { details });
}

/** The PostgreSQL objects a 42501 names, and the grant each needs (docs/scale.md "The role's rights"). */
const GRANT_FOR: Readonly<Record<string, (name: string, verb: string | null) => string>> = {
  table: (name, verb) =>
    name.startsWith('__drizzle')
      ? `the role needs ${verb ?? 'SELECT and INSERT'} on table drizzle.${name}: GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA drizzle TO <role> (every open reads the record of applied migrations)`
      : `the role needs ${verb ?? 'SELECT, INSERT, UPDATE and DELETE'} on table ${name}: GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO <role> (propgrade reads and writes every table)`,
  relation: (name, verb) => `the role needs ${verb ?? 'SELECT, INSERT, UPDATE and DELETE'} on ${name}: GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO <role>`,
  sequence: (name) => `the role needs USAGE and SELECT on sequence ${name}: GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO <role>`,
  schema: (name) => `the role needs USAGE and CREATE on schema ${name}: GRANT USAGE, CREATE ON SCHEMA ${name} TO <role> (every open checks the migrations, which live in schema drizzle)`,
  database: (name) => `the role needs CREATE on database ${name}: GRANT CREATE ON DATABASE ${name} TO <role> (every open makes sure schema drizzle, where the migrations are recorded, exists)`,
};

/**
 * PostgreSQL's "insufficient privilege" (SQLSTATE 42501) as one line naming the right that is
 * missing, without the statement (drizzle's message carries the SQL and its parameters) or the URL.
 * The statement's verb (SELECT, INSERT, ...) says which right a table needs; `role` (the URL's user,
 * never its password) names who needs it. Null for any other error.
 */
export function privilegeRefusal(error: unknown, role?: string | null): AppError | null {
  let denied: { message: string } | null = null;
  let query: string | null = null;
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, query: q } = e as { code?: unknown; message?: unknown; query?: unknown };
    if (code === '42501' && typeof message === 'string') denied = { message };
    if (typeof q === 'string' && query === null) query = q;
  }
  if (denied === null) return null;
  const verb = /^\s*(select|insert|update|delete|create|alter|drop|truncate)\b/i.exec(query ?? '')?.[1]?.toUpperCase() ?? null;
  const object = /permission denied for (table|relation|sequence|schema|database) "?([^"\s]+)"?/i.exec(denied.message);
  // Bulk writes stage their rows in a temporary table (store/pg/bulk-insert.ts).
  const temporary = /permission denied to create temporary tables in database "?([^"\s]+)"?/i.exec(denied.message);
  const grant = object
    ? GRANT_FOR[object[1]!.toLowerCase()]?.(object[2]!, verb)
    : temporary
      ? `the role needs TEMPORARY on database ${temporary[1]}: GRANT TEMPORARY ON DATABASE ${temporary[1]} TO <role> (bulk writes stage their rows in a temporary table)`
      : undefined;
  const what = object ? `permission denied for ${object[1]!.toLowerCase()} ${object[2]}` : temporary ? `permission denied to create temporary tables in database ${temporary[1]}` : 'permission denied';
  const who = role ? `role "${role}"` : "the store's role";
  const advice = grant && role ? grant.replaceAll('<role>', `"${role}"`) : grant;
  return new AppError('BAD_INPUT', `PostgreSQL refused ${who}: ${what}${advice ? `; ${advice}` : ''} (SQLSTATE 42501)`, { cause: error });
}

type IssueLike = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string; readonly code?: string; readonly received?: unknown };

/**
 * A one-line message naming each bad field of a zod error and, where it is known, the bad value:
 * `--limit: expected a number, got 'abc'`, `sport: 'nfl' is not one of all, mlb, nba, wnba, soccer`.
 *
 * `input` is the value that was parsed (the raw options object, the positional argument, the
 * environment). Pass it: coercion (`z.coerce.number()`) replaces the typed text with NaN before
 * zod reports the issue, so only the caller still holds the `'abc'` to name.
 */
export function describeZodIssues(issues: ReadonlyArray<IssueLike>, prefix = '', input?: unknown): string {
  return issues
    .map((i) => {
      const path = i.path.map(String).join('.');
      const message = i.code === 'invalid_type' && i.received === 'NaN' ? coercedNumberMessage(i.path, input) ?? i.message : i.message;
      return path ? `${prefix}${path}: ${message}` : message;
    })
    .join('; ');
}

/**
 * Parses `raw` with `schema`; on failure throws BAD_INPUT with `describeZodIssues` over the raw
 * value, so the message names the flag (`prefix` + key, e.g. `--port`) and what was typed.
 */
export function parseOrBadInput<S extends z.ZodType>(schema: S, raw: unknown, prefix = ''): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw badInput(describeZodIssues(parsed.error.issues, prefix, raw), parsed.error.issues);
  return parsed.data;
}

function coercedNumberMessage(path: ReadonlyArray<PropertyKey>, input: unknown): string | null {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return typeof value === 'string' ? `expected a number, got ${showValue(value)}` : null;
}

/**
 * Names for schemas parsed on their own, where the issue has no path to name the argument:
 * `parseOptions(targetSchema, 'nfl')` says `sport: ...` because the sport enum is named here.
 */
const ARGUMENT_NAMES = new WeakMap<object, string>();

export function nameArgument<S extends z.ZodType>(schema: S, name: string): S {
  ARGUMENT_NAMES.set(schema, name);
  return schema;
}

/** The longest echo of a typed value in a message; longer values are cut with an ellipsis. */
const MAX_ECHO = 40;

/** A typed value as a message shows it: strings quoted, cut at MAX_ECHO, control characters escaped. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') {
    const cut = value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}...` : value;
    return `'${JSON.stringify(cut).slice(1, -1).replace(/\\"/g, '"')}'`;
  }
  if (value === undefined) return 'nothing';
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'an integer',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  bigint: 'an integer',
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  email: 'an email address',
  datetime: 'an ISO date-time such as 2025-11-05T17:05:00Z',
  date: 'a date such as 2025-11-05',
  url: 'a URL',
  uuid: 'a UUID',
};

function showOption(value: unknown): string {
  return typeof value === 'string' ? (value === '' ? "''" : value) : String(value);
}

function notOneOf(input: unknown, values: ReadonlyArray<unknown>): string {
  return values.length === 1 ? `expected ${showOption(values[0])}, got ${showValue(input)}` : `${showValue(input)} is not one of ${values.map(showOption).join(', ')}`;
}

/** What one union branch expected, when it failed at the branch's own root on type or value. */
function branchExpectation(branch: ReadonlyArray<z.core.$ZodIssue>): { values: unknown[] } | { type: string } | null {
  const [only] = branch;
  if (branch.length !== 1 || !only || only.path.length > 0) return null;
  if (only.code === 'invalid_value') return { values: [...only.values] };
  if (only.code === 'invalid_type') return { type: TYPE_NAMES[only.expected] ?? only.expected };
  return null;
}

function unionMessage(input: unknown, errors: ReadonlyArray<ReadonlyArray<z.core.$ZodIssue>>): string | undefined {
  const expectations = errors.map(branchExpectation);
  if (expectations.length === 0 || expectations.some((e) => e === null)) return undefined;
  const values = expectations.flatMap((e) => (e && 'values' in e ? e.values : []));
  const types = expectations.flatMap((e) => (e && 'type' in e ? [e.type] : []));
  if (types.length === 0) return notOneOf(input, values);
  return `expected ${[...values.map(showOption), ...types].join(' or ')}, got ${showValue(input)}`;
}

function unionName(inst: unknown): string | undefined {
  const options = (inst as { _zod?: { def?: { options?: unknown[] } } } | undefined)?._zod?.def?.options ?? [];
  for (const option of options) {
    const name = typeof option === 'object' && option !== null ? ARGUMENT_NAMES.get(option) : undefined;
    if (name) return name;
  }
  return undefined;
}

function unitOf(origin: string): string | null {
  if (origin === 'string') return 'characters';
  if (origin === 'array' || origin === 'set') return 'items';
  return null;
}

function boundMessage(bound: 'at most' | 'at least', exclusive: 'less than' | 'more than', limit: unknown, inclusive: boolean | undefined, origin: string, input: unknown): string | undefined {
  const words = inclusive === false ? exclusive : bound;
  if (origin === 'number' || origin === 'int' || origin === 'bigint') return `expected ${words} ${String(limit)}, got ${showValue(input)}`;
  const unit = unitOf(origin);
  // A too-long or too-short string is never echoed (it may be a key); its length is.
  const size = typeof input === 'string' || Array.isArray(input) ? input.length : input instanceof Set ? input.size : null;
  if (unit && size !== null) return `expected ${words} ${String(limit)} ${unit}, got ${size}`;
  return undefined;
}

/**
 * The program-wide zod error map (installed below): every default message names the value that
 * was given, where zod still holds it. A schema's own message (`.min(16, '...')`, `{ error }`)
 * still wins; codes not handled here keep zod's English message. Regex formats and the text of
 * too-long or too-short strings are never echoed.
 */
export const valueNamingErrorMap: z.core.$ZodErrorMap = (issue) => {
  const atRoot = (issue.path ?? []).length === 0;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      return issue.input === undefined ? `required (expected ${expected})` : `expected ${expected}, got ${showValue(issue.input)}`;
    }
    case 'invalid_value': {
      const name = atRoot && issue.inst ? ARGUMENT_NAMES.get(issue.inst) : undefined;
      return `${name ? `${name}: ` : ''}${notOneOf(issue.input, issue.values)}`;
    }
    case 'invalid_union': {
      if (issue.inclusive === false) return undefined;
      const message = unionMessage(issue.input, issue.errors);
      const name = atRoot && message ? unionName(issue.inst) : undefined;
      return message && name ? `${name}: ${message}` : message;
    }
    case 'too_big':
      return boundMessage('at most', 'less than', issue.maximum, issue.inclusive, issue.origin, issue.input);
    case 'too_small':
      return boundMessage('at least', 'more than', issue.minimum, issue.inclusive, issue.origin, issue.input);
    case 'not_multiple_of':
      return `expected a multiple of ${String(issue.divisor)}, got ${showValue(issue.input)}`;
    case 'invalid_format': {
      const name = FORMAT_NAMES[issue.format];
      return name ? `expected ${name}, got ${showValue(issue.input)}` : undefined;
    }
    default:
      return undefined;
  }
};

z.config({ customError: valueNamingErrorMap });
