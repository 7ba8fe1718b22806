import { z } from 'zod';
import { statTypeSchema } from '../../domain/stats.js';
import { sideSchema } from '../../domain/sports.js';
import { bookSchema, legGradingSchema, type SlipBet, type SlipLeg, type SlipResult } from '../../slips/schema.js';
import type { WireKey } from '../../wire.js';

/**
 * The slip reader's result as toWire writes it: slips/schema.ts in snake_case. Same checks and
 * the same shared field schema, so /openapi.json describes it exactly as before; the key ties
 * below fail the typecheck when a field is added to one side only.
 */
function fieldWire<T extends z.ZodType>(value: T) {
  return z.object({
    value: value.nullable(),
    raw: z.string().nullable(),
    confidence: z.number().min(0).max(1),
    needs_review: z.boolean(),
    reasons: z.array(z.string()),
  });
}

const stringField = fieldWire(z.string());
const numberField = fieldWire(z.number());

export const slipLegWireSchema = z.object({
  selection: stringField,
  player: stringField,
  market: stringField,
  stat: fieldWire(statTypeSchema),
  line: numberField,
  side: fieldWire(sideSchema),
  price: numberField,
  needs_review: z.boolean(),
  gradeable: z.boolean(),
  ungradeable_reason: z.string().nullable(),
  /** The slip answer replaces it with the tier-shaped scan view (answers-core.ts). */
  grading: legGradingSchema.nullable(),
});

export const slipBetWireSchema = z.object({
  bet_type: z.string().nullable(),
  header_leg_count: z.number().int().nullable(),
  boosted: z.boolean(),
  bonus_bet: z.boolean(),
  price: numberField,
  stake: numberField,
  payout: numberField,
  currency: z.string().nullable(),
  bet_id: stringField,
  legs: z.array(slipLegWireSchema),
  needs_review: z.boolean(),
});

export const slipResultWireSchema = z.object({
  source: z.enum(['image', 'text']),
  book: fieldWire(bookSchema),
  bets: z.array(slipBetWireSchema),
  needs_review: z.boolean(),
  warnings: z.array(z.string()),
  ocr: z.object({ ms: z.number(), words: z.number().int(), mean_confidence: z.number().nullable() }).nullable(),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Keys<T> = WireKey<Extract<keyof T, string>>;
const slipKeysMatch: [
  Same<keyof z.infer<typeof slipLegWireSchema>, Keys<SlipLeg>>,
  Same<keyof z.infer<typeof slipBetWireSchema>, Keys<SlipBet>>,
  Same<keyof z.infer<typeof slipResultWireSchema>, Keys<SlipResult>>,
  Same<keyof z.infer<typeof stringField>, Keys<SlipLeg['player']>>,
  Same<keyof NonNullable<z.infer<typeof slipResultWireSchema>['ocr']>, Keys<NonNullable<SlipResult['ocr']>>>,
] = [true, true, true, true, true];
void slipKeysMatch;
