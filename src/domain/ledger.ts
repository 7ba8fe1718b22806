/**
 * A ledger entry as the domain reads it (docs/ledger.md): one claim, locked before its game, then
 * settled against the box score with its closing-line value. The domain owns this shape; the
 * store's row type is checked against it (src/store/repo/ledger.ts), so the two cannot drift.
 */
import type { CapReason } from './model/grading.js';
import type { Side } from './sports.js';

export const LEDGER_OUTCOMES = ['pending', 'hit', 'miss', 'push', 'void'] as const;
export type LedgerOutcome = (typeof LEDGER_OUTCOMES)[number];
/** The outcomes a settle run writes. */
export type SettledOutcome = Exclude<LedgerOutcome, 'pending'>;

export type FairSource = 'consensus' | 'market_implied' | 'book';

export interface LedgerEntry {
  id: number;
  /** Null for the public record; a user's own claims carry the user. */
  userId: number | null;
  source: 'pipeline' | 'scan';
  sport: string;
  eventId: string;
  commenceTime: string;
  /** ET date of the game. */
  gameDate: string;
  player: string;
  playerKey: string;
  team: string | null;
  opponent: string | null;
  statType: string;
  line: number;
  side: Side;
  grade: string | null;
  /** The letter the locked EV earns uncapped (null: not recorded), and the cap holding grade below it (null: not capped). */
  gradeUncapped: string | null;
  capReason: CapReason | null;
  projection: number | null;
  pWin: number | null;
  book: string | null;
  lockedPrice: number | null;
  lockedFairProb: number | null;
  lockedFairSource: FairSource | null;
  lockedAt: string;
  /** When it was entered on the ledger (the writing run's data clock); null only before the backfill ran. */
  enteredAt: string | null;
  closingLine: number | null;
  closingPrice: number | null;
  closingFairProb: number | null;
  closingBook: string | null;
  closingCapturedAt: string | null;
  /** Minutes from the close's capture to the start (domain/close-lead.ts); null without a close. */
  closeLeadMinutes: number | null;
  closingFairSource: FairSource | null;
  closeMethod: 'one_yardstick' | 'own_book_devig' | null;
  clv: number | null;
  clvPct: number | null;
  clvLine: number | null;
  clvVerdict: 'beat' | 'faded' | 'flat' | null;
  /** Sorted book keys, comma-joined, whose prices formed the close; null without a close. */
  closeBooks: string | null;
  /** Pinnacle's no-vig close at the locked line (issue 43): its fair, lead, and the CLV against it; null where Pinnacle never priced the line. */
  pinnacleClosingFairProb: number | null;
  pinnacleCloseLeadMinutes: number | null;
  pinnacleClv: number | null;
  pinnacleClvPct: number | null;
  pinnacleClvVerdict: 'beat' | 'faded' | 'flat' | null;
  outcome: LedgerOutcome;
  actualValue: number | null;
  settledAt: string | null;
  revisedFromGrade: string | null;
}

/** The columns a settle run writes (its outcome, the result and the settle-time CLV). */
type SettleColumns = Pick<LedgerEntry, 'outcome' | 'actualValue' | 'settledAt' | 'clv' | 'clvPct' | 'clvLine' | 'clvVerdict'>;

/**
 * An entry as it stood at `asOf` (docs/ledger.md "As of a time"): one settled after it was still
 * pending then, with no result and no settle-time CLV yet. Null `asOf`: the entry as stored.
 */
export function entryAsOf<T extends SettleColumns>(e: T, asOf: Date | null): T {
  if (asOf === null || e.settledAt === null || e.settledAt <= asOf.toISOString()) return e;
  return { ...e, outcome: 'pending', actualValue: null, settledAt: null, clv: null, clvPct: null, clvLine: null, clvVerdict: null };
}

/** The columns a close capture writes: the close on the one yardstick and Pinnacle's beside it. */
type CloseColumns = Pick<
  LedgerEntry,
  'closingLine' | 'closingPrice' | 'closingFairProb' | 'closingBook' | 'closingCapturedAt' | 'closeLeadMinutes' | 'closingFairSource' | 'closeMethod' | 'closeBooks' | 'pinnacleClosingFairProb' | 'pinnacleCloseLeadMinutes' | 'pinnacleClv' | 'pinnacleClvPct' | 'pinnacleClvVerdict'
>;

const NO_CLOSE: CloseColumns = {
  closingLine: null,
  closingPrice: null,
  closingFairProb: null,
  closingBook: null,
  closingCapturedAt: null,
  closeLeadMinutes: null,
  closingFairSource: null,
  closeMethod: null,
  closeBooks: null,
  pinnacleClosingFairProb: null,
  pinnacleCloseLeadMinutes: null,
  pinnacleClv: null,
  pinnacleClvPct: null,
  pinnacleClvVerdict: null,
};

/**
 * An entry's close as known at `asOf` (docs/ledger.md "As of a time"): the store keeps only the last
 * capture, so one captured after `asOf` was not known then and is left out, not replaced by a guess.
 * A Pinnacle close with no capture time of its own is left out too. Null `asOf`: as stored.
 */
export function closeAsOf<T extends CloseColumns>(e: T, asOf: Date | null): T {
  if (asOf === null) return e;
  if (e.closingCapturedAt !== null ? e.closingCapturedAt <= asOf.toISOString() : e.pinnacleClosingFairProb === null && e.pinnacleClvVerdict === null) return e;
  return { ...e, ...NO_CLOSE };
}
