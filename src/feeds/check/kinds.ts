import type { ProviderId } from '../transport/types.js';
import type { FeedKind } from './kind.js';
import { ESPN_KINDS } from './kinds-espn.js';
import { MLB_STATSAPI_KINDS } from './kinds-mlb-statsapi.js';
import { ODDS_API_KINDS } from './kinds-odds-api.js';
import { SAVANT_KINDS } from './kinds-savant.js';

export { PROVIDER_IDS, type FeedKind } from './kind.js';

/** The catalogue: every response kind propgrade reads, matched by path, parsed by its adapter. */
export const FEED_KINDS: readonly FeedKind[] = [...ODDS_API_KINDS, ...ESPN_KINDS, ...MLB_STATSAPI_KINDS, ...SAVANT_KINDS];

/** The catalogued kind a provider URL answers, or null (reported as "unknown kind"). */
export function classifyFeed(provider: ProviderId, url: string): FeedKind | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return FEED_KINDS.find((k) => k.provider === provider && k.match(parsed)) ?? null;
}
