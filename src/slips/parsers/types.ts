import type { Field, SlipBet } from '../schema.js';

/** A bet as a layout parser reads it, with what the shared checks need to know about it. */
export type DraftBet = SlipBet & {
  /** Whether each amount printed cents (`$43.13`) or not (`$20`, or a misread `$4313`). */
  cents: { stake: boolean | null; payout: boolean | null };
  /** A Hard Rock profit boost's printed `+$X added`, part of the payout. */
  added: number | null;
  /** Applied to the bet price when stake × odds cannot confirm it (boosted slips). */
  distrustUnverifiedPrice: ((price: Field<number>) => void) | null;
};

export interface BookParse {
  bets: DraftBet[];
  warnings: string[];
}
