import { TIER_GRADES } from '../../domain/records.js';

/**
 * The public record's columns as tally codes, the same SQL on both engines (repo/ledger-record.ts;
 * docs/performance.md, "Record aggregate"): the tier index (-1 for no tier), the outcome code (4 for
 * anything but hit, miss, push, void), the verdict on the one yardstick, p_win, the locked price and
 * the close's lead time and the game (the ROI interval resamples whole games), then the verdict
 * against Pinnacle's own close and its lead (issue 43), in the order
 * RecordTally.add takes them.
 */
const TIER_CASE = `case "grade" ${TIER_GRADES.map((g, i) => `when '${g}' then ${i}`).join(' ')} else -1 end`;
const OUTCOME_CASE = `case "outcome" when 'hit' then 0 when 'miss' then 1 when 'push' then 2 when 'void' then 3 else 4 end`;
const VERDICT = `case when "close_method" = 'own_book_devig' then null else "clv_verdict" end`;
export const TALLY_COLUMNS = tallyColumns(OUTCOME_CASE, VERDICT);

function tallyColumns(outcome: string, verdict: string, pinnacleVerdict = '"pinnacle_clv_verdict"'): string {
  return `${TIER_CASE}, ${outcome}, ${verdict}, "p_win", "locked_price", "close_lead_minutes", "event_id", ${pinnacleVerdict}, "pinnacle_close_lead_minutes"`;
}

/** An instant as SQL text: only the ISO form Date.toISOString writes (settled_at is stored in it), never other text. */
export function isoLiteral(at: Date): string {
  const iso = at.toISOString();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(iso)) throw new Error(`not an instant: ${iso}`);
  return `'${iso}'`;
}

/**
 * The same columns as of `asOf` (docs/ledger.md "As of a time"): an entry settled after it is still
 * pending then (outcome code 4) and has no settle-time CLV verdict yet.
 */
export function tallyColumnsAsOf(asOf: Date): string {
  const later = `"settled_at" is not null and "settled_at" > ${isoLiteral(asOf)}`;
  // Pinnacle's verdict is written when its close is captured: known only once that capture was (domain closeAsOf).
  const pinnacle = `case when "closing_captured_at" is not null and "closing_captured_at" <= ${isoLiteral(asOf)} then "pinnacle_clv_verdict" end`;
  return tallyColumns(`case when ${later} then 4 else ${OUTCOME_CASE} end`, `case when ${later} then null else ${VERDICT} end`, pinnacle);
}

/** Which public rows a record statement reads: `where` terms (joined by `and`) and their `?` arguments in order. */
export interface RecordFilter {
  where: string[];
  args: unknown[];
  /** The tally's columns when not TALLY_COLUMNS (an as-of read: tallyColumnsAsOf). */
  columns?: string;
}
