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
   * is an outlier) claims nothing above C.
   */
  cap: { consensus: 'A+', thinConsensus: 'B', marketImplied: 'B', book: 'C', outlier: 'C', unfitted: 'B' },
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
}

const ORDER: readonly Grade[] = ['A+', 'A', 'B', 'C', 'F'];
const atMost = (g: Grade, cap: Grade): Grade => (ORDER.indexOf(g) < ORDER.indexOf(cap) ? cap : g);

export function letterForEv(evPct: number): Grade {
  const f = GRADE_RULES.evFloor;
  return evPct >= f['A+'] ? 'A+' : evPct >= f.A ? 'A' : evPct >= f.B ? 'B' : evPct >= f.C ? 'C' : 'F';
}

export function gradeFor(e: GradeEvidence): Grade {
  const c = GRADE_RULES.cap;
  let g = letterForEv(e.evPct);
  if (e.fairSource === 'book') g = atMost(g, c.book);
  if (e.fairSource === 'market_implied') g = atMost(g, c.marketImplied);
  if (e.fairSource === 'consensus' && e.thinConsensus) g = atMost(g, c.thinConsensus);
  if (e.gradedAtOutlier) g = atMost(g, c.outlier);
  if (!e.fitted) g = atMost(g, c.unfitted);
  return g;
}

/** Takeable: a backed claim of at least the A floor (+2% EV). */
export function isTakeable(grade: Grade): boolean {
  return grade === 'A+' || grade === 'A';
}
