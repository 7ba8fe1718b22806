import { z } from 'zod';

export const tierSchema = z.enum(['free', 'analyst', 'desk']);
export type Tier = z.infer<typeof tierSchema>;

/**
 * The one place that says who sees model prices. Both paid tiers hold the entitlement; free does
 * not. Any failure resolving a caller's tier resolves to free (fail closed).
 */
export function hasModelPriceEntitlement(tier: Tier): boolean {
  return tier === 'analyst' || tier === 'desk';
}

/** Withheld together: any one of them can be inverted into the model price. */
export const MODEL_FIELDS = ['model_odds', 'p_win', 'ev_pct', 'value', 'takeable'] as const;

export type ModelFields = { [K in (typeof MODEL_FIELDS)[number]]?: unknown };

/**
 * Tier shaping of any row that carries model fields: for a caller without the entitlement all
 * five are removed and the row is stamped `model_price_locked`. Book and fair prices stay.
 */
export function shapeRow<T extends ModelFields>(row: T, tier: Tier): Omit<T, (typeof MODEL_FIELDS)[number]> & { model_price_locked: boolean } {
  if (hasModelPriceEntitlement(tier)) return { ...row, model_price_locked: false };
  const out: Record<string, unknown> = { ...row };
  for (const f of MODEL_FIELDS) delete out[f];
  return { ...(out as Omit<T, (typeof MODEL_FIELDS)[number]>), model_price_locked: true };
}

/** Parlay leg caps per tier. */
export const PARLAY_LEG_CAP: Readonly<Record<Tier, number>> = { free: 2, analyst: 4, desk: 6 };
