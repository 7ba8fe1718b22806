import { capLegendLines, markedGrade } from '../../domain/model/grading.js';
import { gateRate, MIN_SAMPLE } from '../../domain/record-gate.js';
import { rowsSource, type Brief, type FigureSource } from '../document.js';
import type { ClaimedRow, SlateRowFact } from '../../domain/facts.js';
import { easternDate } from '../../domain/time.js';
import { american, building, clockET, count, lineText, oneDecimal, percent, shortDay, statWords } from '../format.js';

/**
 * A grade is a claim about one price at one time (docs/content.md "A claim travels with its
 * price"): copy that states a grade quotes the price, book and fair it was computed on and when,
 * from the row's lock; the market now is said apart, as now, with what it does to the claimed edge.
 */

/** Where a claim's figures come from: the grade lock that made it, else the graded row that carries it. */
export function claimSource(r: SlateRowFact): FigureSource {
  return r.lockId === null
    ? rowsSource('graded_rows', [r], `graded row ${r.id}: locked_book, locked_odds, locked_fair_prob, graded_at`)
    : rowsSource('grade_locks', [{ id: r.lockId }], `grade_locks row ${r.lockId}, the claim graded row ${r.id} carries (locked_book, locked_odds, locked_fair_prob, graded_at)`);
}

/** True when the row's claim can be quoted: a grade with the price it was computed on. */
export { hasClaimPrice, type ClaimedRow } from '../../domain/facts.js';

export interface ClaimText {
  /** "-117 (betrivers)" */
  price: string;
  /** "10:05 AM ET" */
  time: string;
  /** "-137", or null when the lock stored no fair. */
  fair: string | null;
  /** "6", or null when the lock stored no count. */
  books: string | null;
}

/** The claim's figures as printed, each recorded in the brief with the lock as its source. */
export function claimFigures(brief: Brief, key: string, r: ClaimedRow): ClaimText {
  const src = claimSource(r);
  const price = brief.add(`${key}.price`, `${r.player} ${r.side} ${lineText(r.line)} price the grade was computed on, at ${r.lockedBook}`, r.lockedOdds, american(r.lockedOdds), null, src);
  // A claim made on an earlier ET day than the board says its day too.
  const day = easternDate(new Date(r.gradedAt));
  const when = day === easternDate(new Date(r.takenAt)) ? clockET(r.gradedAt) : `${clockET(r.gradedAt)} ${shortDay(day)}`;
  const time = brief.add(`${key}.graded_at`, `${r.player} ${r.side} ${lineText(r.line)} graded at`, r.gradedAt, when, null, src);
  const fair =
    r.lockedFairOdds === null ? null : brief.add(`${key}.fair_price`, `${r.player} ${r.side} fair price when graded (no-vig consensus)`, r.lockedFairOdds, american(r.lockedFairOdds), r.lockedConsensusBooks, src);
  const books = r.lockedConsensusBooks === null ? null : brief.add(`${key}.consensus_books`, 'other books in the consensus when graded', r.lockedConsensusBooks, count(r.lockedConsensusBooks), null, src);
  return { price: `${price} (${r.lockedBook})`, time, fair, books };
}

export const EDGE_WORDS: Readonly<Record<'holds' | 'reduced' | 'gone', string>> = {
  holds: 'the claimed edge still holds at that price',
  reduced: 'at that price the edge is smaller than the grade claimed',
  gone: 'the claimed edge is gone at that price',
};

/**
 * The market now, said as now: null when the row's own board made the claim at the price still
 * shown (nothing to add) or when there is no price now. The edge is said in words: the EV figure
 * is a model field, withheld from free callers and so from public copy.
 */
export function nowSentence(brief: Brief, key: string, r: SlateRowFact): string | null {
  if (r.bookOdds === null || r.book === null) return null;
  const samePrice = r.book === r.lockedBook && r.bookOdds === r.lockedOdds;
  if (samePrice && Date.parse(r.gradedAt) === Date.parse(r.takenAt)) return null;
  const src = rowsSource('graded_rows', [r], `graded row ${r.id}: book, book_odds, fair_odds (the market at ${r.takenAt})`);
  const price = brief.add(`${key}.price_now`, `${r.player} ${r.side} ${lineText(r.line)} best price now, at ${r.book}`, r.bookOdds, american(r.bookOdds), null, src);
  const fair = r.fairOdds === null ? '' : ` against a fair price of ${brief.add(`${key}.fair_price_now`, `${r.player} ${r.side} fair price now (no-vig consensus)`, r.fairOdds, american(r.fairOdds), r.consensusBooks, src)}`;
  const edge = r.edgeNow === null ? '' : `: ${EDGE_WORDS[r.edgeNow]}`;
  return `At ${clockET(r.takenAt)} the best price is ${samePrice ? 'still ' : ''}${price} (${r.book})${fair}${edge}`;
}

/**
 * The projection as copy: support only when it lies on the graded side; when it lies on the other
 * side the copy says so and that the grade rests on the price alone (never offered as support).
 */
export function projectionText(brief: Brief, key: string, r: SlateRowFact): string {
  if (r.projection === null) return '';
  const src = rowsSource('graded_rows', [r], `graded row ${r.id}`);
  const p = brief.add(`${key}.projection`, `${r.player} ${r.statType} projection`, r.projection, oneDecimal(r.projection), r.sampleSize, src);
  // The stat's own unit, so "3.0" is never read as points on a rebounds prop.
  const unit = statWords(r.statType);
  if (r.projectionAgrees === false) return `; the projection of ${p} ${unit} lies on the ${r.side === 'over' ? 'under' : 'over'} side, so the grade rests on the price alone`;
  return `; projection ${p} ${unit}`;
}

/**
 * A read as one sentence, the claim with its own price, book, fair and time, then the market now
 * when it differs: "A+ Kelly Oubre Jr (PHI) over 1.5 3-pointers made at -117 (betrivers), graded
 * 10:05 AM ET against a fair price of -137 from 6 other books; projection 2.2. At 12:05 PM ET the
 * best price is -143 (draftkings) against a fair price of -126: the claimed edge is gone at that
 * price". Every figure is recorded in the brief.
 */
export function readSentence(brief: Brief, key: string, r: ClaimedRow): string {
  const src = rowsSource('graded_rows', [r], `graded row ${r.id}`);
  const line = brief.add(`${key}.line`, `${r.player} ${r.statType} line`, r.line, lineText(r.line), null, src);
  const team = r.team ? ` (${r.team})` : '';
  const claim = claimFigures(brief, key, r);
  const fair = claim.fair === null ? '' : ` against a fair price of ${claim.fair}${claim.books === null ? '' : ` from ${claim.books} other books`}`;
  const now = nowSentence(brief, key, r);
  // A capped letter says so and why, in the sentence that carries it.
  const capped = capLegendLines([r])[0];
  return `${markedGrade(r.grade, r.capReason)} ${r.player}${team} ${r.side} ${line} ${statWords(r.statType)} at ${claim.price}, graded ${claim.time}${fair}${projectionText(brief, key, r)}${capped ? ` (${capped})` : ''}${now ? `. ${now}` : ''}`;
}

/**
 * A gated rate as copy: "49.8% (n=309)" at n >= 20, "record building: 7 of 20" below (counts only,
 * spec: records under n of 20 show counts only). The figure goes in the brief either way.
 */
export function rateText(brief: Brief, key: string, label: string, successes: number, n: number, source: FigureSource): string {
  const rate = gateRate(successes, n);
  if (rate.pct === null) return brief.add(key, `${label} (below the n >= ${MIN_SAMPLE} gate: counts only)`, `${successes} of ${n}`, building(n), n, source);
  return `${brief.add(key, label, rate.pct, percent(rate.pct), n, source)} (n=${count(n)})`;
}

/** "Hits-misses" as a figure: "154-155". */
export function recordText(brief: Brief, key: string, label: string, hits: number, misses: number, source: FigureSource): string {
  return brief.add(key, `${label} (hits-misses)`, `${hits}-${misses}`, `${hits}-${misses}`, hits + misses, source);
}
