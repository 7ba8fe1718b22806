import { z } from 'zod';
import { gradedSportSchema, sideSchema, sportSchema } from '../../domain/sports.js';
import { gameStatusSchema } from '../../domain/entities.js';
import { newsItemSchema } from '../../feeds/espn/index.js';
import { int, num, wireDate, wireInstant, wireSchema } from './registry.js';
import { hiddenSchema } from './answers-core.js';

/**
 * Answers of the context routes (docs/context.md, docs/live.md).
 * Each is its feature's real read or the hidden state `{ available: false, reason }` (or `found:
 * false` for the arsenal). Nested provider shapes are described as far as clients read them;
 * a loose object below says "at least these fields".
 */

/**
 * How fresh a provider-backed answer is (domain/freshness.ts). Live: fetched_at and age_seconds.
 * Replayed: replay true, recorded_at (when the recording it read was made, the newest manifest
 * entry; null when the manifest gives no time) and read_as_of (the data clock); no fetch time and
 * no age, since nothing was fetched at the data clock.
 */
export const fresh = {
  fetched_at: wireInstant().optional().describe('live answers: when the provider was asked (absent on a replayed answer)'),
  age_seconds: z.number().optional().describe('live answers: seconds since fetched_at (absent on a replayed answer)'),
  replay: z.literal(true).optional().describe('present on an answer read from a recording (a replayed store)'),
  recorded_at: wireInstant().nullable().optional().describe("replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time)"),
  read_as_of: wireInstant().optional().describe('replayed answers: the data clock the recording was read as of'),
  stale: z.boolean(),
  stale_reason: z.string().optional(),
};
export const archetype = z.object({ primary: z.string(), secondary: z.string().nullable(), blend: z.array(z.object({ id: z.string(), weight: z.number() })) });

// --- context routes -------------------------------------------------------------------------

export const liveSchema = wireSchema(
  'LiveTracking',
  z.union([
    z.object({
      sport: gradedSportSchema,
      date: wireDate(),
      available: z.literal(true),
      tracking: z.literal(true),
      note: z.string(),
      games: z.array(
        z.object({ game_id: z.string(), home: z.string().nullable(), away: z.string().nullable(), status: gameStatusSchema, clock: z.string().nullable(), box_score: z.enum(['ok', 'not_started', 'unavailable']) }),
      ),
      count: int(),
      state_counts: z
        .array(z.object({ state: z.string().nullable(), count: int() }))
        .describe('Rows per state in state order (HIT, ON PACE, NEEDS, HOLDS, LINE PASSED, PUSH, MISS, VOID, then null: no state)'),
      rows: z.array(
        z.object({
          player: z.string(),
          team: z.string().nullable(),
          opponent: z.string().nullable(),
          stat: z.string(),
          line: z.number(),
          side: sideSchema,
          grade: z.string().nullable(),
          source: z.enum(['ledger', 'slate']),
          outcome: z.string().nullable(),
          phase: z.enum(['tracking', 'final', 'settled']).describe("tracking: the game so far; final: the final box score's outcome by the settlement rule, not yet in the ledger; settled: the ledger's outcome"),
          game_id: z.string().nullable(),
          game_status: gameStatusSchema.nullable(),
          current: num(),
          state: z.string().nullable().describe('While the game runs: HIT, ON PACE, NEEDS, HOLDS, LINE PASSED; once final: HIT, MISS, PUSH, VOID (docs/live.md); null without a value'),
          label: z.string().nullable(),
          needs: num(),
          pace_projection: num(),
          elapsed_share: num(),
          proximity: num(),
          note: z.string().nullable(),
        }),
      ),
      ...fresh,
    }),
    hiddenSchema({ sport: gradedSportSchema, date: wireDate() }),
  ]),
);

export const newsSchema = wireSchema(
  'NewsWire',
  z.union([
    z.object({
      sport: sportSchema,
      available: z.literal(true),
      count: int(),
      items: z.array(newsItemSchema),
      ...fresh,
    }),
    hiddenSchema({ sport: sportSchema }),
  ]),
);

const futuresSport = z.enum(['mlb', 'nba', 'wnba']);
export const futuresSchema = wireSchema(
  'Futures',
  z.union([
    z.object({
      sport: futuresSport,
      available: z.literal(true),
      updated_at: wireInstant(),
      markets: z.array(
        z.object({
          key: z.string(),
          title: z.string(),
          selections: z.array(
            z.object({ name: z.string(), price: z.number(), book: z.string(), books: int(), prev_price: z.number().optional(), move: z.enum(['shortening', 'drifting', 'flat']).optional() }),
          ),
        }),
      ),
      ...fresh,
    }),
    hiddenSchema({ sport: futuresSport }),
  ]),
);

const bestPrice = z.object({ price: z.number(), book: z.string() });
const bout = wireSchema(
  'Bout',
  z.object({
    id: z.string(),
    league: z.string(),
    card: z.object({ event_id: z.string(), name: z.string().nullable(), date: z.string().nullable() }),
    date: z.string().nullable(),
    status: gameStatusSchema,
    weight_class: z.string().nullable(),
    scheduled_rounds: int().nullable(),
    fighters: z.array(
      z.object({ name: z.string(), key: z.string(), athlete_id: z.string().nullable(), record: z.string().nullable(), country: z.string().nullable(), winner: z.boolean().nullable(), style: archetype.nullable() }),
    ),
    odds: z
      .object({
        event_id: z.string(),
        books: int(),
        moneyline: z.array(z.object({ fighter: z.string(), best: bestPrice.nullable() })),
        round_totals: z.array(z.object({ rounds: z.number(), over: bestPrice.nullable(), under: bestPrice.nullable() })),
      })
      .nullable(),
    odds_note: z.string().nullable(),
    data_limited: z.array(z.string()),
    style_edge: z.object({ kind: z.literal('model read, not a grade'), edge: z.string().nullable(), score: num(), reason: z.string() }),
  }),
);
const oddsState = z.union([z.object({ available: z.literal(true), ...fresh }), z.object({ available: z.literal(false), reason: z.string() })]);

export const combatSchema = wireSchema(
  'FightCards',
  z.union([
    z.object({
      date: wireDate(),
      available: z.literal(true),
      cards: z.array(z.object({ league: z.string(), event_id: z.string(), name: z.string().nullable(), date: z.string().nullable(), bouts: z.array(bout), skipped_bouts: int() })),
      leagues_unavailable: z.array(z.string()),
      odds: oddsState,
      data_limited: z.array(z.string()),
      ...fresh,
    }),
    hiddenSchema({ date: wireDate() }),
  ]),
);

export const fightSchema = wireSchema(
  'Fight',
  z.union([z.object({ available: z.literal(true), bout, odds: oddsState, ...fresh }), hiddenSchema({ id: z.string() })]),
);
