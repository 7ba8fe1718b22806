/**
 * Log lines of `serve` and of every run, in one of two formats (PROPGRADE_LOG_FORMAT): `text`, the
 * default, for a terminal; `json`, one object per line for a log shipper. Every line is redacted
 * first: no configured secret, API token, bearer value or credential query value reaches a log in either format.
 * A kernel beside the floors like errors.ts: it imports nothing of ours.
 */
export type LogFormat = 'text' | 'json';
export type LogLevel = 'info' | 'warn' | 'error';

/** What a line may say besides its message: a request's, or a run's. */
export interface LogFields {
  requestId?: string;
  method?: string;
  /** The path with its query keys and no query values (serve.ts loggedPath). */
  path?: string;
  /** The route template, e.g. /api/snapshot/:sport. */
  route?: string;
  status?: number | 'aborted';
  ms?: number;
  sport?: string;
  runId?: number;
}

/** The environment variables that hold secrets (config.ts): their values never reach a log line. */
export const SECRET_ENV_KEYS = ['ODDS_API_KEY', 'INTERNAL_API_KEY', 'LISTMONK_TOKEN', 'GHOST_ADMIN_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

/** The secret values of a raw environment (a Ghost key's secret half too). */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = SECRET_ENV_KEYS.map((k) => env[k]).filter((v): v is string => typeof v === 'string' && v.length > 0);
  const ghost = env['GHOST_ADMIN_KEY']?.split(':')[1];
  return ghost ? [...values, ghost] : values;
}

/**
 * An API token as `propgrade users add` mints it (src/accounts/users.ts: `pg_` and 43 base64url
 * characters), anywhere in a text: in a path, a query key or value, a request id. Replaced wherever
 * it appears in a line (test/security/log-secrets.test.ts mints real tokens and reads the log).
 */
export const TOKEN_SHAPE = /pg_[A-Za-z0-9_-]{43}/;
const TOKENS = new RegExp(TOKEN_SHAPE.source, 'g');

/** Query parameters that carry credentials: their values are replaced wherever a URL appears in a message. */
const CREDENTIAL_PARAM = /([?&](?:api_?key|apikey|key|token|access_token|secret|password|signature)=)[^&\s"']*/gi;
const BEARER = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
const REDACTED = '[redacted]';

/** The text with every configured secret and credential-looking value replaced. Secrets shorter than 6 characters are not searched (they would match ordinary words). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(CREDENTIAL_PARAM, `$1${REDACTED}`).replace(BEARER, `$1${REDACTED}`).replace(TOKENS, REDACTED);
  for (const s of secrets) if (s.length >= 6) out = out.split(s).join(REDACTED);
  return out;
}

// eslint-disable-next-line no-control-regex -- terminal colour codes must not reach a JSON line
const ANSI = /\u001b\[[0-9;]*m/g;

export interface LogLineInput {
  level: LogLevel;
  message: string;
  fields?: LogFields;
  time: Date;
}

/** One line, without its newline: the message alone in text (a warning says so), an object in JSON. */
export function formatLogLine(format: LogFormat, input: LogLineInput, secrets: readonly string[]): string {
  if (format === 'text') {
    const line = input.level === 'info' ? input.message : `${input.level === 'warn' ? 'warning' : 'error'}: ${input.message}`;
    return redact(line, secrets);
  }
  // snake_case keys, as every other machine-read output of propgrade (wire.ts).
  const fields = Object.fromEntries(
    Object.entries(input.fields ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), typeof v === 'string' ? redact(v, secrets) : v]),
  );
  return JSON.stringify({ time: input.time.toISOString(), level: input.level, message: redact(input.message.replace(ANSI, ''), secrets), ...fields });
}
