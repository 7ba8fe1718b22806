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
    ev_pct: r.evPct,
    value: r.value,
    takeable: r.takeable,
    archetype: r.archetype,
    gradedAt: r.gradedAt,
    line_delta: r.lineDelta === null ? null : { delta: r.lineDelta, previous_line: r.previousLine, direction: r.lineDirection },
    lineup_status: r.lineupStatus,
    batting_slot: r.battingSlot,
    injury_status: r.injuryStatus,
  };
}

export type GradedRowView = ReturnType<typeof gradedRowView>;
