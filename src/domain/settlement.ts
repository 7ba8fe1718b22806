/**
 * Settlement of one ledger entry against the player's real result (docs/ledger.md, "Settlement").
 * Pure: the caller fetched the box score; this decides hit, miss, push, void or still pending,
 * and never guesses a missing number.
 */
import { z } from 'zod';
import { gameStatusSchema } from './entities.js';
import type { ledgerEntries } from '../store/schema.js';

export type LedgerEntry = typeof ledgerEntries.$inferSelect;

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
    })
    .nullable(),
});
export type GameResult = z.infer<typeof gameResultSchema>;

export const pendingReasonSchema = z.enum(['game_not_final', 'stat_missing']);
export const voidReasonSchema = z.enum(['not_in_box_score', 'zero_minutes']);

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
