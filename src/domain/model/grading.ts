import { z } from 'zod';
import type { Grade } from '../grades.js';
import type { FairSource } from './market.js';

/**
 * A letter is a claim about expected value at the graded book's real price against the market's
 * fair probability (docs/model.md §3 shows each claim holding on held-out games). The cut-offs
 * were set on the 2024-25 training props, before the held-out window was scored.
 */
export const GRADE_RULES = {
  /** ev_pct (percent of stake) floors per letter. */
  evFloor: { 'A+': 5, A: 2, B: 0, C: -4 },
  /**
   * Highest letter a row may carry, by how well the market backs its fair probability: a thin
   * consensus or a market-implied rung has not been shown to carry an A claim, a book judged only
   * by its own pair cannot beat its own margin, and a row with no credible price (its only price
   * is an outlier) claims nothing above C; nor does a one-sided soccer row whose market's fair
   * failed its held-out test (docs/model.md "Soccer: a fair price for one-sided markets"): its
   * EV is measured against a fair not shown to be calibrated, so it vouches for no edge.
   */
  cap: { consensus: 'A+', thinConsensus: 'B', marketImplied: 'B', book: 'C', outlier: 'C', unfitted: 'B', oneSidedFailed: 'C' },
} as const satisfies { evFloor: Record<string, number>; cap: Record<string, Grade> };

export interface GradeEvidence {
  /** EV in percent of stake at the graded price. */
  evPct: number;
  fairSource: FairSource;
  thinConsensus: boolean;
  /** The graded price itself is an outlier against the market (no credible price for the side). */
  gradedAtOutlier: boolean;
  /** The stat's model was fitted and back-tested (NBA); other sports are capped. */
  fitted: boolean;
  /** A one-sided soccer line: whether its market's one-sided fair passed the held-out gate; absent/null when two-sided. */
  oneSidedPassed?: boolean | null;
}

const ORDER: readonly Grade[] = ['A+', 'A', 'B', 'C', 'F'];
const below = (g: Grade, cap: Grade): boolean => ORDER.indexOf(g) < ORDER.indexOf(cap);

/**
 * Why a letter sits below the one its EV earns: the market behind the fair is thin (1-2 other
 * books), the line is an alternate rung priced from the main line, the sport/stat was never
 * back-tested, the only price for the side is an outlier, the book is judged by its own pair, or
 * the line is one-sided and its market's one-sided fair failed the held-out test.
 */
export const capReasonSchema = z.enum(['thin_consensus', 'alternate_rung', 'not_backtested', 'outlier_price', 'own_book_only', 'one_sided_market']);
export type CapReason = z.infer<typeof capReasonSchema>;

/** One line per cap reason, for legends and copy (what the reason means, in words). */
export const CAP_REASON_TEXT: Readonly<Record<CapReason, string>> = {
  thin_consensus: 'thin consensus (fewer than 3 other books at the line)',
  alternate_rung: 'alternate rung (its fair is priced from the main line)',
  not_backtested: 'no back-test supports A/A+ for this sport or stat (never back-tested, or back-tested and failed: MLB)',
  outlier_price: 'outlier price (the only price for the side sits far off the market)',
  own_book_only: 'own book only (no other book prices the line)',
  one_sided_market: "one-sided market (books price only the over, so its fair is each book's margin-removed over, and for this market that fair failed its held-out test)",
};

/** The table marker of a capped letter (`B*`); its legend says what the EV would earn and why. */
export const CAP_MARKER = '*';

/**
 * The EV as printed: rounded to one decimal (the precision every surface prints), with -0 as 0. The
 * letter is banded on this number, so a printed "+5.0%" is A+ and "-4.0%" is C, never a neighbour.
 */
export function printedEvPct(evPct: number): number {
  const r = Number(evPct.toFixed(1));
  return r === 0 ? 0 : r;
}

/** The printed EV with its sign and unit ("+5.0%", "+0.0%", "-4.0%"). */
export function formatEvPct(evPct: number): string {
  const r = printedEvPct(evPct);
  return `${r >= 0 ? '+' : ''}${r.toFixed(1)}%`;
}

/** The letter the EV earns by the bands alone, decided on the printed (one-decimal) EV. */
export function letterForEv(evPct: number): Grade {
  const f = GRADE_RULES.evFloor;
  const ev = printedEvPct(evPct);
  return ev >= f['A+'] ? 'A+' : ev >= f.A ? 'A' : ev >= f.B ? 'B' : ev >= f.C ? 'C' : 'F';
}

export interface GradeVerdict {
  /** The letter the row carries. */
  grade: Grade;
  /** The letter its EV earns by the bands alone (equal to grade when nothing caps it). */
  gradeUncapped: Grade;
  /** The cap that holds the letter below gradeUncapped (the tightest one), or null when not capped. */
  capReason: CapReason | null;
}

/** The caps that apply to this evidence, each with its ceiling, in a fixed order. */
function capsOf(e: GradeEvidence): { cap: Grade; reason: CapReason }[] {
  const c = GRADE_RULES.cap;
  const caps: { cap: Grade; reason: CapReason }[] = [];
  if (e.fairSource === 'book') caps.push({ cap: c.book, reason: 'own_book_only' });
  if (e.gradedAtOutlier) caps.push({ cap: c.outlier, reason: 'outlier_price' });
  if (e.fairSource === 'market_implied') caps.push({ cap: c.marketImplied, reason: 'alternate_rung' });
  if (e.fairSource === 'consensus' && e.thinConsensus) caps.push({ cap: c.thinConsensus, reason: 'thin_consensus' });
  if (!e.fitted) caps.push({ cap: c.unfitted, reason: 'not_backtested' });
  if (e.oneSidedPassed === false) caps.push({ cap: c.oneSidedFailed, reason: 'one_sided_market' });
  return caps;
}

/** The letter, the letter its EV would earn uncapped, and the cap that binds (a cap never lifts a letter). */
export function gradeFor(e: GradeEvidence): GradeVerdict {
  const gradeUncapped = letterForEv(e.evPct);
  let grade = gradeUncapped;
  let capReason: CapReason | null = null;
  for (const { cap, reason } of capsOf(e)) {
    if (below(grade, cap)) {
      grade = cap;
      capReason = reason;
    }
  }
  return { grade, gradeUncapped, capReason };
}

/** The legend line for a capped letter: what its EV would earn and why it does not. */
export function capLegend(gradeUncapped: Grade, capReason: CapReason): string {
  return `capped: the EV would earn ${gradeUncapped}; ${CAP_REASON_TEXT[capReason]}`;
}

/** A letter as tables print it: `B*` when capped (its legend line says what the EV earns and why). */
export function markedGrade(grade: string | null, capReason: string | null | undefined): string | null {
  if (grade === null) return null;
  return capReason ? `${grade}${CAP_MARKER}` : grade;
}

/** What a row needs for its cap legend. */
export interface CappedLetter {
  grade: string | null;
  gradeUncapped?: string | null;
  capReason?: string | null;
}

/**
 * One legend line per distinct capped letter in a table ("B* = capped: the EV would earn A+; thin
 * consensus (...)"), in a stable order; none when no row is capped.
 */
export function capLegendLines(rows: readonly CappedLetter[]): string[] {
  const seen = new Map<string, string>();
  for (const r of rows) {
    const reason = capReasonSchema.safeParse(r.capReason);
    if (r.grade === null || !reason.success) continue;
    const earn = r.gradeUncapped ?? null;
    const key = `${r.grade}|${earn ?? ''}|${reason.data}`;
    if (seen.has(key)) continue;
    const why = earn === null ? `capped: ${CAP_REASON_TEXT[reason.data]}` : capLegend(earn as Grade, reason.data);
    seen.set(key, `${r.grade}${CAP_MARKER} = ${why}`);
  }
  return [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, line]) => line);
}

/** Takeable: a backed claim of at least the A floor (+2% EV). */
export function isTakeable(grade: Grade): boolean {
  return grade === 'A+' || grade === 'A';
}
