import { z } from 'zod';

export const tierSchema = z.enum(['free', 'analyst', 'desk']);
export type Tier = z.infer<typeof tierSchema>;

/**
 * The one place that says who sees the projection's own price. Both paid tiers hold the
 * entitlement; free does not. Any failure resolving a caller's tier resolves to free (fail closed).
 */
export function hasModelPriceEntitlement(tier: Tier): boolean {
  return tier === 'analyst' || tier === 'desk';
}

/**
 * What the paid tiers buy (issue 41 item 4, docs/api.md "What a tier buys"): the projection's own
 * view of a prop (domain/projection-view.ts), withheld together. The market's side of a row
 * (p_win, model_odds, ev_pct, value, takeable, ev_now_pct, edge_now: the letter's EV at the
 * market's fair) is free, because a caller holding the fair probability and the price computes
 * it anyway. camelCase like every value in the process; src/wire.ts writes them snake_case.
 */
export const MODEL_FIELDS = ['projectionProb', 'projectionOdds', 'projectionEvPct', 'projectionRecord'] as const;

type ModelField = (typeof MODEL_FIELDS)[number];
export type ModelFields = { [K in ModelField]?: unknown };

/**
 * Tier shaping of any row that carries the projection's view: for a caller without the
 * entitlement its fields are removed and the row is stamped `modelPriceLocked`. Market fields stay.
 */
export function shapeRow<T extends object>(row: T, tier: Tier): Omit<T, ModelField> & { modelPriceLocked: boolean } {
  if (hasModelPriceEntitlement(tier)) return { ...row, modelPriceLocked: false };
  const out: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const f of MODEL_FIELDS) delete out[f];
  return { ...(out as Omit<T, ModelField>), modelPriceLocked: true };
}

/** Parlay leg caps per tier. */
export const PARLAY_LEG_CAP: Readonly<Record<Tier, number>> = { free: 2, analyst: 4, desk: 6 };

/** Tiers from least to most access; a higher rank never loses what a lower one has. */
export const TIER_RANK: Readonly<Record<Tier, number>> = { free: 0, analyst: 1, desk: 2 };

/** The tier with the most access of those given, or null for none. */
export function highestTier(tiers: Iterable<Tier | null | undefined>): Tier | null {
  let best: Tier | null = null;
  for (const t of tiers) if (t && (best === null || TIER_RANK[t] > TIER_RANK[best])) best = t;
  return best;
}

/**
 * Metered scan reads (graded reads of POST /api/scan) per rolling 24 hours, by tier; null is
 * unlimited. The spec leaves the numbers open: free gets a taste (5), analyst a working day's use
 * (100), desk is unlimited. The scan limiter and the scan meter both read these through the
 * server limits (DEFAULT_LIMITS), so the two can never disagree.
 */
export const SCAN_READS_PER_DAY: Readonly<Record<Tier, number | null>> = { free: 5, analyst: 100, desk: null };

/** Slip parses per rolling 24 hours (spec: free 1 per day, paid tiers 10 per day). */
export const SLIP_PARSES_PER_DAY: Readonly<Record<Tier, number>> = { free: 1, analyst: 10, desk: 10 };

/** What a tier is entitled to, in one object (GET /api/me). */
export interface Entitlements {
  modelPrice: boolean;
  parlayLegCap: number;
  /** null = unlimited. */
  scanReadsPerDay: number | null;
  slipParsesPerDay: number;
}

export function entitlementsOf(tier: Tier, scanReadsPerDay: Readonly<Record<Tier, number | null>> = SCAN_READS_PER_DAY): Entitlements {
  return {
    modelPrice: hasModelPriceEntitlement(tier),
    parlayLegCap: PARLAY_LEG_CAP[tier],
    scanReadsPerDay: scanReadsPerDay[tier],
    slipParsesPerDay: SLIP_PARSES_PER_DAY[tier],
  };
}
