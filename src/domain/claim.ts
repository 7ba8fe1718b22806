import { z } from 'zod';
import { compareGrades, type Grade } from './grades.js';
import { GRADE_RULES, letterForEv, printedEvPct } from './model/grading.js';
import { blendProbability } from './model/pricing.js';
import { americanToDecimal } from './odds.js';
import type { Side } from './sports.js';

/**
 * A grade is a claim about one price at one time (docs/model.md §3, docs/ledger.md). The locked row
 * keeps that price (`locked_book`, `locked_odds`, `gradedAt`); the current market sits beside it,
 * judged by the same rule, so no EV is ever printed next to a price it was not computed on.
 */

/** Expected value in percent of stake of a price at a win probability: 100 x (p x decimal - 1). */
export function evPctAt(prob: number | null | undefined, american: number | null | undefined): number | null {
  const decimal = americanToDecimal(american);
  if (decimal === null || typeof prob !== 'number' || !(prob > 0 && prob < 1)) return null;
  return 100 * (prob * decimal - 1);
}

/** What the lock stored about the model's part of the grade (model_detail), when the grade has one. */
export interface LockedModelPart {
  /** The model's weight in the pool with the market (0 = the market alone). */
  nudgeWeight: number | null;
  /** The pure-model win probability at the locked line and side. */
  pModel: number | null;
}

/**
 * The current best price's EV against the current fair, by the rule that made the grade: the win
 * probability is the market's fair, pooled with the model only as far as the grade pooled it. Null
 * when the row has no grade or no two-way market now (the price triplet is hidden).
 */
export function evNowPct(grade: Grade | string | null, fairProb: number | null, bookOdds: number | null, model: LockedModelPart): number | null {
  if (grade === null || fairProb === null || bookOdds === null) return null;
  const w = model.nudgeWeight;
  if (w === null) return null;
  if (w === 0) return evPctAt(fairProb, bookOdds);
  if (model.pModel === null) return null;
  return evPctAt(blendProbability(model.pModel, fairProb, w), bookOdds);
}

export const edgeNowSchema = z.enum(['holds', 'reduced', 'gone']);
export type EdgeNow = z.infer<typeof edgeNowSchema>;

/**
 * Whether a locked claim of positive EV still stands at today's best price: `holds` while the price
 * still earns its letter's EV floor, `reduced` while it is positive but under the floor, `gone` at
 * zero or below. C and F claim no edge, so they have nothing to hold (null), as has a row with no EV now.
 */
export function edgeNow(grade: Grade | string | null, evNow: number | null): EdgeNow | null {
  if (evNow === null || (grade !== 'A+' && grade !== 'A' && grade !== 'B')) return null;
  // Judged on the EV as printed, like the letter: "+2.0%" holds an A.
  const ev = printedEvPct(evNow);
  const floor = GRADE_RULES.evFloor[grade];
  if (ev >= floor) return 'holds';
  return ev > 0 ? 'reduced' : 'gone';
}

/**
 * Whether the projection lies on the graded side of the line: false when it sits strictly on the
 * other side (an over graded with a projection under the line), null without a projection or when
 * the projection is exactly the line (it supports neither side).
 */
export function projectionAgrees(projection: number | null, line: number, side: Side): boolean | null {
  if (projection === null || !Number.isFinite(projection) || projection === line) return null;
  return side === 'over' ? projection > line : projection < line;
}

/**
 * The letter a claim still stands at (docs/model.md §3, "Slate order"): the locked letter while its
 * edge holds (C and F claim no edge, so theirs stands); once the edge is reduced or gone, the lower
 * of the locked letter and the band of today's EV. No grade: null.
 */
export function standingGrade(grade: Grade | string | null, evNow: number | null, edge: EdgeNow | null): Grade | null {
  if (grade === null) return null;
  const locked = grade as Grade;
  if ((edge !== 'reduced' && edge !== 'gone') || evNow === null) return locked;
  const now = letterForEv(evNow);
  return compareGrades(locked, now) >= 0 ? locked : now;
}

export interface StandingKeys {
  grade: Grade | string | null;
  evPct: number | null;
  evNowPct: number | null;
  edgeNow: EdgeNow | null;
}

/**
 * The slate's order, the claim as it stands now: by standing letter (A+ first, no grade last), then
 * by today's EV (a row without a price now after those with one), then by the claimed EV. A gone
 * edge therefore never leads: it ranks with the letter today's price earns.
 */
export function compareStanding(a: StandingKeys, b: StandingKeys): number {
  const g = compareGrades(standingGrade(a.grade, a.evNowPct, a.edgeNow), standingGrade(b.grade, b.evNowPct, b.edgeNow));
  if (g !== 0) return g;
  const na = a.evNowPct ?? Number.NEGATIVE_INFINITY;
  const nb = b.evNowPct ?? Number.NEGATIVE_INFINITY;
  if (na !== nb) return nb - na;
  const ea = a.evPct ?? Number.NEGATIVE_INFINITY;
  const eb = b.evPct ?? Number.NEGATIVE_INFINITY;
  return ea === eb ? 0 : eb - ea;
}
