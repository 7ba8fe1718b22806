import { closeLeadBand } from '../domain/close-lead.js';
import type { ClvStatus } from '../domain/settlement.js';
import { pinnacleFields, type ListedLedgerEntry } from './ledger-listing.js';

/**
 * A public ledger entry (camelCase; wire.ts writes the spec's names); pWin is the model field
 * tier shaping removes. `clvStatus` is CLV as the ledger reads it (docs/ledger.md): the settled value, or the stored
 * close read the same way while pending, and why there is no close when there is none.
 */
export function ledgerEntryView(e: Omit<ListedLedgerEntry, 'closeLeadBand' | 'clvStatus'>, status: ClvStatus | null = null) {
  return {
    id: e.id,
    sport: e.sport,
    eventId: e.eventId,
    gameDate: e.gameDate,
    commenceTime: e.commenceTime,
    player: e.player,
    team: e.team,
    opponent: e.opponent,
    stat: e.statType,
    line: e.line,
    side: e.side,
    grade: e.grade,
    gradeUncapped: e.gradeUncapped,
    capReason: e.capReason,
    projection: e.projection,
    pWin: e.pWin,
    book: e.book,
    lockedPrice: e.lockedPrice,
    lockedFairProb: e.lockedFairProb,
    lockedFairSource: e.lockedFairSource,
    lockedAt: e.lockedAt,
    closingLine: e.closingLine,
    closingPrice: e.closingPrice,
    closingFairProb: e.closingFairProb,
    closingFairSource: e.closingFairSource,
    closingCapturedAt: e.closingCapturedAt,
    /** How long before the start the close was taken, and its band (domain/close-lead.ts). */
    closeLeadMinutes: e.closeLeadMinutes,
    closeLeadBand: closeLeadBand(e.closeLeadMinutes),
    /** one_yardstick, or own_book_devig for a close stored before migration 0008 (never in a beat-close rate). */
    closeMethod: e.closeMethod,
    /** The books whose prices formed the close (null without one). */
    closeBooks: e.closeBooks,
    clv: e.clv,
    clvPct: e.clvPct,
    clvLine: e.clvLine,
    clvVerdict: e.clvVerdict,
    ...(status ? { clvStatus: status } : {}),
    /** The second yardstick (issue 43): present only where Pinnacle priced the locked line. */
    ...pinnacleFields(e),
    outcome: e.outcome,
    actual: e.actualValue,
    settledAt: e.settledAt,
    revisedFromGrade: e.revisedFromGrade,
  };
}
