import { SCAN_READS_PER_DAY } from '../domain/tiers.js';
import type { Env } from '../config.js';
import type { GradedSport } from '../domain/sports.js';
import type { SnapshotSummary } from '../jobs/snapshot-run.js';
import type { Transport } from '../feeds/transport/types.js';
import type { Store } from '../store/db.js';
import type { RequestLimiter } from './rate-limit.js';

/** Runs snapshot(s) the way the CLI does (same pipeline, same per-sport lock). */
export type SnapshotRunner = (sports: readonly GradedSport[]) => Promise<SnapshotSummary[]>;

/**
 * The documented limits (docs/api.md "Limits"). Stats-like reads are limited per caller (user id
 * with a valid token, else client IP); scan reads are metered per rolling 24 hours in usage_events.
 */
export interface ServerLimits {
  /** JSON request body cap in bytes. */
  bodyBytes: number;
  /** Requests per window on stats-like reads (team hub, player search, ledger and accuracy reads). */
  statsPerWindow: number;
  statsWindowSeconds: number;
  /**
   * Requests per window, per caller, on the routes that may call a provider (route.ts `upstream`;
   * docs/api.md "Upstream rationing"): each new key there can cost seconds of provider attempts.
   */
  upstreamPerWindow: number;
  upstreamWindowSeconds: number;
  /** Metered scan reads per rolling 24 hours by tier; null = unlimited. */
  scanReadsPerDay: { free: number | null; analyst: number | null; desk: number | null };
}

export const DEFAULT_LIMITS: ServerLimits = {
  bodyBytes: 1024 * 1024,
  statsPerWindow: 60,
  statsWindowSeconds: 60,
  upstreamPerWindow: 30,
  upstreamWindowSeconds: 60,
  scanReadsPerDay: { ...SCAN_READS_PER_DAY },
};

/**
 * Two clocks (docs/api.md "Clocks"), never one for the other:
 * - `now`, the data clock (--now, PROPGRADE_NOW, or a replayed store's newest snapshot): what the
 *   data says, which snapshot, the freshness of cached data.
 * - `wallNow`, the wall clock: requests, accounts, money and security (rate-limit windows and
 *   Retry-After, metered reads, webhook signature tolerance, code expiry, grace periods, back-off).
 * On a replayed store the data clock stands still; a window measured on it would never end.
 */
export interface ServerDeps {
  store: Store;
  config: Env;
  /** The data clock; given a sport, that sport's (a replayed store reads each sport as of its own newest snapshot). */
  now: (sport?: string) => Date;
  /** The wall clock. */
  wallNow: () => Date;
  /**
   * Whether outcomes are read as of the data clock (docs/ledger.md "As of a time"): true when it is
   * --now, PROPGRADE_NOW or the system's; false on a replayed store served on its own clock.
   */
  outcomesAsOfClock?: boolean;
  runSnapshots: SnapshotRunner;
  limits: ServerLimits;
  /** The per-caller request limits: in this process's memory, or counted in the store when servers share it (rate-limit.ts). */
  limiter: RequestLimiter;
  /** The server log (stderr under `serve`): where a context read's upstream detail goes, never a body. */
  log?: { warn(message: string): void };
  /** The transport live context reads go through, when injected (tests); never used on a replayed store. */
  liveTransport?: Transport;
}
