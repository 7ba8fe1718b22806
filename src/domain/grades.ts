import { z } from 'zod';

/** Letter grades, best first. A refused read carries grade null plus the `insufficient_data` flag. */
export const gradeSchema = z.enum(['A+', 'A', 'B', 'C', 'F']);
export type Grade = z.infer<typeof gradeSchema>;

export const GRADE_ORDER: readonly Grade[] = gradeSchema.options;

/** The flag a refused read carries next to its null grade (spec: Grade scale). */
export const INSUFFICIENT_DATA = 'insufficient_data';

/** Sort comparator: A+ first, F last, null (refused) after every letter. */
export function compareGrades(a: Grade | null, b: Grade | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return GRADE_ORDER.indexOf(a) - GRADE_ORDER.indexOf(b);
}

/**
 * Numeric scale for averaging grades (parlay combined grade). It follows the US grade-point
 * scale, where A+ sits 0.3 above A; the F gap is two steps below C, so one F drags a
 * multi-leg average down hard instead of counting as "one letter worse than C".
 */
const POINTS: Readonly<Record<Grade, number>> = { 'A+': 4.3, A: 4.0, B: 3.0, C: 2.0, F: 0.0 };

export function gradePoints(g: Grade): number {
  return POINTS[g];
}

/**
 * Nearest letter for an averaged score: cut points sit halfway between neighbouring grades
 * (A+ >= 4.15, A >= 3.5, B >= 2.5, C >= 1.0, else F). Values beyond the scale clamp.
 */
export function gradeFromPoints(x: number): Grade {
  if (!Number.isFinite(x)) throw new RangeError(`gradeFromPoints: not a finite number: ${x}`);
  for (let i = 0; i < GRADE_ORDER.length - 1; i++) {
    const here = GRADE_ORDER[i] as Grade;
    const next = GRADE_ORDER[i + 1] as Grade;
    if (x >= (POINTS[here] + POINTS[next]) / 2) return here;
  }
  return 'F';
}
