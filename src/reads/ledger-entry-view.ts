import type { ClvStatus } from '../domain/settlement.js';
import type { LedgerEntry } from '../store/repo/ledger.js';

/**
 * A public ledger entry in spec field names; p_win is the model field tier shaping removes.
 * `clv_status` is CLV as the ledger reads it (docs/ledger.md): the settled value, or the stored
 * close read the same way while pending, and why there is no close when there is none.
 */
export function ledgerEntryView(e: LedgerEntry, status: ClvStatus | null = null) {
  return {
    id: e.id,
    sport: e.sport,
    event_id: e.eventId,
    game_date: e.gameDate,
    commence_time: e.commenceTime,
    player: e.player,
    team: e.team,
    opponent: e.opponent,
    stat: e.statType,
    line: e.line,
    side: e.side,
    grade: e.grade,
    projection: e.projection,
    p_win: e.pWin,
    book: e.book,
    locked_price: e.lockedPrice,
    locked_fair_prob: e.lockedFairProb,
    locked_fair_source: e.lockedFairSource,
    locked_at: e.lockedAt,
    closing_line: e.closingLine,
    closing_price: e.closingPrice,
    closing_fair_prob: e.closingFairProb,
    closing_fair_source: e.closingFairSource,
    /** one_yardstick, or own_book_devig for a close stored before migration 0008 (never in a beat-close rate). */
    close_method: e.closeMethod,
    clv: e.clv,
    clv_pct: e.clvPct,
    clv_line: e.clvLine,
    clv_verdict: e.clvVerdict,
    ...(status ? { clv_status: status } : {}),
    outcome: e.outcome,
    actual: e.actualValue,
    settled_at: e.settledAt,
    revised_from_grade: e.revisedFromGrade,
  };
}
