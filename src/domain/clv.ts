/**
 * Closing-line value of one claim (docs/ledger.md, "Closing-line value"): the one CLV function the
 * ledger, the record's beat-close rate, the content desk and the back-test all call.
 *
 * One yardstick: the fair probability at the lock and at the close are the same quantity at two
 * times: the market's fair for the entry's side at the locked line, read by the rule that graded it
 * (the no-vig consensus of the other books; for a rung, the market-implied price of that rung; the
 * graded book's own pair only where the grade itself used it). So:
 * - clvPct = 100 x (closing fair x decimal(locked price) - 1): the locked price's EV at the close,
 *   the standard "beat the closing line" measure. The verdict follows it (flat inside +/-0.5%).
 * - clv = closing fair - locked fair: the market's move toward the side, in probability.
 * - A close that could only be read at another line: the prices belong to different propositions,
 *   so clv and clvPct are null and the line carries the verdict (clvLine = closing - locked for an
 *   over, locked - closing for an under).
 * - No close captured (or one captured at or after the start): everything null, never backfilled.
 */
import { z } from 'zod';
import { evPctAt } from './claim.js';
import type { Side } from './sports.js';

/** Inside half a percent of stake either way, the close did not move the locked price's value. */
export const FLAT_PCT = 0.5;

export const clvVerdictSchema = z.enum(['beat', 'faded', 'flat']);
export type ClvVerdict = z.infer<typeof clvVerdictSchema>;

export const clvResultSchema = z.object({
  /** Closing minus locked fair probability of the entry's side; null unless the close is at the locked line. */
  clv: z.number().nullable(),
  /** The locked price's EV at the closing fair, percent of stake; null unless the close is at the locked line. */
  clvPct: z.number().nullable(),
  /** Line points in the entry's favour; 0 when the close is at the locked line. */
  clvLine: z.number().nullable(),
  verdict: clvVerdictSchema.nullable(),
});
export type ClvResult = z.infer<typeof clvResultSchema>;

export interface ClvInput {
  side: Side;
  line: number;
  /** American price the claim was made on. */
  lockedPrice: number | null;
  lockedFairProb: number | null;
  closingLine: number | null;
  closingFairProb: number | null;
  closingCapturedAt: string | null;
  commenceTime: string;
}

const NONE: ClvResult = { clv: null, clvPct: null, clvLine: null, verdict: null };

export function computeClv(entry: ClvInput): ClvResult {
  const closingLine = capturedCloseLine(entry);
  if (closingLine === null) return NONE;

  if (closingLine !== entry.line) {
    const clvLine = entry.side === 'over' ? closingLine - entry.line : entry.line - closingLine;
    return { clv: null, clvPct: null, clvLine, verdict: clvLine > 0 ? 'beat' : 'faded' };
  }

  const closing = isProbability(entry.closingFairProb) ? entry.closingFairProb : null;
  const locked = isProbability(entry.lockedFairProb) ? entry.lockedFairProb : null;
  const clvPct = closing === null ? null : evPctAt(closing, entry.lockedPrice);
  const clv = closing === null || locked === null ? null : closing - locked;
  return { clv, clvPct, clvLine: 0, verdict: clvPct === null ? null : verdictFor(clvPct) };
}

/** The verdict of a locked price's EV at the close. */
export function verdictFor(clvPct: number): ClvVerdict {
  if (Math.abs(clvPct) < FLAT_PCT) return 'flat';
  return clvPct > 0 ? 'beat' : 'faded';
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
