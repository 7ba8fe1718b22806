import type { Grade } from '../grades.js';

/**
 * Grade thresholds. A grade is a statement about expected value at the real book price, gated by
 * how much evidence stands behind it; the reasoning for every number is in docs/model.md.
 */
export const GRADE_RULES = {
  /** ev_pct (percent of stake) floors per grade, at the graded book price. */
  evFloor: { 'A+': 6, A: 3, B: 0, C: -4 },
  /** Played games required for the top grades. */
  minSampleAPlus: 20,
  minSampleA: 10,
  /** ev_pct and sample needed to call a row takeable. */
  takeableMinEv: 2,
  takeableMinSample: 10,
} as const;

export interface GradeEvidence {
  /** Percent of stake; null when there is no book price. */
  evPct: number | null;
  pWin: number;
  sampleSize: number;
  /** The book quoted both legs, so the model was checked against a de-vigged market price. */
  hasMarketPair: boolean;
  /** The stat's parameters were fitted and back-tested (NBA); structural-only stats are capped at B. */
  fitted: boolean;
}

export function gradeFor(e: GradeEvidence): Grade {
  // Without a real price there is no EV; a probability alone never earns more than C.
  if (e.evPct === null) return e.pWin >= 0.5 ? 'C' : 'F';
  const f = GRADE_RULES.evFloor;
  let grade: Grade = e.evPct >= f['A+'] ? 'A+' : e.evPct >= f.A ? 'A' : e.evPct >= f.B ? 'B' : e.evPct >= f.C ? 'C' : 'F';
  if (grade === 'A+' && !(e.sampleSize >= GRADE_RULES.minSampleAPlus && e.hasMarketPair && e.fitted)) grade = 'A';
  if (grade === 'A' && !(e.sampleSize >= GRADE_RULES.minSampleA && e.hasMarketPair && e.fitted)) grade = 'B';
  return grade;
}

export function isTakeable(evPct: number | null, sampleSize: number): boolean | null {
  if (evPct === null) return null;
  return evPct >= GRADE_RULES.takeableMinEv && sampleSize >= GRADE_RULES.takeableMinSample;
}
