import { compareGrades, GRADE_ORDER, type Grade } from './grades.js';
import { americanToDecimal, fairAmerican } from './odds.js';
import type { PropRef } from './prop-ref.js';

/**
 * The desk showcase (spec: Other shapes; docs/stats.md): a real alternate-line ladder of one graded
 * board, for the A or B prop whose rungs show the most grade variation. Pure: graded rows in, the
 * chosen ladder out. Grades and edges are EV claims of a book's price against the market's fair
 * price (docs/model.md §3); nothing here is a model term.
 */

/** The fields of a stored graded row the showcase reads (GradedRowRecord has them all). */
export interface ShowcaseRow extends PropRef {
  sport: string;
  commenceTime: string;
  homeTeam: string;
  awayTeam: string;
  player: string;
  team: string | null;
  grade: string | null;
  book: string | null;
  bookOdds: number | null;
  fairOdds: number | null;
  fairProb: number | null;
  fairSource: string | null;
  consensusBooks: number | null;
  thinConsensus: boolean | null;
  gradeUncapped: string | null;
  capReason: string | null;
  isMainLine: boolean | null;
  outlierPrice: boolean | null;
  /** The claim: the book, price and fair (probability) the grade was computed on, and when. */
  gradedAt: string;
  lockedBook: string | null;
  lockedOdds: number | null;
  lockedFairProb: number | null;
}

/**
 * A grade with the price it was computed on: the lock's book, American price and fair, and when.
 * The rung's `book`, `bookOdds`, `fairOdds` and edge are the market now; a grade is quoted with
 * its claim, never with the price now (docs/stats.md).
 */
export interface Claim {
  book: string;
  odds: number;
  fairOdds: number | null;
  gradedAt: string;
}

export function claimOf(r: Pick<ShowcaseRow, 'grade' | 'gradedAt' | 'lockedBook' | 'lockedOdds' | 'lockedFairProb'>): Claim | null {
  if (r.grade === null || r.lockedBook === null || r.lockedOdds === null) return null;
  return { book: r.lockedBook, odds: r.lockedOdds, fairOdds: fairAmerican(r.lockedFairProb), gradedAt: r.gradedAt };
}

/** The letters a showcased prop may carry (the spec's "A or B prop", as the hero prop reads it). */
export const SHOWCASE_GRADES: readonly Grade[] = ['A', 'B'];

/**
 * An edge (the EV of the book's price against the fair probability, in %) is shown only inside
 * ±10%. A+ starts at +5% and the back-test's A+ claims average +6.7% (docs/model.md §6); past
 * ±10% on a ladder rung the number measures how far the book's rung and the ladder implied by the
 * main line disagree (a stale or mispriced rung, a fit error), not an edge anyone can expect to
 * realise. Outside the bound the edge is a dash: null on the wire, with `edgeNote` saying why.
 */
export const EDGE_PLAUSIBLE_MAX_PCT = 10;

/** The same-team correlation the spec's correlation tile shows for two same-team legs. */
export const SAME_TEAM_CORRELATION = 0.34;

export interface Rung {
  line: number;
  mainLine: boolean;
  book: string | null;
  bookOdds: number;
  fairOdds: number | null;
  fairProb: number | null;
  fairSource: string | null;
  /** Books behind the fair, and whether they are fewer than a full consensus (market fields, as on the slate). */
  consensusBooks: number | null;
  thinConsensus: boolean | null;
  outlierPrice: boolean | null;
  grade: string | null;
  /** The letter the EV earns uncapped, and why grade sits below it (null: not capped). */
  gradeUncapped: string | null;
  capReason: string | null;
  /** The price, book, fair and time the grade was computed on; null without a grade. */
  claim: Claim | null;
  /** The edge now: EV % of book_odds at fair_prob (both now); null when not plausible (see edgeNote). */
  edgePct: number | null;
  edgeNote: string | null;
}

export interface Leg {
  player: string;
  team: string | null;
  stat: string;
  line: number;
  side: string;
  grade: string | null;
  /** The price the grade was computed on; `book` and `bookOdds` are the market now. */
  claim: Claim | null;
  book: string | null;
  bookOdds: number | null;
}

/** `coefficient`, not `value`: `value` is a gated model field name on graded rows (docs/api.md). */
export type CorrelationTile = { coefficient: number; relationship: 'same_team'; note: string; legs: [Leg, Leg] };

export interface Showcase {
  sport: string;
  eventId: string;
  game: string;
  commenceTime: string;
  player: string;
  team: string | null;
  stat: string;
  side: string;
  /** The A or B rung the ladder was chosen for. */
  prop: { line: number; grade: string; mainLine: boolean; claim: Claim | null };
  /** Distinct letters on the rungs, best first, and how many rungs carry each. */
  variation: { distinctGrades: number; spread: number; grades: Array<{ grade: string; rungs: number }> };
  rungs: Rung[];
  correlation: CorrelationTile | null;
  /** Why there is no correlation tile. */
  correlationNote: string | null;
}

/** EV % of an American price at a probability; null without both. */
export function edgePct(bookOdds: number | null, fairProb: number | null): number | null {
  const dec = americanToDecimal(bookOdds);
  if (dec === null || fairProb === null || !Number.isFinite(fairProb)) return null;
  return 100 * (fairProb * dec - 1);
}

/** The edge of one rung as shown: the number inside the plausible bound, else null with the reason. */
export function shownEdge(row: Pick<ShowcaseRow, 'bookOdds' | 'fairProb' | 'outlierPrice'>): { edgePct: number | null; edgeNote: string | null } {
  const edge = edgePct(row.bookOdds, row.fairProb);
  if (edge === null) return { edgePct: null, edgeNote: 'no fair price for this line' };
  if (row.outlierPrice) return { edgePct: null, edgeNote: 'the price is an outlier against the market (docs/model.md §3)' };
  if (Math.abs(edge) > EDGE_PLAUSIBLE_MAX_PCT) {
    return { edgePct: null, edgeNote: `${edge > 0 ? '+' : ''}${edge.toFixed(1)}% is outside ±${EDGE_PLAUSIBLE_MAX_PCT}%: not a plausible edge on a ladder rung` };
  }
  return { edgePct: edge, edgeNote: null };
}

const rank = (g: string | null): number => (g === null ? GRADE_ORDER.length : GRADE_ORDER.indexOf(g as Grade));
const isShowcaseGrade = (g: string | null): g is Grade => g !== null && (SHOWCASE_GRADES as readonly string[]).includes(g);

interface Ladder {
  rows: ShowcaseRow[];
  distinct: number;
  spread: number;
}

function ladders(rows: readonly ShowcaseRow[]): Ladder[] {
  const groups = new Map<string, ShowcaseRow[]>();
  for (const r of rows) {
    if (r.bookOdds === null) continue; // a rung is a real price
    const k = `${r.sport}|${r.eventId}|${r.playerKey}|${r.statType}|${r.side}`;
    const list = groups.get(k) ?? [];
    list.push(r);
    groups.set(k, list);
  }
  const out: Ladder[] = [];
  for (const list of groups.values()) {
    if (list.length < 2 || !list.some((r) => r.isMainLine === false) || !list.some((r) => isShowcaseGrade(r.grade))) continue;
    const graded = list.filter((r) => r.grade !== null).map((r) => rank(r.grade));
    out.push({ rows: list, distinct: new Set(graded).size, spread: graded.length === 0 ? 0 : Math.max(...graded) - Math.min(...graded) });
  }
  return out;
}

function leg(r: ShowcaseRow): Leg {
  return { player: r.player, team: r.team, stat: r.statType, line: r.line, side: r.side, grade: r.grade, claim: claimOf(r), book: r.book, bookOdds: r.bookOdds };
}

/**
 * The showcase of a board: among ladders (one player, stat, game and side; two or more priced
 * rungs, at least one an alternate line, at least one rung graded A or B), the one with the most
 * distinct letters, then the widest spread of letters, then the most rungs; ties by sport, player,
 * stat, side. Null when no real ladder exists: the showcase hides.
 */
export function pickShowcase(rows: readonly ShowcaseRow[]): Showcase | null {
  const all = ladders(rows);
  if (all.length === 0) return null;
  all.sort((a, b) => {
    const x = a.rows[0]!;
    const y = b.rows[0]!;
    return (
      b.distinct - a.distinct ||
      b.spread - a.spread ||
      b.rows.length - a.rows.length ||
      x.sport.localeCompare(y.sport) ||
      x.player.localeCompare(y.player, 'en') ||
      x.statType.localeCompare(y.statType) ||
      x.side.localeCompare(y.side) ||
      x.eventId.localeCompare(y.eventId)
    );
  });
  const best = all[0]!;
  const sorted = [...best.rows].sort((a, b) => a.line - b.line);
  const main = sorted.find((r) => r.isMainLine === true);
  const prop = sorted
    .filter((r) => isShowcaseGrade(r.grade))
    .sort((a, b) => compareGrades(a.grade as Grade, b.grade as Grade) || Number(b.isMainLine === true) - Number(a.isMainLine === true) || Math.abs(a.line - (main?.line ?? a.line)) - Math.abs(b.line - (main?.line ?? b.line)) || a.line - b.line)[0]!;
  const counts = new Map<string, number>();
  for (const r of sorted) if (r.grade !== null) counts.set(r.grade, (counts.get(r.grade) ?? 0) + 1);
  const first = sorted[0]!;
  const second = rows
    .filter((r) => r.sport === first.sport && r.eventId === first.eventId && r.team !== null && r.team === first.team && r.playerKey !== first.playerKey)
    .filter((r) => r.isMainLine === true && r.bookOdds !== null && isShowcaseGrade(r.grade))
    .sort((a, b) => compareGrades(a.grade as Grade, b.grade as Grade) || (edgePct(b.bookOdds, b.fairProb) ?? -Infinity) - (edgePct(a.bookOdds, a.fairProb) ?? -Infinity) || a.player.localeCompare(b.player, 'en') || a.statType.localeCompare(b.statType))[0];
  const correlation: CorrelationTile | null = second
    ? { coefficient: SAME_TEAM_CORRELATION, relationship: 'same_team', note: 'two real graded legs of the same team in the same game on this board', legs: [leg(prop), leg(second)] }
    : null;
  return {
    sport: first.sport,
    eventId: first.eventId,
    game: `${first.awayTeam} @ ${first.homeTeam}`,
    commenceTime: first.commenceTime,
    player: first.player,
    team: first.team,
    stat: first.statType,
    side: first.side,
    prop: { line: prop.line, grade: prop.grade!, mainLine: prop.isMainLine === true, claim: claimOf(prop) },
    variation: {
      distinctGrades: best.distinct,
      spread: best.spread,
      grades: [...counts.entries()].sort((a, b) => rank(a[0]) - rank(b[0])).map(([grade, n]) => ({ grade, rungs: n })),
    },
    rungs: sorted.map((r) => ({
      line: r.line,
      mainLine: r.isMainLine === true,
      book: r.book,
      bookOdds: r.bookOdds!,
      fairOdds: r.fairOdds,
      fairProb: r.fairProb,
      fairSource: r.fairSource,
      consensusBooks: r.consensusBooks,
      thinConsensus: r.thinConsensus,
      outlierPrice: r.outlierPrice,
      grade: r.grade,
      gradeUncapped: r.gradeUncapped,
      capReason: r.capReason,
      claim: claimOf(r),
      ...shownEdge(r),
    })),
    correlation,
    correlationNote: correlation ? null : `no second ${SHOWCASE_GRADES.join(' or ')} main-line prop of ${first.team ?? 'the same team'} in this game: no correlation tile`,
  };
}
