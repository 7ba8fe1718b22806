/**
 * Settlement of one ledger entry against the player's real result (docs/ledger.md, "Settlement").
 * Pure: the caller fetched the box score; this decides hit, miss, push, void or still pending,
 * and never guesses a missing number.
 */
import { z } from 'zod';
import { computeClv } from './clv.js';
import { gameStatusSchema } from './entities.js';
import type { LedgerEntry } from './ledger.js';

export type { LedgerEntry } from './ledger.js';

/** What the box score says about one player in one game. */
export const gameResultSchema = z.object({
  status: gameStatusSchema,
  /**
   * The player's row in the box score, or null when a *final* box score was read and does not
   * list the player (did not play). Never pass null because the fetch failed: pass no result.
   */
  boxScore: z
    .object({
      /** The settled stat for the entry's stat type; null when the row lacks it. */
      stat: z.number().nullable(),
      /** Minutes played where the sport has minutes; null where it has none (MLB) or unknown. */
      minutes: z.number().nullable(),
      /**
       * Pitcher props only: whether the listed pitcher started (threw his team's first pitch). A
       * pitcher prop stands only if he did (books' "must start" rule); absent = not a pitcher prop.
       */
      started: z.boolean().nullable().optional(),
    })
    .nullable(),
});
export type GameResult = z.infer<typeof gameResultSchema>;

export const pendingReasonSchema = z.enum(['game_not_final', 'stat_missing']);
export const voidReasonSchema = z.enum(['not_in_box_score', 'zero_minutes', 'did_not_start']);

export const settlementSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('pending'),
    reason: pendingReasonSchema,
    /** The game status that kept it pending (for game_not_final), for logs and the CLI. */
    status: gameStatusSchema,
  }),
  z.object({ outcome: z.literal('void'), reason: voidReasonSchema }),
  z.object({ outcome: z.enum(['hit', 'miss', 'push']), actualValue: z.number() }),
]);
export type Settlement = z.infer<typeof settlementSchema>;

/** Decide an entry's outcome; only `line` and `side` of the entry matter. */
export function settleEntry(entry: Pick<LedgerEntry, 'line' | 'side'>, result: GameResult): Settlement {
  // Postponed, suspended, canceled, live or unknown: nothing is decided until the game is final.
  if (result.status !== 'final') return { outcome: 'pending', reason: 'game_not_final', status: result.status };
  const row = result.boxScore;
  if (row === null) return { outcome: 'void', reason: 'not_in_box_score' };
  if (row.minutes === 0) return { outcome: 'void', reason: 'zero_minutes' };
  if (row.started === false) return { outcome: 'void', reason: 'did_not_start' };
  if (row.stat === null || !Number.isFinite(row.stat)) {
    return { outcome: 'pending', reason: 'stat_missing', status: result.status };
  }
  return { outcome: compare(row.stat, entry.line, entry.side), actualValue: row.stat };
}

function compare(stat: number, line: number, side: LedgerEntry['side']): 'hit' | 'miss' | 'push' {
  // Exact equality is intended: box-score stats are whole numbers, so only whole-number lines can push.
  if (stat === line) return 'push';
  const overWins = stat > line;
  return overWins === (side === 'over') ? 'hit' : 'miss';
}

/**
 * What the stored record says about the snapshots after the entry's lock: how many snapshots of
 * the entry's sport were taken strictly after its lock and before its start, and whether any of
 * them carried its game (graded rows for its event). Nothing else is inferred.
 */
export interface CloseContext {
  snapshotsAfterLock: number;
  carriedGame: boolean;
}

/** Why an entry shows no CLV (docs/ledger.md, "Why a close is missing"). */
export const noCloseReasonSchema = z.enum([
  'not_captured_yet',
  'no_book',
  'no_snapshot_after_lock',
  'game_not_in_later_snapshots',
  'market_stopped_pricing',
  'no_capture_before_start',
  'captured_after_start',
  'one_sided_market',
]);
export type NoCloseReason = z.infer<typeof noCloseReasonSchema>;

export const NO_CLOSE_NOTES: Readonly<Record<NoCloseReason, string>> = {
  not_captured_yet: 'no close captured yet: the game has not started, and each snapshot before the start captures one',
  no_book: 'no close: the entry has no book to read a close at',
  no_snapshot_after_lock: 'no close: no snapshot ran between the lock and the start',
  game_not_in_later_snapshots: 'no close: the snapshots after the lock did not carry this game',
  market_stopped_pricing: 'no close: the later snapshots carried the game but nothing priced the locked line by the rule that graded it',
  no_capture_before_start: 'no close: nothing was captured before the start',
  captured_after_start: 'no close: the only capture came at or after the start, which is not a close',
  one_sided_market: 'no CLV: the close is at the locked line but a one-sided market gives no fair probability to compare',
};

/** The ledger's reading of an entry's CLV: the settled value, or the same function over the stored close while pending. */
export interface ClvStatus {
  clv: number | null;
  /** The locked price's EV at the closing fair, percent of stake. */
  clvPct: number | null;
  clvLine: number | null;
  verdict: 'beat' | 'faded' | 'flat' | null;
  /** False while the game has not started: a later snapshot may still replace the close. */
  final: boolean;
  noCloseReason: NoCloseReason | null;
  note: string | null;
}

type ClvStatusInput = Pick<
  LedgerEntry,
  'outcome' | 'side' | 'line' | 'book' | 'lockedPrice' | 'lockedFairProb' | 'closingLine' | 'closingFairProb' | 'closingCapturedAt' | 'commenceTime' | 'clv' | 'clvPct' | 'clvLine' | 'clvVerdict'
>;

/**
 * CLV as the ledger shows it at `now`. A settled entry carries what the settle run wrote; a pending
 * one is read with `computeClv` over the stored close (what settling would write). When there is
 * no verdict, the reason comes only from stored fields and the snapshot context.
 */
export function clvStatus(entry: ClvStatusInput, now: Date, context: CloseContext | null): ClvStatus {
  const settled = entry.outcome !== 'pending';
  // A settled entry's game is over whatever the read clock says (a replayed store reads as of its snapshot).
  const started = settled || Date.parse(entry.commenceTime) <= now.getTime();
  const value = settled ? { clv: entry.clv, clvPct: entry.clvPct, clvLine: entry.clvLine, verdict: entry.clvVerdict } : computeClv(entry);
  const final = settled || started;
  if (value.verdict !== null) return { ...value, final, noCloseReason: null, note: null };
  const reason = noCloseReason(entry, started, context);
  return { ...value, final, noCloseReason: reason, note: NO_CLOSE_NOTES[reason] };
}

function noCloseReason(entry: ClvStatusInput, started: boolean, context: CloseContext | null): NoCloseReason {
  if (entry.closingCapturedAt !== null && entry.closingLine !== null) {
    if (Date.parse(entry.closingCapturedAt) >= Date.parse(entry.commenceTime)) return 'captured_after_start';
    return 'one_sided_market';
  }
  if (entry.book === null) return 'no_book';
  if (!started) return 'not_captured_yet';
  if (context === null) return 'no_capture_before_start';
  if (context.snapshotsAfterLock === 0) return 'no_snapshot_after_lock';
  if (!context.carriedGame) return 'game_not_in_later_snapshots';
  return 'market_stopped_pricing';
}
