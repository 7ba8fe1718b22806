import { z } from 'zod';
import { sideSchema } from '../../domain/sports.js';

/*
 * Raw payload shapes of The Odds API v4, as observed in shared/feeds/odds-api (NOTES.md §1).
 * Nested arrays are `unknown[]` on purpose: each bookmaker, market and outcome is parsed on its
 * own, so one bad element drops only itself, never the payload.
 */

export const rawEventSchema = z.object({
  id: z.string().min(1),
  sport_key: z.string().min(1),
  sport_title: z.string().optional(),
  commence_time: z.iso.datetime({ offset: true }),
  // null on outrights events (NOTES §1.6)
  home_team: z.string().nullish(),
  away_team: z.string().nullish(),
  has_outrights: z.boolean().optional(),
});

export const rawEventWithBooksSchema = rawEventSchema.extend({
  bookmakers: z.array(z.unknown()),
});

export const rawBookmakerSchema = z.object({
  key: z.string().min(1),
  title: z.string().optional(),
  // absent in live event odds, present in historical and /odds (NOTES §4.1)
  last_update: z.string().nullish(),
  markets: z.array(z.unknown()),
});

export const rawMarketSchema = z.object({
  key: z.string().min(1),
  // absent in 2021 payloads (NOTES §4.2)
  last_update: z.string().nullish(),
  outcomes: z.array(z.unknown()),
});

export const rawOutcomeSchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  price: z.number().nullish(),
  point: z.number().nullish(),
});

/** Historical endpoints wrap the live shape (NOTES §1.5). */
export const historicalWrapperSchema = z.object({
  timestamp: z.string(),
  previous_timestamp: z.string().nullish(),
  next_timestamp: z.string().nullish(),
  data: z.unknown(),
});

export const rawSportSchema = z.object({
  key: z.string().min(1),
  group: z.string(),
  title: z.string(),
  description: z.string(),
  active: z.boolean(),
  has_outrights: z.boolean(),
});

/* ---- records this adapter produces besides the shared domain entities ---- */

export const historicalSnapshotSchema = z.object({
  timestamp: z.string(),
  previousTimestamp: z.string().nullable(),
  nextTimestamp: z.string().nullable(),
});
export type HistoricalSnapshot = z.infer<typeof historicalSnapshotSchema>;

export const sportListingSchema = z.object({
  key: z.string(),
  group: z.string(),
  title: z.string(),
  description: z.string(),
  active: z.boolean(),
  hasOutrights: z.boolean(),
});
export type SportListing = z.infer<typeof sportListingSchema>;

/** One book's prices for one bout: moneyline per fighter and round totals (American odds). */
export const mmaBookOddsSchema = z.object({
  book: z.string(),
  lastUpdate: z.string().nullable(),
  moneyline: z.array(z.object({ fighter: z.string(), price: z.number().nullable() })),
  /** Over/under on the number of rounds; `rounds` is the line (null when the book gave none). */
  totals: z.array(z.object({ side: sideSchema, rounds: z.number().nullable(), price: z.number().nullable() })),
});
export type MmaBookOdds = z.infer<typeof mmaBookOddsSchema>;

/** A bout as The Odds API lists it; `books` is empty when no book has priced it yet. */
export const mmaFightOddsSchema = z.object({
  eventId: z.string(),
  commenceTime: z.string(),
  /** home_team, away_team: just the two fighters, no real home side (NOTES §4.9). */
  fighters: z.tuple([z.string(), z.string()]),
  books: z.array(mmaBookOddsSchema),
});
export type MmaFightOdds = z.infer<typeof mmaFightOddsSchema>;

/** One book's futures board for one outrights market (American odds). */
export const outrightBookSchema = z.object({
  eventId: z.string(),
  sportKey: z.string(),
  /** e.g. "MLB World Series Winner" (sport_title). */
  title: z.string().nullable(),
  book: z.string(),
  lastUpdate: z.string().nullable(),
  selections: z.array(z.object({ name: z.string(), price: z.number().nullable() })),
});
export type OutrightBook = z.infer<typeof outrightBookSchema>;
