// The program's one error family, with no dependency: the store and the history import's worker
// thread load it without zod (errors.ts re-exports it beside the zod helpers and error map).

/**
 * One error family for the whole program. The CLI maps `exitCode`, the HTTP server maps
 * `status`; both print `message` only (never a stack) unless asked to be verbose.
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

  constructor(code: ErrorCode, message: string, options: { details?: unknown; retryAfter?: number; cause?: unknown } = {}) {
    super(message);
    this.underlying = options.cause;
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
