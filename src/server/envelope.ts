import type { H3Error, H3Event } from 'h3';
import { AppError, describeZodIssues } from '../errors.js';

/** The one error body of the API: `{ error: { code, message, details? } }`. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details?: unknown };
}

export interface ErrorReply {
  status: number;
  body: ErrorEnvelope;
  retryAfter?: number;
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
    if (app.details !== undefined) body.error.details = app.details;
    return { status: app.status, body, ...(app.retryAfter !== undefined ? { retryAfter: app.retryAfter } : {}) };
  }
  const h3 = error as H3Error;
  const status = typeof h3.statusCode === 'number' ? h3.statusCode : 500;
  const data = h3.data ?? error.cause;
  if (status === 400 && isZodLike(data)) {
    return { status, body: { error: { code: 'BAD_INPUT', message: describeZodIssues(data.issues) } } };
  }
  const code = CODE_BY_STATUS[status];
  if (code && status < 500) {
    // h3's router messages ("Cannot find any route matching /x.") are fixed strings, safe to show.
    return { status, body: { error: { code, message: h3.message || h3.statusMessage || code.toLowerCase() } } };
  }
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
}

/** Writes the envelope directly; the caller has already decided the status. */
export function sendErrorReply(event: H3Event, reply: ErrorReply): void {
  const res = event.node.res;
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = reply.status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  if (reply.retryAfter !== undefined) res.setHeader('retry-after', String(reply.retryAfter));
  res.end(JSON.stringify(reply.body));
}
