import { z } from 'zod';
import { closeLeadBandSchema } from '../../domain/close-lead.js';
import { gradeSchema } from '../../domain/grades.js';
import { capReasonSchema } from '../../domain/model/grading.js';
import { RELATIONSHIPS } from '../../domain/parlay.js';
import { gradedSportSchema, sideSchema } from '../../domain/sports.js';
import { statTypeSchema } from '../../domain/stats.js';
import { tierSchema } from '../../domain/tiers.js';
import type { ScanResult } from '../../jobs/scan.js';
import { TIER_GRADES } from '../../domain/records.js';
import type { WireKey } from '../../wire.js';
import { int, num, wireDate, wireInstant, wireSchema } from './registry.js';
import { gradedRowSchema, ledgerEntrySchema, projectionViewFields, shapedFields, snapshotHeadSchema } from './rows.js';
import { slipBetWireSchema, slipLegWireSchema, slipResultWireSchema } from './slips.js';

/** A feature with nothing real to show: hidden, with the reason (never an invented value). */
export const hiddenSchema = <S extends Record<string, z.ZodType>>(context: S) => z.object({ ...context, available: z.literal(false), reason: z.string() });

// --- snapshot -------------------------------------------------------------------------------

const snapshotGame = z.object({ event_id: z.string(), game: z.string(), commence_time: wireInstant(), rows: z.array(gradedRowSchema) });

export const snapshotAnswerSchema = wireSchema(
  'SnapshotAnswer',
  z.union([
    z.object({ sport: gradedSportSchema, available: z.literal(true), tier: tierSchema, snapshot: snapshotHeadSchema, games: z.array(snapshotGame) }).describe('the full snapshot (no view parameter)'),
    z
      .object({
        sport: gradedSportSchema,
        available: z.literal(true),
        tier: tierSchema,
        view: z.enum(['full', 'card']),
        filters: z.object({ game: z.string().nullable(), player: z.string().nullable(), stat: statTypeSchema.nullable(), min_grade: gradeSchema.nullable(), main_only: z.boolean() }),
        snapshot: snapshotHeadSchema,
        games: z.array(snapshotGame.extend({ hidden: int().optional().describe('card view: graded rows of the game not shown') })),
      })
      .describe('a view (view, game, player, stat, min_grade or main=true given)'),
    z.object({ sport: gradedSportSchema, available: z.literal(false), tier: tierSchema }).describe('no snapshot stored for the sport'),
  ]),
);

export const snapshotSummarySchema = wireSchema(
  'SnapshotSummary',
  z.object({
    ran: z.boolean(),
    last_run_at: wireInstant().nullable(),
    last_run_sport: z.string().nullable(),
    expected_interval_minutes: z.number(),
    sync_status: z.enum(['normal', 'amber', 'stale']).nullable(),
    graded: int(),
    sports: z.array(z.object({ sport: gradedSportSchema, snapshot_id: int(), taken_at: wireInstant(), slate_date: wireDate(), graded: int(), rows: int() })),
    message: z.string().optional(),
  }),
);

export const snapshotRunsSchema = wireSchema(
  'SnapshotRuns',
  z.object({
    runs: z.array(
      z.object({
        sport: gradedSportSchema,
        run_id: int(),
        status: z.enum(['ok', 'empty', 'failed', 'locked', 'not_recorded']),
        slate_date: wireDate(),
        snapshot_id: int().nullable(),
        events: int(),
        rows: int(),
        graded: int(),
        refused: int(),
        dropped: int(),
        new_locks: int(),
        moves: int(),
        ledger_inserted: int(),
        closings_captured: int(),
        message: z.string().nullable(),
      }),
    ),
  }),
);

// --- board ----------------------------------------------------------------------------------

export const tickerSchema = wireSchema(
  'Ticker',
  z.object({
    visible: z.boolean().describe('false below 4 real items (and then no items)'),
    count: int(),
    items: z.array(z.object({ kind: z.enum(['MOVE', 'PIN']), text: z.string(), sport: z.string().nullable(), at: wireInstant().nullable(), source: z.enum(['snapshot', 'manual', 'env']) })),
  }),
);

export const heroPropSchema = wireSchema(
  'HeroProp',
  z.union([
    z.object({
      available: z.literal(true),
      latest: z.boolean(),
      sport: gradedSportSchema,
      snapshot_id: int(),
      gap: num(),
      claim: z
        .object({
          grade: gradeSchema.nullable(),
          book: z.string().nullable(),
          odds: num(),
          fair_odds: num(),
          graded_at: wireInstant(),
          now: z.object({ book: z.string().nullable(), odds: num(), fair_odds: num() }).describe('the market in the snapshot the hero was read from'),
        })
        .describe('the grade with the price, book, fair and time it was computed on (its lock)'),
      prop: gradedRowSchema,
    }),
    z.object({ available: z.literal(false) }),
  ]),
);

// --- record ---------------------------------------------------------------------------------

const windowSchema = z.object({ from: wireDate(), to: wireDate() });
/** Each sport's window: its entries are counted in the days ending on its own data clock. */
const sportWindows = z
  .array(z.object({ sport: gradedSportSchema, from: wireDate(), to: wireDate() }))
  .describe("the window each sport's entries were counted in, ending on that sport's data clock (window is their span)");
const gatedRate = z.object({ n: int(), successes: int(), pct: num(), ci95: z.tuple([z.number(), z.number()]).nullable(), state: z.enum(['ok', 'building']), label: z.string() });
/** Beat-close split by the close's lead time before the start (domain/close-lead.ts); pct null below n = 20 per band. */
const beatCloseByLead = z
  .array(
    z.object({
      band: closeLeadBandSchema.describe('within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h'),
      n: int(),
      beat: int(),
      faded: int(),
      flat: int(),
      pct: num().describe('percent of n that beat the close; null below n = 20'),
      ci95: z.tuple([z.number(), z.number()]).nullable(),
    }),
  )
  .describe('the beat-close verdicts by how long before the start the close was taken, nearest the start first');
/** The second yardstick (issue 43): the locked price against Pinnacle's own no-vig close at the locked line. */
const pinnacleRate = gatedRate.describe("share of the entries Pinnacle priced at the locked line whose locked price beat Pinnacle's own no-vig close (its last price before the start); beat_close is the consensus yardstick");
const pinnacleByLead = beatCloseByLead.describe("the Pinnacle-yardstick verdicts by how long before the start Pinnacle's close was taken, nearest the start first");
/** Beat close on both yardsticks, pooled and by lead band: the same figures in the record and the accuracy answer. */
const beatCloseFields = {
  beat_close: gatedRate.describe('share of closes (the consensus yardstick) that the locked price beat, whatever their lead time'),
  beat_close_by_lead: beatCloseByLead,
  beat_close_pinnacle: pinnacleRate,
  beat_close_pinnacle_by_lead: pinnacleByLead,
};
const unitsSchema = wireSchema(
  'Units',
  z
    .object({
      n: int(),
      units: num(),
      roi_pct: num(),
      state: z.enum(['ok', 'building']),
      roi_ci95: z.tuple([z.number(), z.number()]).nullable().describe('95% interval of the ROI, percent: a percentile bootstrap resampling whole games (docs/ledger.md "Intervals"); null below n = 20 or with one game'),
      unpriced: int(),
    })
    .describe('flat 1-unit stakes at the locked price'),
);
const counts = z.object({ entries: int(), hits: int(), misses: int(), pushes: int(), voids: int(), pending: int() });
const settledElsewhere = z
  .object({ settled: int(), latest_game_date: wireDate(), try_now: wireInstant().nullable(), try_days: int().nullable(), try_date: wireDate() })
  .nullable()
  .describe('where settled entries are when the window holds none');
const tierGrade = z.enum(TIER_GRADES);

export const accuracySchema = wireSchema(
  'Accuracy',
  z.object({
    window: windowSchema,
    windows: sportWindows,
    min_sample: int(),
    tiers: z.array(
      z.object({
        grade: tierGrade,
        n: int(),
        hits: int(),
        pct: num(),
        ci95: z.tuple([z.number(), z.number()]).nullable(),
        state: z.enum(['ok', 'learning']),
        label: z.string(),
        units: unitsSchema,
        ...beatCloseFields,
      }),
    ),
    beat_close: z.object(beatCloseFields).describe('every public entry in the windows together, as aggregate in GET /api/ledger/model'),
    settled_elsewhere: settledElsewhere,
  }),
);

export const modelRecordSchema = wireSchema(
  'ModelRecord',
  z.object({
    tiers: z.array(
      z.object({
        grade: tierGrade,
        counts,
        hit_rate: gatedRate,
        units: unitsSchema,
        claim: z.object({ n: int(), mean_ev_pct: num() }).describe("what the tier's grades claimed: the mean EV of its settled stakes' locked prices at their p_win, percent"),
        beat_close: gatedRate.describe("share of the tier's closes (one yardstick) that the locked price beat, whatever their lead time"),
        beat_close_by_lead: beatCloseByLead,
        beat_close_pinnacle: pinnacleRate,
        beat_close_pinnacle_by_lead: pinnacleByLead,
        clv: z.object({ beat: int(), faded: int(), flat: int() }),
        calibration: z.object({ n: int(), mean_p_win_pct: num(), actual: gatedRate }),
      }),
    ).describe('each tier against its own claim, first: the all-entries aggregate mixes claims of positive and negative EV'),
    aggregate: z.object({
      window: windowSchema,
      scope: z.object({ team: z.string().nullable(), player: z.string().nullable(), sport: z.string().nullable() }),
      counts,
      hit_rate: gatedRate,
      beat_close: gatedRate,
      beat_close_by_lead: beatCloseByLead,
      beat_close_pinnacle: pinnacleRate,
      beat_close_pinnacle_by_lead: pinnacleByLead,
      clv: z.object({ beat: int(), faded: int(), flat: int() }),
      units: unitsSchema,
    }),
    capped: z
      .array(z.object({ grade: gradeSchema, grade_uncapped: gradeSchema.nullable(), cap_reason: capReasonSchema, n: int() }))
      .describe("the window's entries whose letter a cap holds below what its EV earned, per letter, uncapped letter and reason"),
    settled_elsewhere: settledElsewhere,
    windows: sportWindows,
    total: int(),
    count: int(),
    limit: int(),
    entries: z.array(ledgerEntrySchema),
  }),
);

// --- grading --------------------------------------------------------------------------------

const gameRef = z.object({ event_id: z.string(), label: z.string(), commence_time: wireInstant(), opponent: z.string().nullable() });
const candidate = z.object({ name: z.string(), key: z.string(), sport: gradedSportSchema });

/** A scan read (jobs/scan.ts ScanResult) without its internal ledger and meter flags. */
const scanFields = {
  status: z.enum(['graded', 'refused', 'ambiguous', 'unknown_player']),
  request: z.object({ player: z.string(), stat: statTypeSchema, line: z.number(), direction: sideSchema }),
  sport: gradedSportSchema.optional(),
  player: z.object({ name: z.string(), key: z.string(), team: z.string().nullable() }).optional(),
  candidates: z.array(candidate).optional(),
  suggestions: z.array(candidate.extend({ similarity: z.number() })).optional(),
  game: gameRef.nullable().optional(),
  graded_for: wireDate().optional(),
  grade: gradeSchema.nullable(),
  grade_uncapped: gradeSchema.optional().describe('the letter the EV earns by the bands alone (graded reads only)'),
  cap_reason: capReasonSchema.nullable().optional().describe('why grade sits below grade_uncapped; null when not capped'),
  flags: z.array(z.string()),
  refusal_reason: z.string().optional(),
  projection: num(),
  p_win: num(),
  model_odds: num(),
  ev_pct: num(),
  value: num(),
  takeable: z.boolean().nullable(),
  ...projectionViewFields,
  intel: z.object({
    season_avg: z.number().optional(),
    form: z.number().optional(),
    usage: z.number().optional(),
    minutes_avg: z.number().optional(),
    archetype: z.string().optional(),
    games: int().optional(),
    season_from: wireDate().optional(),
  }),
  prices: z
    .object({
      book: z.string().nullable(),
      book_odds: z.number(),
      fair_odds: z.number(),
      fair_prob: num(),
      overround: num(),
      devig_method: z.string().nullable(),
      fair_source: z.string().nullable(),
      consensus_books: int().nullable(),
    })
    .nullable(),
};
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const scanKeysMatch: Same<keyof typeof scanFields | 'ledger' | 'metered', WireKey<keyof ScanResult>> = true;
void scanKeysMatch;

export const scanViewSchema = wireSchema('ScanView', z.object(shapedFields(scanFields)).describe('a scan read, tier-shaped'));

const meterSchema = z.object({ used: int(), limit: int(), window_hours: int() });

export const scanAnswerSchema = wireSchema(
  'ScanAnswer',
  z.object({ ...shapedFields(scanFields), ledger: z.object({ written: z.boolean(), reason: z.string().optional() }), metered: z.boolean(), meter: meterSchema.nullable().describe('null: unlimited tier') }),
);

export const scanMeterSchema = wireSchema(
  'ScanMeter',
  z.union([
    z.object({ unlimited: z.literal(false), used: int(), limit: int(), remaining: int(), window_hours: int(), window_start: wireInstant(), next_free_at: wireInstant().nullable() }),
    z.object({ unlimited: z.literal(true) }),
  ]),
);

const parlayLeg = z.object({
  leg: int(),
  player: z.string(),
  player_key: z.string().nullable(),
  stat: statTypeSchema,
  line: z.number(),
  side: sideSchema,
  sport: gradedSportSchema.nullable(),
  team: z.string().nullable(),
  game: gameRef.nullable(),
  archetype: z.string().nullable(),
  grade: gradeSchema.nullable(),
  grade_uncapped: gradeSchema.nullable().describe('the letter the leg\'s EV earns uncapped (null: no grade)'),
  cap_reason: capReasonSchema.nullable().describe('why grade sits below grade_uncapped; null when not capped'),
  refusal: z.string().optional(),
  candidates: z.array(candidate).optional(),
  projection: num(),
  book_odds: num(),
  fair_odds: num(),
  ...shapedFields(projectionViewFields),
});

export const parlayAnswerSchema = wireSchema(
  'ParlayAnswer',
  z.object({
    combined: z.object({ grade: gradeSchema.nullable(), provisional: z.boolean(), legs_used: int(), legs_total: int(), points: z.object({ average: num(), penalty: num(), combined: num() }) }),
    correlation: z.object({ average: num(), pairs: z.array(z.object({ a: int(), b: int(), relationship: z.enum(RELATIONSHIPS), score: num() })) }),
    payout: z
      .object({ decimal: z.number(), american: num() })
      .nullable()
      .describe("at the legs' market fair prices less the correlation haircut (docs/parlay.md), for every tier; null when a leg has no fair price or the correlation is unknown"),
    projection_payout: z
      .object({ decimal: z.number(), american: num() })
      .nullable()
      .optional()
      .describe("at the legs' projection prices, same haircut; analyst and desk only (absent for free: see upsell); null when a leg has no projection price"),
    upsell: z.string().optional().describe('free tier: what the paid tiers add'),
    warnings: z.array(z.string()),
    legs: z.array(parlayLeg),
    tier: tierSchema,
  }),
);

// --- players, team, schedule ----------------------------------------------------------------

export const playerSearchSchema = wireSchema(
  'PlayerSearch',
  z.object({ sport: gradedSportSchema, q: z.string(), results: z.array(z.object({ player: z.string(), key: z.string(), team: z.string().nullable(), last_seen: z.string().nullable() })) }),
);

export const teamHubSchema = wireSchema(
  'TeamHub',
  z.object({
    sport: gradedSportSchema,
    team: z.object({ abbr: z.string(), name: z.string() }),
    season_from: wireDate(),
    as_of: wireInstant(),
    roster: z.array(
      z.object({
        player: z.string(),
        key: z.string(),
        season_games: int(),
        minutes_avg: num(),
        averages: z.record(z.string(), num()).describe('per stat of the sport: the mean over played games'),
        archetype: z.object({ primary: z.string(), secondary: z.string().nullable(), blend: z.array(z.object({ id: z.string(), weight: z.number() })) }).nullable(),
      }),
    ),
    props: z.array(gradedRowSchema),
  }),
);

const scheduleHead = { sport: gradedSportSchema, available: z.literal(true), snapshot_id: int(), taken_at: wireInstant() };
const hiddenSport = hiddenSchema({ sport: gradedSportSchema });
export const lineupsSchema = wireSchema(
  'ScheduleLineups',
  z.union([
    z.object({
      ...scheduleHead,
      players: z.array(
        z.object({ player: z.string(), team: z.string().nullable(), event_id: z.string(), game: z.string(), commence_time: wireInstant(), lineup_status: z.enum(['CONFIRMED', 'NOT_IN', 'PROJECTED']), batting_slot: int().nullable() }),
      ),
    }),
    hiddenSport,
  ]),
);
export const injuriesSchema = wireSchema(
  'ScheduleInjuries',
  z.union([z.object({ ...scheduleHead, players: z.array(z.object({ player: z.string(), team: z.string().nullable(), event_id: z.string(), game: z.string(), injury_status: z.enum(['OUT', 'GTD', 'PROB']) })) }), hiddenSport]),
);
export const pitchersSchema = wireSchema(
  'SchedulePitchers',
  z.union([
    z.object({
      ...scheduleHead,
      games: z.array(z.object({ event_id: z.string(), game: z.string(), commence_time: wireInstant(), pitchers: z.array(z.object({ player: z.string(), team: z.string().nullable(), era: num() })) })),
    }),
    hiddenSport,
  ]),
);

// --- slips ----------------------------------------------------------------------------------

/** The slip reader's result (slips/schema.ts, on the wire: ./slips.ts), each leg's grading carrying the tier-shaped scan view. */
const slipLegWire = slipLegWireSchema.extend({
  grading: z
    .discriminatedUnion('status', [
      z.object({ status: z.literal('graded'), view: scanViewSchema }),
      z.object({ status: z.literal('refused'), refusal: scanViewSchema }),
      z.object({ status: z.literal('unavailable'), reason: z.string() }),
    ])
    .nullable(),
});
export const slipAnswerSchema = wireSchema(
  'SlipAnswer',
  slipResultWireSchema.extend({ bets: z.array(slipBetWireSchema.extend({ legs: z.array(slipLegWire) })), meter: meterSchema }),
);
