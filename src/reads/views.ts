import { projectionView } from '../domain/projection-view.js';
import { JsonText, type GradedRowRecord } from '../store/repo/snapshots.js';

const P_MODEL = /"pModel":(-?[0-9.eE+-]+)/;

/**
 * The projection's probability stored in a row's model detail (gradeProp's detail.pModel), or
 * null. A stored detail may arrive as its JSON text: the one number is read out of it, so a
 * 4,808-row snapshot is not parsed whole for one key.
 */
export function storedPModel(detail: unknown): number | null {
  let v: unknown;
  if (detail instanceof JsonText) v = Number(P_MODEL.exec(detail.text)?.[1]);
  else if (typeof detail === 'string') v = Number(P_MODEL.exec(detail)?.[1]);
  else if (detail !== null && typeof detail === 'object') v = (detail as Record<string, unknown>)['pModel'];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The public shape of a graded row, shared by `slate --json` and the HTTP API: camelCase here,
 * the spec's snake_case names once wire.ts writes it (eventId -> event_id; gradedAt stays).
 * Absent values stay null. The projection's view (projection_prob, projection_odds,
 * projection_ev_pct, projection_record) is present here and removed by tier shaping; the
 * market's side (p_win, ev_pct, ...) is free (domain/tiers.ts).
 */
export function gradedRowView(r: GradedRowRecord) {
  return {
    player: r.player,
    team: r.team,
    opponent: r.opponent,
    eventId: r.eventId,
    game: `${r.awayTeam} @ ${r.homeTeam}`,
    commenceTime: r.commenceTime,
    statType: r.statType,
    line: r.line,
    /** The line most books offer for this player and stat; false for alternate (ladder) lines. */
    mainLine: r.isMainLine,
    side: r.side,
    direction: r.side,
    grade: r.grade,
    /** Market fields (never gated): the letter the EV earns uncapped, and why the grade sits below it (null: not capped). */
    gradeUncapped: r.gradeUncapped,
    capReason: r.capReason,
    flags: r.insufficientData ? ['insufficient_data'] : [],
    refusalReason: r.refusalReason,
    projection: r.projection,
    book: r.book,
    overOdds: r.overOdds,
    underOdds: r.underOdds,
    bookOdds: r.bookOdds,
    fairOdds: r.fairOdds,
    fairProb: r.fairProb,
    overround: r.overround,
    devigMethod: r.devigMethod,
    /** Market fields (never gated): where fair_prob came from and how many books formed it. */
    fairSource: r.fairSource,
    consensusBooks: r.consensusBooks,
    thinConsensus: r.thinConsensus,
    outlierPrice: r.outlierPrice,
    outlier: r.outlierBook === null || r.outlierOdds === null ? null : { book: r.outlierBook, odds: r.outlierOdds },
    /** The market's side: p_win is the market's fair at the lock (no model term has passed the gate), model_odds its price. */
    modelOdds: r.modelOdds,
    pWin: r.pWin,
    /** EV of locked_odds at p_win: the claim the grade makes, at the price and time it was made on. */
    evPct: r.evPct,
    value: r.value,
    takeable: r.takeable,
    archetype: r.archetype,
    gradedAt: r.gradedAt,
    /** The price the grade, p_win and ev_pct were computed on; book and book_odds are the market now. */
    lockedBook: r.lockedBook,
    lockedOdds: r.lockedOdds,
    lockedFairProb: r.lockedFairProb,
    /** The current best price's EV against the current fair (gated like ev_pct), and whether the claim's edge still holds. */
    evNowPct: r.evNowPct,
    edgeNow: r.edgeNow,
    /** False when the projection lies on the other side of the line from the graded side. */
    projectionAgrees: r.projectionAgrees,
    /** The projection's own probability, price and EV at locked_odds, with its held-out record (paid tiers). */
    ...projectionView(r.sport, r.statType, r.grade === null ? null : storedPModel(r.modelDetail), r.lockedOdds),
    lineDelta: r.lineDelta === null ? null : { delta: r.lineDelta, previousLine: r.previousLine, direction: r.lineDirection },
    lineupStatus: r.lineupStatus,
    battingSlot: r.battingSlot,
    injuryStatus: r.injuryStatus,
  };
}

export type GradedRowView = ReturnType<typeof gradedRowView>;
