import { createHash, timingSafeEqual } from 'node:crypto';
import { getRequestHeader, type H3Event } from 'h3';
import { AppError } from '../errors.js';

/** Header carrying the operator key on /api/internal/* routes. */
export const INTERNAL_KEY_HEADER = 'x-internal-key';

/**
 * The challenge of a refused internal call (RFC 9110 11.6.1: a 401 names how to authenticate).
 * The key travels in its own header, not in Authorization, so the scheme is propgrade's own.
 */
export const INTERNAL_KEY_CHALLENGE = `InternalKey realm="propgrade-internal", header="${INTERNAL_KEY_HEADER}"`;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Constant-time check of the internal key: both sides are hashed to equal-length digests first,
 * so neither the comparison time nor a length mismatch says anything about the key. No key
 * configured means the internal routes are closed.
 */
export function internalKeyMatches(configured: string | undefined, presented: string | undefined): boolean {
  if (!configured || !presented) return false;
  return timingSafeEqual(digest(configured), digest(presented));
}

export function requireInternalKey(event: H3Event, configured: string | undefined): void {
  if (!internalKeyMatches(configured, getRequestHeader(event, INTERNAL_KEY_HEADER))) {
    throw new AppError('UNAUTHORIZED', `missing or wrong ${INTERNAL_KEY_HEADER}`, { challenge: INTERNAL_KEY_CHALLENGE });
  }
}
