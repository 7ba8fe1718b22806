import { z } from 'zod';
import { readJson } from '../json.js';
import type { FeedLogger } from '../transport/log.js';
import type { ProviderId } from '../transport/types.js';

/**
 * The shape of a catalogued response kind (`propgrade feeds check`) and the URL matching the
 * catalogue is written in. Each provider's kinds live in kinds-<provider>.ts; kinds.ts joins them.
 */

export const PROVIDER_IDS = ['odds-api', 'espn', 'mlb-statsapi', 'savant'] as const satisfies readonly ProviderId[];
export const providerIdSchema = z.enum(PROVIDER_IDS);

/** One response kind. `parse` counts the records the real adapter produced; null = unreadable. */
export interface FeedKind {
  provider: ProviderId;
  kind: string;
  /** What `records` counts. */
  unit: string;
  match(url: URL): boolean;
  parse(body: string, url: URL, log: FeedLogger): number | null;
}

/** `'v4/sports/:sport/events'` against a URL path: the named segments, or null. Host-independent. */
export function pathParams(url: URL, pattern: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = g;
    else if (w !== g) return null;
  }
  return params;
}

export const matches = (pattern: string, also: (p: Record<string, string>, url: URL) => boolean = () => true) => (url: URL) => {
  const p = pathParams(url, pattern);
  return p !== null && also(p, url);
};

export function param(url: URL, pattern: string, name: string): string {
  // Only called from parse(), after match() accepted the same pattern.
  return pathParams(url, pattern)?.[name] ?? '';
}

/** JSON text (BOM tolerated) -> value; non-JSON is null plus a warning (ESPN and MLB Stats API bodies). */
export const jsonBody = (body: string, what: string, log: FeedLogger): unknown => readJson(body, what, log);

export const count = <T>(list: readonly T[] | null): number | null => (list === null ? null : list.length);
