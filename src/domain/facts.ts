import type { PropRef } from './prop-ref.js';

/**
 * What the content desk knows about a day: plain records read from the store (src/store/repo/content-facts.ts)
 * and handed to the pure builders in src/content (report, pack, drafts). Declared here, below both,
 * so the store returns domain types. Nothing here is computed or defaulted; a field the store does
 * not hold is null.
 */

/** One graded row of a stored snapshot: the fields a free caller may see, plus the ranking inputs. */
export interface SlateRowFact extends PropRef {
  id: number;
  sport: string;
  commenceTime: string;
  homeTeam: string;
  awayTeam: string;
  player: string;
  team: string | null;
  opponent: string | null;
  grade: string | null;
  /** The letter the EV earns uncapped, and the cap holding grade below it (null: not capped). */
  gradeUncapped: string | null;
  capReason: string | null;
  projection: number | null;
  book: string | null;
  bookOdds: number | null;
  fairOdds: number | null;
  consensusBooks: number | null;
  thinConsensus: boolean | null;
  outlierPrice: boolean | null;
  fairSource: string | null;
  isMainLine: boolean | null;
  archetype: string | null;
  previousLine: number | null;
  lineDelta: number | null;
  lineDirection: 'toward' | 'away' | null;
  /** Games of the player's history behind the projection (model detail `sampleSize`), when stored. */
  sampleSize: number | null;
  /**
   * The model's EV % against the market at the graded price (`lockedOdds`). Used only to rank reads
   * inside a grade; never printed in public copy (it is withheld from free API callers, and the
   * daily report and tweets are public).
   */
  evPct: number | null;
  /** When the snapshot holding this row was taken: what "now" means for `book`, `bookOdds`, `fairOdds`. */
  takenAt: string;
  /**
   * The claim: the grade was computed on `lockedOdds` at `lockedBook` against a fair of
   * `lockedFairOdds` (no-vig consensus of `lockedConsensusBooks` other books), at `gradedAt`.
   * `book`, `bookOdds`, `fairOdds` and `consensusBooks` are the market now; copy that states a grade
   * quotes the claim's price, never the current one (docs/content.md "A claim travels with its price").
   */
  gradedAt: string;
  lockedBook: string | null;
  lockedOdds: number | null;
  lockedFairProb: number | null;
  /** fairAmerican(lockedFairProb): the fair price the grade was computed against. */
  lockedFairOdds: number | null;
  /** Other books behind the fair at the lock (the lock's model detail), when stored. */
  lockedConsensusBooks: number | null;
  /** How the fair at the lock was formed (consensus, market_implied, book), when stored. */
  lockedFairSource: string | null;
  /** The grade lock this row's claim comes from (grade_locks id), when the store holds it. */
  lockId: number | null;
  /** The current best price's EV at the current fair by the grade's rule; ranks and gates only, never printed. */
  evNowPct: number | null;
  /** Whether the claimed edge (A+, A, B) still holds at the current best price. */
  edgeNow: 'holds' | 'reduced' | 'gone' | null;
  /** False when the projection lies on the other side of the line from the graded side. */
  projectionAgrees: boolean | null;
}

/** A row whose grade carries the price it was computed on: the only kind a claim is quoted from. */
export type ClaimedRow = SlateRowFact & { grade: string; lockedOdds: number; lockedBook: string };
export const hasClaimPrice = (r: SlateRowFact): r is ClaimedRow => r.grade !== null && r.lockedOdds !== null && r.lockedBook !== null;

export interface SlateFact {
  sport: string;
  snapshotId: number;
  takenAt: string;
  slateDate: string;
  gradedCount: number;
  rowCount: number;
  /** The snapshot before it (same sport), which the line deltas were measured against; null for the first. */
  previous: { snapshotId: number; takenAt: string } | null;
  rows: SlateRowFact[];
}

/** One public ledger entry (user_id null). `price` is the book price the grade was given at. */
export interface LedgerFact extends PropRef {
  id: number;
  sport: string;
  commenceTime: string;
  gameDate: string;
  player: string;
  team: string | null;
  opponent: string | null;
  grade: string | null;
  book: string | null;
  price: number | null;
  /** The win probability the grade was given at (the market's fair unless a gated model term applies); the record's claimed EV needs it. */
  pWin: number | null;
  gradedAt: string;
  outcome: 'pending' | 'hit' | 'miss' | 'push' | 'void';
  actualValue: number | null;
  clvVerdict: 'beat' | 'faded' | 'flat' | null;
  /** The graded price's EV at the closing fair, percent of stake (one yardstick); null without a close at the line. */
  clvPct: number | null;
  /** own_book_devig: a close read the old way; its verdict never counts (domain/records.ts yardstickVerdict). */
  closeMethod: 'one_yardstick' | 'own_book_devig' | null;
  /** Minutes from the close's capture to the start (domain/close-lead.ts); null without a close. */
  closeLeadMinutes: number | null;
  /** The verdict against Pinnacle's own no-vig close and that close's lead; null where Pinnacle never priced the line. */
  pinnacleClvVerdict: 'beat' | 'faded' | 'flat' | null;
  pinnacleCloseLeadMinutes: number | null;
  /** The archetype the grade carried (grade_locks), when the lock stored one. */
  archetype: string | null;
}

/** One sport's record window (inclusive ET dates). */
export interface SportRecordWindow {
  sport: string;
  from: string;
  to: string;
}

export interface ContentFacts {
  /** The ET date the documents are for. */
  date: string;
  /** The clock, ISO-8601 UTC. */
  now: string;
  /** Per graded sport, the newest stored snapshot of `date`'s slate; sports without one are absent. */
  slates: SlateFact[];
  /**
   * The settle the documents report: the public entries of `settleDate`, which is `date` when any
   * entry of that date is settled, else the day before when any of its entries is, else null.
   */
  settleDate: string | null;
  settle: LedgerFact[];
  /** The span of `windows` (inclusive ET dates). */
  window: { from: string; to: string };
  /**
   * The record's window per graded sport, as `propgrade record` counts it: 30 days ending on the
   * sport's own data clock (a replayed store's sports were recorded on different days), or on `date`.
   */
  windows: SportRecordWindow[];
  /** Every public entry with a game date in its sport's window (settled or not). */
  record: LedgerFact[];
}
