import { z } from 'zod';
import { statTypeSchema } from '../domain/stats.js';
import { sideSchema } from '../domain/sports.js';

/** The four books with real layout evidence (../shared/slips/LAYOUTS.md). */
export const bookSchema = z.enum(['fanduel', 'draftkings', 'hardrock', 'prizepicks']);
export type Book = z.infer<typeof bookSchema>;

export const bboxSchema = z.object({ x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number() });
export type Bbox = z.infer<typeof bboxSchema>;

/**
 * One recognised word. `conf` is 0..1. Pasted text has no geometry, so `bbox` is null there
 * rather than an invented position.
 */
export const slipWordSchema = z.object({
  text: z.string(),
  conf: z.number().min(0).max(1),
  bbox: bboxSchema.nullable(),
});
export type SlipWord = z.infer<typeof slipWordSchema>;

/** What the OCR engine saw: words with boxes, plus the image size. Saved as test fixtures. */
export const ocrPageSchema = z.object({
  width: z.number().nullable(),
  height: z.number().nullable(),
  words: z.array(slipWordSchema),
});
export type OcrPage = z.infer<typeof ocrPageSchema>;

/**
 * A read value with its evidence. `value` is null when the slip does not show it or it could not
 * be read; `raw` keeps the text it came from; `reasons` say why `needsReview` is set.
 */
export function fieldSchema<T extends z.ZodType>(value: T) {
  return z.object({
    value: value.nullable(),
    raw: z.string().nullable(),
    confidence: z.number().min(0).max(1),
    needsReview: z.boolean(),
    reasons: z.array(z.string()),
  });
}

const stringField = fieldSchema(z.string());
const numberField = fieldSchema(z.number());

export const legGradingSchema = z.discriminatedUnion('status', [
  /** `view` is whatever the grading engine returns for a graded prop. */
  z.object({ status: z.literal('graded'), view: z.unknown() }),
  z.object({ status: z.literal('refused'), refusal: z.unknown() }),
  z.object({ status: z.literal('unavailable'), reason: z.string() }),
]);
export type LegGrading = z.infer<typeof legGradingSchema>;

export const slipLegSchema = z.object({
  /** The bold selection line as printed (`Jameson Williams Over 45.5`, `Over 174.5`, `4+`). */
  selection: stringField,
  player: stringField,
  /** The market subtitle as printed (`RECEIVING YDS`, `Anytime TD Scorer`, `Spread`). */
  market: stringField,
  /** Canonical stat when the market is a graded player stat; null otherwise (kept raw in `market`). */
  stat: fieldSchema(statTypeSchema),
  /** `N+` milestones are read as over N-0.5, which is the same bet on a whole-number stat. */
  line: numberField,
  side: fieldSchema(sideSchema),
  /** American odds printed for this leg; SGP legs print none. */
  price: numberField,
  needsReview: z.boolean(),
  /** Whether the leg carries player + canonical stat + line + side, all unflagged. */
  gradeable: z.boolean(),
  ungradeableReason: z.string().nullable(),
  grading: legGradingSchema.nullable(),
});
export type SlipLeg = z.infer<typeof slipLegSchema>;

export const slipBetSchema = z.object({
  /** Header as printed: `Same Game Parlay`, `4-Bet Parlay`, `2 Pick Round Robin`; null for a single. */
  betType: z.string().nullable(),
  /** Leg count the header states (`4-Bet Parlay` → 4), when it states one. */
  headerLegCount: z.number().int().nullable(),
  boosted: z.boolean(),
  bonusBet: z.boolean(),
  /** Bet-level American odds (parlay header); singles carry their price on the leg. */
  price: numberField,
  stake: numberField,
  payout: numberField,
  currency: z.string().nullable(),
  betId: stringField,
  legs: z.array(slipLegSchema),
  needsReview: z.boolean(),
});
export type SlipBet = z.infer<typeof slipBetSchema>;

export const slipResultSchema = z.object({
  source: z.enum(['image', 'text']),
  book: fieldSchema(bookSchema),
  /** A screenshot can hold several bet cards (Hard Rock "My Bets"). */
  bets: z.array(slipBetSchema),
  needsReview: z.boolean(),
  warnings: z.array(z.string()),
  ocr: z
    .object({ ms: z.number(), words: z.number().int(), meanConfidence: z.number().nullable() })
    .nullable(),
});
export type SlipResult = z.infer<typeof slipResultSchema>;

/** A field of any value type; derived from the schema so the two cannot drift. */
export type Field<T> = Omit<z.infer<typeof stringField>, 'value'> & { value: T | null };
