/**
 * Closing-line value of one ledger entry (docs/ledger.md, "Closing-line value").
 *
 * Sign convention: positive always means the market closed toward the entry's side (`beat`).
 * - Close at the locked line: clv = closingFairProb - lockedFairProb, both the de-vigged
 *   probability of the entry's own side. This is the spec's "locked minus closing" read in price
 *   terms: a locked price longer than the close means a higher closing probability, so both are
 *   positive together. Probabilities are used because American odds are discontinuous at ±100.
 * - Close at a different line: the prices are for different propositions and cannot be compared,
 *   so clv is null and the line carries the verdict: clvLine = closing - locked for an over,
 *   locked - closing for an under.
 * - No close captured (or one captured at or after the start): everything null, never backfilled.
 */
import { z } from 'zod';
import type { LedgerEntry } from './settlement.js';

/** Below half a percentage point of de-vigged probability at an unchanged line, the close did not move. */
export const FLAT_THRESHOLD = 0.005;

export const clvVerdictSchema = z.enum(['beat', 'faded', 'flat']);
export type ClvVerdict = z.infer<typeof clvVerdictSchema>;

export const clvResultSchema = z.object({
  /** Closing minus locked de-vigged probability of the entry's side; null unless the close is at the locked line. */
  clv: z.number().nullable(),
  /** Line points in the entry's favour; 0 when the close is at the locked line. */
  clvLine: z.number().nullable(),
  verdict: clvVerdictSchema.nullable(),
});
export type ClvResult = z.infer<typeof clvResultSchema>;

export type ClvInput = Pick<
  LedgerEntry,
  'side' | 'line' | 'lockedFairProb' | 'closingLine' | 'closingFairProb' | 'closingCapturedAt' | 'commenceTime'
>;

const NONE: ClvResult = { clv: null, clvLine: null, verdict: null };

export function computeClv(entry: ClvInput): ClvResult {
  const closingLine = capturedCloseLine(entry);
  if (closingLine === null) return NONE;

  if (closingLine !== entry.line) {
    const clvLine = entry.side === 'over' ? closingLine - entry.line : entry.line - closingLine;
    return { clv: null, clvLine, verdict: clvLine > 0 ? 'beat' : 'faded' };
  }

  const locked = entry.lockedFairProb;
  const closing = entry.closingFairProb;
  // A one-sided market at either end has no fair probability: the line alone says nothing moved.
  if (!isProbability(locked) || !isProbability(closing)) return { clv: null, clvLine: 0, verdict: null };
  const clv = closing - locked;
  return { clv, clvLine: 0, verdict: verdictFor(clv) };
}

function verdictFor(clv: number): ClvVerdict {
  if (Math.abs(clv) < FLAT_THRESHOLD) return 'flat';
  return clv > 0 ? 'beat' : 'faded';
}

/** The closing line, when one was captured strictly before the start; a later capture is not a close. */
function capturedCloseLine(entry: ClvInput): number | null {
  const { closingLine, closingCapturedAt } = entry;
  if (closingCapturedAt === null || closingLine === null || !Number.isFinite(closingLine)) return null;
  const captured = instantMs(closingCapturedAt);
  const start = instantMs(entry.commenceTime);
  if (!Number.isFinite(captured) || !Number.isFinite(start) || captured >= start) return null;
  return closingLine;
}

/**
 * Date.parse, memoised for UTC times (text ending in Z, which parses the same in any time zone):
 * the entries of one game share their start and those of one snapshot run their capture time, and
 * a settle reads tens of thousands of them (parsing was ~1.5% of a 100k-entry settle). Other text is
 * parsed each time.
 */
const utcMs = new Map<string, number>();
function instantMs(text: string): number {
  if (!text.endsWith('Z')) return Date.parse(text);
  let t = utcMs.get(text);
  if (t === undefined) {
    t = Date.parse(text);
    if (utcMs.size > 100_000) utcMs.clear();
    utcMs.set(text, t);
  }
  return t;
}

function isProbability(p: number | null): p is number {
  return p !== null && Number.isFinite(p) && p > 0 && p < 1;
}
