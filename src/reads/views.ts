import type { GradedRowRecord } from '../store/repo/snapshots.js';

/**
 * The public shape of a graded row (spec field names), shared by `slate --json` and the HTTP
 * API. Absent values stay null; model fields are present here and removed by tier shaping.
 */
export function gradedRowView(r: GradedRowRecord) {
  return {
    player: r.player,
    team: r.team,
    opponent: r.opponent,
    event_id: r.eventId,
    game: `${r.awayTeam} @ ${r.homeTeam}`,
    commence_time: r.commenceTime,
    stat_type: r.statType,
    line: r.line,
    /** The line most books offer for this player and stat; false for alternate (ladder) lines. */
    main_line: r.isMainLine,
    side: r.side,
    direction: r.side,
    grade: r.grade,
    flags: r.insufficientData ? ['insufficient_data'] : [],
    refusal_reason: r.refusalReason,
    projection: r.projection,
    book: r.book,
    over_odds: r.overOdds,
    under_odds: r.underOdds,
    book_odds: r.bookOdds,
    fair_odds: r.fairOdds,
    fair_prob: r.fairProb,
    overround: r.overround,
    devig_method: r.devigMethod,
    /** Market fields (never gated): where fair_prob came from and how many books formed it. */
    fair_source: r.fairSource,
    consensus_books: r.consensusBooks,
    thin_consensus: r.thinConsensus,
    outlier_price: r.outlierPrice,
    outlier: r.outlierBook === null || r.outlierOdds === null ? null : { book: r.outlierBook, odds: r.outlierOdds },
    model_odds: r.modelOdds,
    p_win: r.pWin,
    /** EV of locked_odds at p_win: the claim the grade makes, at the price and time it was made on. */
    ev_pct: r.evPct,
    value: r.value,
    takeable: r.takeable,
    archetype: r.archetype,
    gradedAt: r.gradedAt,
    /** The price the grade, p_win and ev_pct were computed on; book and book_odds are the market now. */
    locked_book: r.lockedBook,
    locked_odds: r.lockedOdds,
    locked_fair_prob: r.lockedFairProb,
    /** The current best price's EV against the current fair (gated like ev_pct), and whether the claim's edge still holds. */
    ev_now_pct: r.evNowPct,
    edge_now: r.edgeNow,
    /** False when the projection lies on the other side of the line from the graded side. */
    projection_agrees: r.projectionAgrees,
    line_delta: r.lineDelta === null ? null : { delta: r.lineDelta, previous_line: r.previousLine, direction: r.lineDirection },
    lineup_status: r.lineupStatus,
    batting_slot: r.battingSlot,
    injury_status: r.injuryStatus,
  };
}

export type GradedRowView = ReturnType<typeof gradedRowView>;
