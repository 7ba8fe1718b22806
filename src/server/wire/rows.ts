import { z } from 'zod';
import { closeLeadBandSchema } from '../../domain/close-lead.js';
import { gradeSchema } from '../../domain/grades.js';
import { capReasonSchema } from '../../domain/model/grading.js';
import { noCloseReasonSchema } from '../../domain/settlement.js';
import { gradedSportSchema, sideSchema } from '../../domain/sports.js';
import { statTypeSchema } from '../../domain/stats.js';
import { MODEL_FIELDS, tierSchema } from '../../domain/tiers.js';
import type { GradedRowView } from '../../reads/views.js';
import { ledgerOutcomes } from '../../store/schema.js';
import type { ledgerEntryView } from '../../reads/ledger-entry-view.js';
import { wireKey, type WireKey } from '../../wire.js';
import { int, num, wireDate, wireInstant, wireSchema } from './registry.js';

/** The one error body of the API (envelope.ts): every 4xx and 5xx answer. */
export const errorEnvelopeSchema = wireSchema(
  'Error',
  z.object({
    error: z.object({
      code: z
        .enum(['BAD_INPUT', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'METHOD_NOT_ALLOWED', 'TOO_LARGE', 'RATE_LIMITED', 'CONFLICT', 'UNAVAILABLE', 'UNAVAILABLE_ON_REPLAY', 'UPSTREAM', 'EXPIRED', 'NOT_CONFIGURED', 'INTERNAL'])
        .describe('stable machine code; the HTTP status follows from it'),
      message: z.string().describe('for people: names the bad field or the reason'),
      details: z.unknown().optional().describe('per route: candidates or suggestions of a 404 name, meter use of a 429, reason of a 400/409/410'),
    }),
  }),
);

export const tierWire = tierSchema;
export const sportWire = gradedSportSchema;

/** The projection's held-out record (domain/projection-view.ts), beside its probability. */
export const projectionRecordSchema = wireSchema(
  'ProjectionRecord',
  z.object({
    held_out_from: wireDate(),
    held_out_to: wireDate(),
    props: int(),
    projection_log_loss: z.number(),
    market_log_loss: z.number(),
    projection_minus_market: z.number().describe('below 0: the projection predicted the held-out props better than the market'),
    interval: z.tuple([z.number(), z.number()]).nullable().describe('95% bootstrap interval over games of projection_minus_market; null where the back-test printed none'),
    source: z.string(),
  }),
);

/** The paid view (domain/projection-view.ts): withheld together from the free tier by shapeRow. */
export const projectionViewFields = {
  projection_prob: num().describe("the projection's own probability of the side (no push), from its count distribution; not the market's and never in the letter"),
  projection_odds: num().describe("the projection's fair American price for the side"),
  projection_ev_pct: num().describe("EV of the graded price at projection_prob, percent of stake; the letter stays the market's (ev_pct)"),
  projection_record: projectionRecordSchema.nullable().describe("the projection's held-out log loss against the market's for this sport and stat; null where none was run"),
};

/**
 * Every field of a graded row (reads/views.ts gradedRowView, the one builder of the wire
 * row). Adding a field to the view without adding it here fails the typecheck (below).
 */
const gradedRowFields = {
  player: z.string(),
  team: z.string().nullable(),
  opponent: z.string().nullable(),
  event_id: z.string(),
  game: z.string().describe('AWAY @ HOME'),
  commence_time: wireInstant(),
  stat_type: statTypeSchema,
  line: z.number(),
  main_line: z.boolean().nullable().describe('the line most books offer; false for alternate (ladder) rungs'),
  side: sideSchema,
  direction: sideSchema,
  grade: gradeSchema.nullable().describe('null: refused (see refusal_reason)'),
  grade_uncapped: gradeSchema.nullable().describe('the letter the EV earns by the bands alone; differs from grade only when cap_reason says why (null: refused, or a grade stored before caps were recorded)'),
  cap_reason: capReasonSchema.nullable().describe('why grade sits below grade_uncapped; null when the letter is not capped'),
  flags: z.array(z.enum(['insufficient_data'])),
  refusal_reason: z.string().nullable(),
  projection: num(),
  book: z.string().nullable(),
  over_odds: num(),
  under_odds: num(),
  book_odds: num(),
  fair_odds: num(),
  fair_prob: num(),
  overround: num(),
  devig_method: z.string().nullable(),
  fair_source: z.enum(['consensus', 'market_implied', 'book']).nullable(),
  consensus_books: int().nullable(),
  thin_consensus: z.boolean().nullable(),
  outlier_price: z.boolean().nullable(),
  outlier: z.object({ book: z.string(), odds: z.number() }).nullable(),
  model_odds: num(),
  p_win: num(),
  ev_pct: num(),
  value: num(),
  takeable: z.boolean().nullable(),
  archetype: z.string().nullable(),
  gradedAt: wireInstant(),
  line_delta: z.object({ delta: z.number(), previous_line: num(), direction: z.enum(['toward', 'away']).nullable() }).nullable(),
  lineup_status: z.enum(['CONFIRMED', 'NOT_IN', 'PROJECTED']).nullable(),
  batting_slot: int().nullable(),
  injury_status: z.enum(['OUT', 'GTD', 'PROB']).nullable(),
  locked_book: z.string().nullable().describe('the book the grade, p_win and ev_pct were computed on (its lock), at gradedAt'),
  locked_odds: num().describe('the American price the grade was computed on: ev_pct = p_win x decimal(locked_odds) - 1'),
  locked_fair_prob: num().describe("the market's fair probability of the side when the grade was locked"),
  ev_now_pct: num().describe('the current best price (book_odds) at the current fair (fair_prob), by the grade\'s rule'),
  edge_now: z.enum(['holds', 'reduced', 'gone']).nullable().describe('whether a locked claim of positive EV (A+, A, B) still holds at the price now'),
  projection_agrees: z.boolean().nullable().describe('false: the projection lies on the other side of the line from the graded side'),
  ...projectionViewFields,
};

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The wire row and its builder (camelCase, written snake_case by wire.ts) name the same fields: a field added to one only is a type error here. */
const gradedRowKeysMatch: Same<keyof typeof gradedRowFields, WireKey<keyof GradedRowView>> = true;
void gradedRowKeysMatch;

type Shape = Record<string, z.ZodType>;
/** The projection's fields as the wire names them (shapeRow works on the camelCase values). */
const MODEL = new Set<string>(MODEL_FIELDS.map(wireKey));

/**
 * A row after tier shaping (domain/tiers.ts shapeRow): callers with the entitlement get the
 * projection's view and model_price_locked false; others get none of it and true.
 */
export function shapedFields<S extends Shape>(shape: S) {
  const out: Shape = {};
  for (const [k, v] of Object.entries(shape)) out[k] = MODEL.has(k) ? v.optional().describe(`${v.description ?? "the projection's view"}; analyst and desk callers only`) : v;
  return { ...(out as { [K in keyof S]: S[K] }), model_price_locked: z.boolean().describe("true: the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record) was withheld for this tier") };
}

export const gradedRowSchema = wireSchema('GradedRow', z.object(shapedFields(gradedRowFields)).describe('A graded (or refused) prop, tier-shaped'));

/** A stored snapshot as the snapshot routes head it. */
export const snapshotHeadSchema = wireSchema('SnapshotHead', z.object({ id: int(), taken_at: wireInstant(), slate_date: wireDate(), graded: int(), rows: int() }));

/** CLV as the ledger reads it (domain/settlement.ts clvStatus). */
export const clvStatusSchema = wireSchema(
  'ClvStatus',
  z.object({
    clv: num(),
    clv_pct: num().describe("the locked price's EV at the closing fair, percent of stake; the verdict follows it"),
    clv_line: num(),
    verdict: z.enum(['beat', 'faded', 'flat']).nullable(),
    final: z.boolean(),
    no_close_reason: noCloseReasonSchema.nullable(),
    note: z.string().nullable(),
  }),
);

/** A public ledger entry (reads/ledger-entry-view.ts ledgerEntryView), tier-shaped. */
const ledgerEntryFields = {
  id: int(),
  sport: z.string(),
  event_id: z.string(),
  game_date: wireDate(),
  commence_time: wireInstant(),
  player: z.string(),
  team: z.string().nullable(),
  opponent: z.string().nullable(),
  stat: statTypeSchema,
  line: z.number(),
  side: sideSchema,
  grade: gradeSchema.nullable(),
  grade_uncapped: gradeSchema.nullable().describe('the letter the locked EV earns uncapped (null: not recorded)'),
  cap_reason: capReasonSchema.nullable().describe('why grade sits below grade_uncapped; null when not capped'),
  projection: num(),
  p_win: num(),
  book: z.string().nullable(),
  locked_price: num(),
  locked_fair_prob: num(),
  locked_fair_source: z.enum(['consensus', 'market_implied', 'book']).nullable(),
  locked_at: wireInstant(),
  closing_line: num(),
  closing_price: num(),
  closing_fair_prob: num(),
  closing_fair_source: z.enum(['consensus', 'market_implied', 'book']).nullable(),
  closing_captured_at: wireInstant().nullable().describe('when the close was captured'),
  close_lead_minutes: num().describe("minutes from the close's capture to the game's start; null without a close"),
  close_lead_band: closeLeadBandSchema.nullable().describe('within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h'),
  close_method: z.enum(['one_yardstick', 'own_book_devig']).nullable().describe('own_book_devig: a close stored before the one-yardstick change, never in a beat-close rate'),
  clv: num(),
  clv_pct: num(),
  clv_line: num(),
  clv_verdict: z.enum(['beat', 'faded', 'flat']).nullable(),
  clv_status: clvStatusSchema.optional(),
  close_books: z.array(z.string()).nullable().describe("the book keys whose prices formed the close (the consensus yardstick's books), sorted; null without a close"),
  pinnacle_closing_fair_prob: z.number().optional().describe("the second yardstick (issue 43): Pinnacle's own no-vig fair for the side at the locked line, from its last two-sided price before the start; absent where Pinnacle never priced the line"),
  pinnacle_close_lead_minutes: z.number().optional().describe("minutes from that Pinnacle price to the game's start; absent with it"),
  pinnacle_close_lead_band: closeLeadBandSchema.optional().describe('the band of pinnacle_close_lead_minutes (edges as close_lead_band); absent with it'),
  pinnacle_clv: z.number().optional().describe("Pinnacle's closing fair minus the locked fair; absent where either is missing"),
  pinnacle_clv_pct: z.number().optional().describe("the locked price's EV at Pinnacle's closing fair, percent of stake; absent where either is missing"),
  pinnacle_clv_verdict: z.enum(['beat', 'faded', 'flat']).optional().describe('beat, faded or flat (inside ±0.5%) against Pinnacle\'s close; absent where Pinnacle never priced the line'),
  outcome: z.enum(ledgerOutcomes),
  actual: num(),
  settled_at: wireInstant().nullable(),
  revised_from_grade: gradeSchema.nullable(),
};
const ledgerKeysMatch: Same<keyof typeof ledgerEntryFields, WireKey<keyof ReturnType<typeof ledgerEntryView>>> = true;
void ledgerKeysMatch;

export const ledgerEntrySchema = wireSchema('LedgerEntry', z.object(shapedFields(ledgerEntryFields)));
