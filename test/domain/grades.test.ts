import { describe, expect, it } from 'vitest';
import { GRADE_ORDER, INSUFFICIENT_DATA, compareGrades, gradeFromPoints, gradePoints, gradeSchema, type Grade } from '../../src/domain/grades.js';

describe('grade scale', () => {
  it('has exactly the spec letters, A+ first and F last', () => {
    expect(GRADE_ORDER).toEqual(['A+', 'A', 'B', 'C', 'F']);
    expect(gradeSchema.safeParse('B+').success).toBe(false);
    expect(gradeSchema.safeParse('D').success).toBe(false);
    expect(INSUFFICIENT_DATA).toBe('insufficient_data');
  });

  it('sorts A+ first, F last, refused (null) reads after every letter', () => {
    const grades: Array<Grade | null> = ['C', null, 'A', 'F', 'A+', 'B', null, 'A'];
    expect([...grades].sort(compareGrades)).toEqual(['A+', 'A', 'A', 'B', 'C', 'F', null, null]);
    expect(compareGrades('A+', 'A')).toBeLessThan(0);
    expect(compareGrades('F', 'C')).toBeGreaterThan(0);
    expect(compareGrades(null, 'F')).toBeGreaterThan(0);
    expect(compareGrades('B', 'B')).toBe(0);
    expect(compareGrades(null, null)).toBe(0);
  });
});

describe('grade points', () => {
  it('uses the grade-point scale with A+ = 4.3 and F = 0', () => {
    expect(GRADE_ORDER.map(gradePoints)).toEqual([4.3, 4, 3, 2, 0]);
  });

  it('round-trips every letter', () => {
    for (const g of GRADE_ORDER) expect(gradeFromPoints(gradePoints(g))).toBe(g);
  });

  it('cuts halfway between neighbours', () => {
    expect(gradeFromPoints(4.15)).toBe('A+');
    expect(gradeFromPoints(4.149)).toBe('A');
    expect(gradeFromPoints(3.5)).toBe('A');
    expect(gradeFromPoints(3.499)).toBe('B');
    expect(gradeFromPoints(2.5)).toBe('B');
    expect(gradeFromPoints(2.499)).toBe('C');
    expect(gradeFromPoints(1)).toBe('C');
    expect(gradeFromPoints(0.999)).toBe('F');
  });

  it('averages legs the way a parlay does: A, B, C -> B; A+, A+, F -> B', () => {
    const avg = (gs: Grade[]) => gs.reduce((s, g) => s + gradePoints(g), 0) / gs.length;
    expect(gradeFromPoints(avg(['A', 'B', 'C']))).toBe('B');
    expect(gradeFromPoints(avg(['A+', 'A+', 'F']))).toBe('B');
  });

  it('clamps beyond the scale and rejects non-finite input', () => {
    expect(gradeFromPoints(9)).toBe('A+');
    expect(gradeFromPoints(-1)).toBe('F');
    expect(() => gradeFromPoints(Number.NaN)).toThrow(RangeError);
    expect(() => gradeFromPoints(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
