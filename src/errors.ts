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
  INTERNAL: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Seconds, for RATE_LIMITED. */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: unknown; retryAfter?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
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

/** A one-line message naming each bad field of a zod error, e.g. `--line: expected number`. */
export function describeZodIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>, prefix = ''): string {
  return issues
    .map((i) => {
      const path = i.path.map(String).join('.');
      return path ? `${prefix}${path}: ${i.message}` : i.message;
    })
    .join('; ');
}
