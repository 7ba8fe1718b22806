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
export const TALLY_COLUMNS = `${TIER_CASE}, ${OUTCOME_CASE}, ${VERDICT}, "p_win", "locked_price", "close_lead_minutes", "event_id", "pinnacle_clv_verdict", "pinnacle_close_lead_minutes"`;

/** Which public rows a record statement reads: `where` terms (joined by `and`) and their `?` arguments in order. */
export interface RecordFilter {
  where: string[];
  args: unknown[];
}
