import { z } from 'zod';
import { gradedSportSchema, sideSchema, sportSchema } from './sports.js';
import { statTypeSchema } from './stats.js';

/**
 * The typed records that provider adapters produce and the pipeline consumes. Adapters
 * normalise provider payloads into these; nothing downstream sees a provider's raw shape.
 * Optional/nullable fields stay absent or null when the provider did not supply them.
 */

/** A scheduled game (or bout) as an odds or schedule provider lists it. */
export const gameEventSchema = z.object({
  provider: z.string(),
  /** Provider event id (Odds API 32-hex id, ESPN event id, MLB gamePk). */
  id: z.string(),
  sport: sportSchema,
  /** ISO-8601 UTC start time. Events without one are dropped by the adapter. */
  commenceTime: z.string(),
  homeTeam: z.string(),
  awayTeam: z.string(),
  /** Team abbreviations when the provider or the team table supplies them. */
  homeAbbr: z.string().nullable(),
  awayAbbr: z.string().nullable(),
});
export type GameEvent = z.infer<typeof gameEventSchema>;

/** One side of one player prop at one book. A null line or price stays null. */
export const propQuoteSchema = z.object({
  eventId: z.string(),
  sport: gradedSportSchema,
  book: z.string(),
  stat: statTypeSchema,
  /** Player name exactly as the book spells it; normalised later by key. */
  player: z.string(),
  side: sideSchema,
  line: z.number().nullable(),
  /** American odds (converted from decimal when the payload was decimal). */
  price: z.number().nullable(),
  lastUpdate: z.string().nullable(),
});
export type PropQuote = z.infer<typeof propQuoteSchema>;

export const gameStatusSchema = z.enum(['scheduled', 'in_progress', 'final', 'postponed', 'suspended', 'canceled', 'unknown']);
export type GameStatus = z.infer<typeof gameStatusSchema>;

/** One player's real box-score line for one game: the projection input and the settlement truth. */
export const playerGameStatSchema = z.object({
  sport: gradedSportSchema,
  /** normalizeName(...).key */
  playerKey: z.string(),
  playerName: z.string(),
  /** Team abbreviation of the player's team in that game. */
  team: z.string().nullable(),
  opponent: z.string().nullable(),
  /** Game date in US Eastern time, yyyy-mm-dd. */
  date: z.string(),
  gameId: z.string().nullable(),
  /** Minutes (basketball, soccer) or null where the sport has none / unknown. 0 = did not play. */
  minutes: z.number().nullable(),
  stats: z.partialRecord(statTypeSchema, z.number().nullable()),
  /** Extra real per-game inputs for the model (fga, fta, usage proxies, batters faced...). */
  extras: z.record(z.string(), z.number().nullable()).default({}),
  source: z.string(),
});
export type PlayerGameStat = z.infer<typeof playerGameStatSchema>;
