import { z } from 'zod';
import { gradedSportSchema } from '../../domain/sports.js';
import { statTypeSchema } from '../../domain/stats.js';
import { archetype, fresh } from './answers-context.js';
import { hiddenSchema } from './answers-core.js';
import { int, num, wireDate, wireInstant, wireSchema } from './registry.js';
import { gradedRowSchema } from './rows.js';

/**
 * Answers of the stats routes (docs/stats.md): each is its feature's real read or the hidden state
 * `{ available: false, reason }` (`found: false` for the arsenal). A name that does not resolve
 * never reaches a body: the route answers 404.
 */

const statAverage = z.object({ stat: z.string(), avg: z.number(), n: int(), total: z.number() });
const candidate = z.object({ name: z.string(), key: z.string(), sport: gradedSportSchema });

export const playerStatsSchema = wireSchema(
  'PlayerStats',
  z.union([
    z.object({
      sport: gradedSportSchema,
      player: z.string(),
      key: z.string(),
      as_of: wireInstant(),
      props: z.array(gradedRowSchema),
      available: z.literal(true),
      profile: z.object({ team: z.string().nullable(), first_game: wireDate(), last_game: wireDate(), games: int(), played: int() }),
      seasons: z.array(z.object({ season: z.string(), from: wireDate(), games: int(), played: int(), minutes: z.object({ avg: z.number(), n: int() }).nullable(), stats: z.array(statAverage) })),
      form: z.object({
        window: z.string(),
        n: int(),
        stats: z.array(statAverage),
        games: z.array(z.object({ date: wireDate(), team: z.string().nullable(), opponent: z.string().nullable(), minutes: num(), values: z.record(z.string(), num()) })),
      }),
      archetype: archetype.nullable(),
      archetype_note: z.string().nullable(),
      ...fresh,
    }),
    z.object({ sport: gradedSportSchema, player: z.string(), key: z.string(), as_of: wireInstant(), props: z.array(gradedRowSchema), available: z.literal(false), reason: z.string(), ...fresh }),
    hiddenSchema({ player: z.string() }),
  ]),
);

export const leadersSchema = wireSchema(
  'StatLeaders',
  z.union([
    z.object({
      sport: gradedSportSchema,
      stat: statTypeSchema,
      label: z.string(),
      season: z.string(),
      from: wireDate(),
      until: wireDate(),
      available: z.literal(true),
      min_games: int(),
      min_games_rule: z.string(),
      team_games_max: int(),
      players: int(),
      qualified: int(),
      leaders: z.array(z.object({ rank: int(), key: z.string(), player: z.string(), team: z.string().nullable(), games: int(), avg: z.number(), total: z.number() })),
      coverage: z.string(),
      ...fresh,
    }),
    z.object({ sport: gradedSportSchema, stat: z.string(), season: z.string().optional(), available: z.literal(false), reason: z.string() }),
  ]),
);

export const gameBoxSchema = wireSchema(
  'GameBox',
  z.union([
    z.object({
      game_id: z.string(),
      sport: gradedSportSchema,
      source: z.enum(['store', 'espn summary', 'mlb statsapi live feed']),
      date: wireDate().nullable(),
      status: z.string().nullable(),
      teams: z.array(
        z.object({
          team: z.string().nullable(),
          opponent: z.string().nullable(),
          players: z.array(z.object({ player: z.string(), key: z.string(), minutes: num(), did_not_play: z.boolean(), values: z.record(z.string(), num()) })),
        }),
      ),
      players: int(),
      available: z.literal(true),
      ...fresh,
    }),
    z.object({ game_id: z.string(), sport: gradedSportSchema.nullable().optional(), available: z.literal(false), reason: z.string() }),
  ]),
);

export const arsenalSchema = wireSchema(
  'PitcherArsenal',
  z.union([
    z.object({
      found: z.literal(true),
      season: int(),
      pitcher: z.object({ name: z.string(), key: z.string(), mlbam_id: int(), team: z.string().nullable() }),
      pitches: z.array(
        z.object({ pitch_type: z.string(), pitch_name: z.string().nullable(), usage_pct: z.number(), whiff_pct: num(), velocity_mph: num(), k_pct: num(), pitches: num(), pa: num() }),
      ),
      strikeout_pct: num(),
      pa: num(),
      source: z.string(),
      ...fresh,
    }),
    z.object({ found: z.literal(false), season: int().optional(), query: z.string(), reason: z.string(), suggestions: z.array(candidate.extend({ similarity: z.number() }).partial({ sport: true })).optional() }),
  ]),
);

export const lineupSchema = wireSchema(
  'TeamLineups',
  z.union([
    z.object({
      sport: z.literal('mlb'),
      date: wireDate(),
      available: z.literal(true),
      rule: z.string(),
      games: z.array(
        z.object({
          game_id: z.string(),
          game: z.string(),
          commence_time: wireInstant(),
          status: z.string(),
          teams: z.array(
            z.object({
              team: z.string().nullable(),
              side: z.enum(['home', 'away']),
              posted: z.boolean().nullable(),
              source: z.string().nullable(),
              note: z.string().nullable(),
              players: z.array(z.object({ player: z.string(), key: z.string(), state: z.enum(['CONFIRMED', 'NOT_IN', 'PROJECTED']), batting_slot: int().nullable() })),
            }),
          ),
        }),
      ),
      counts: z.object({ CONFIRMED: int(), NOT_IN: int(), PROJECTED: int() }),
      ...fresh,
    }),
    hiddenSchema({ sport: gradedSportSchema, date: wireDate() }),
  ]),
);

export const depthSchema = wireSchema(
  'DepthChart',
  z.union([
    z.object({
      sport: z.enum(['nba', 'wnba', 'mlb']),
      team: z.object({ abbr: z.string(), name: z.string() }),
      available: z.literal(true),
      source: z.string(),
      provider_time: wireInstant().nullable(),
      provider_season: z.string().nullable(),
      stats_season: z.string(),
      positions: z.array(
        z.object({
          position: z.string(),
          basis: z.string(),
          players: z.array(
            z.object({
              depth: int(),
              player: z.string(),
              key: z.string(),
              jersey: z.string().nullable(),
              position: z.string().nullable(),
              injury: z.object({ status: z.string(), chip: z.string().nullable() }).nullable(),
              games: int().nullable().describe('stored played games for the team this season; null where the store cannot say (no line stored, or MLB: starting pitchers only)'),
              minutes_avg: num(),
            }),
          ),
        }),
      ),
      players: int(),
      ...fresh,
    }),
    hiddenSchema({ sport: z.enum(['nba', 'wnba', 'mlb']), team: z.object({ abbr: z.string(), name: z.string() }) }),
    hiddenSchema({ team: z.string() }),
  ]),
);

const split = z.object({ n: int(), minutes: z.object({ avg: z.number(), n: int() }).nullable(), stats: z.array(statAverage) });
export const cascadeSchema = wireSchema(
  'WithWithoutSplit',
  z.union([
    z.object({
      sport: gradedSportSchema,
      player: z.string(),
      key: z.string(),
      as_of: wireInstant(),
      available: z.literal(true),
      window: z.object({ from: wireDate(), until: wireDate() }),
      rule: z.string(),
      team: z.string(),
      team_games: int(),
      games_with: int(),
      games_without: int(),
      min_games: int(),
      teammates: z.array(
        z.object({
          player: z.string(),
          key: z.string(),
          with: split,
          without: split,
          delta: z.object({ minutes_avg: num(), stats: z.array(z.object({ stat: z.string(), delta_avg: num() })) }),
        }),
      ),
      below_minimum: int(),
      ...fresh,
    }),
    z.object({ sport: gradedSportSchema, player: z.string(), key: z.string(), as_of: wireInstant(), available: z.literal(false), reason: z.string(), ...fresh }),
    hiddenSchema({ player: z.string() }),
  ]),
);

export const showcaseSchema = wireSchema(
  'DeskShowcase',
  z.union([
    z.object({
      available: z.literal(true),
      snapshot_id: int(),
      taken_at: wireInstant(),
      slate_date: wireDate(),
      latest: z.boolean(),
      edge_rule: z.string(),
      sport: z.string(),
      event_id: z.string(),
      game: z.string(),
      commence_time: wireInstant(),
      player: z.string(),
      team: z.string().nullable(),
      stat: z.string(),
      side: z.string(),
      prop: z.object({ line: z.number(), grade: z.string(), main_line: z.boolean(), claim: z.object({ book: z.string(), odds: z.number(), fair_odds: num(), gradedAt: wireInstant() }).nullable().describe('the grade with the price, book, fair and time it was computed on (its lock)') }),
      variation: z.object({ distinct_grades: int(), spread: z.number(), grades: z.array(z.object({ grade: z.string(), rungs: int() })) }),
      rungs: z.array(
        z.object({
          line: z.number(),
          main_line: z.boolean().nullable(),
          book: z.string().nullable(),
          book_odds: num(),
          fair_odds: num(),
          fair_prob: num(),
          fair_source: z.string().nullable(),
          consensus_books: int().nullable(),
          thin_consensus: z.boolean().nullable(),
          outlier_price: z.boolean().nullable(),
          grade: z.string().nullable(),
          grade_uncapped: z.string().nullable().describe('the letter the EV earns uncapped'),
          cap_reason: z.string().nullable().describe('why grade sits below grade_uncapped (thin_consensus, alternate_rung, not_backtested, outlier_price, own_book_only, one_sided_market); null when not capped'),
          claim: z.object({ book: z.string(), odds: z.number(), fair_odds: num(), gradedAt: wireInstant() }).nullable().describe('the grade with the price, book, fair and time it was computed on (its lock)'),
          edge_pct: num(),
          edge_note: z.string().nullable(),
        }),
      ),
      correlation: z
        .object({
          coefficient: z.number(),
          relationship: z.literal('same_team'),
          note: z.string(),
          legs: z.array(z.object({ player: z.string(), team: z.string().nullable(), stat: z.string(), line: z.number(), side: z.string(), grade: z.string().nullable(), claim: z.object({ book: z.string(), odds: z.number(), fair_odds: num(), gradedAt: wireInstant() }).nullable().describe('the grade with the price, book, fair and time it was computed on (its lock)'), book: z.string().nullable(), book_odds: num() })),
        })
        .nullable(),
      correlation_note: z.string().nullable(),
      ...fresh,
    }),
    z.object({ available: z.literal(false), reason: z.string() }),
  ]),
);
