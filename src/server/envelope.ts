import type { H3Error, H3Event } from 'h3';
import { STATUS_CODES } from 'node:http';
import { AppError, describeZodIssues } from '../errors.js';
import { toWire } from '../wire.js';
import { sendNegotiated } from './compress.js';

/** The realm of the API's bearer tokens (RFC 6750 section 3). */
export const BEARER_REALM = 'propgrade';

/**
 * The WWW-Authenticate challenge of a 401 on a bearer route (RFC 6750 section 3): no token sent,
 * the bare challenge (no error code, as 3.1 says for a request without credentials); a token
 * sent but unknown, revoked or malformed, `error="invalid_token"`.
 */
export function bearerChallenge(presentedToken: boolean): string {
  return presentedToken
    ? `Bearer realm="${BEARER_REALM}", error="invalid_token", error_description="the token is unknown, revoked or malformed"`
    : `Bearer realm="${BEARER_REALM}"`;
}

/** The one error body of the API: `{ error: { code, message, details? } }`. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details?: unknown };
}

export interface ErrorReply {
  status: number;
  body: ErrorEnvelope;
  retryAfter?: number;
  /** WWW-Authenticate of a 401 (the bearer challenge when absent). */
  challenge?: string;
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_INPUT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'TOO_LARGE',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
};

interface ZodLike {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

function isZodLike(v: unknown): v is ZodLike {
  return typeof v === 'object' && v !== null && Array.isArray((v as { issues?: unknown }).issues);
}

/** h3 wraps what a handler or validator throws; the AppError may sit in the error, its cause or its data. */
function findAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (typeof error !== 'object' || error === null) return null;
  const { cause, data } = error as { cause?: unknown; data?: unknown };
  if (cause instanceof AppError) return cause;
  if (data instanceof AppError) return data;
  return null;
}

/**
 * Maps anything thrown inside a handler to the envelope. AppErrors keep their code and message;
 * zod failures (from h3's validated readers) become 400 naming the field; h3's own 404/405 keep
 * their status; anything else is a 500 with a fixed message, so no stack or internal text leaks.
 */
export function toErrorReply(error: H3Error | Error): ErrorReply {
  const app = findAppError(error);
  if (app) {
    const body: ErrorEnvelope = { error: { code: app.code, message: app.message } };
    // Details are values like any answer's: written in the wire's style here (snake_case keys).
    if (app.details !== undefined) body.error.details = toWire(app.details);
    return { status: app.status, body, ...(app.retryAfter !== undefined ? { retryAfter: app.retryAfter } : {}), ...(app.challenge !== undefined ? { challenge: app.challenge } : {}) };
  }
  const h3 = error as H3Error;
  const status = typeof h3.statusCode === 'number' ? h3.statusCode : 500;
  const data = h3.data ?? error.cause;
  if (status === 400 && isZodLike(data)) {
    return { status, body: { error: { code: 'BAD_INPUT', message: describeZodIssues(data.issues) } } };
  }
  const code = CODE_BY_STATUS[status];
  if (code && status < 500) {
    // The 404/405 messages are the app's own (app.ts fallback), safe to show.
    return { status, body: { error: { code, message: h3.message || h3.statusMessage || code.toLowerCase() } } };
  }
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
}

/**
 * Writes the envelope directly; the caller has already decided the status. The status line
 * carries the standard reason phrase (RFC 9110 section 15): the message is in the envelope, and
 * h3's own statusMessage (its router's text, "Validation Error") never reaches the wire.
 */
export function sendErrorReply(event: H3Event, reply: ErrorReply): void {
  const res = event.node.res;
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = reply.status;
  res.statusMessage = STATUS_CODES[reply.status] ?? '';
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  if (reply.retryAfter !== undefined) res.setHeader('retry-after', String(reply.retryAfter));
  // RFC 9110 11.6.1: a 401 carries at least one challenge for the target resource.
  if (reply.status === 401) res.setHeader('www-authenticate', reply.challenge ?? bearerChallenge(false));
  const body = JSON.stringify(reply.body);
  if (body.length >= 1024 && sendNegotiated(event, Buffer.from(body, 'utf8'), 'application/json; charset=utf-8')) return;
  res.end(body);
}
