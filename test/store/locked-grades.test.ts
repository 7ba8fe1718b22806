/**
 * lockedGrades reads a lock's model detail fields through SQLite's `->` and keeps the detail as its
 * stored text: the fields must be exactly what JSON.parse of the whole detail gives for those keys,
 * and the text, written back, exactly what re-serializing the parsed detail writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonText, lockKey, lockedGrades } from '../../src/store/repo/snapshots.js';
import { tempStore } from '../helpers/replay-store.js';

const DETAILS: Array<string | null> = [
  JSON.stringify({ sampleSize: 12, distribution: { family: 'negbin', mean: 4.2, r: 3.1, p: 0.42 }, evPct: 7.937007874015737, value: 0, takeable: true }),
  JSON.stringify({ evPct: -1e-7, value: 5e-324, takeable: false, note: 'a "quoted" \\ string é\u2028' }),
  JSON.stringify({ refusal: 'only 3 played game(s) with points in the last 240 days (need 5)' }),
  JSON.stringify({ evPct: 'not a number', takeable: 1, refusal: 7 }),
  JSON.stringify({ 2: 'b', 1: 'a', evPct: 1.7976931348623157e308 }),
  JSON.stringify([1, 2]),
  'null',
  null,
];

describe('lockedGrades', () => {
  let t: ReturnType<typeof tempStore>;
  beforeAll(() => {
    t = tempStore();
    const add = t.store.sqlite.prepare(
      `insert into grade_locks (sport, event_id, player_key, stat_type, line, side, grade, graded_at, model_detail) values ('nba', 'e1', ?, 'points', 10.5, 'over', 'B', '2025-11-05T17:05:00.000Z', ?)`,
    );
    DETAILS.forEach((d, i) => add.run(`p${i}`, d));
  });
  afterAll(() => t.cleanup());

  it('reads each detail field as JSON.parse would, and keeps the text JSON.stringify(JSON.parse(text)) would write', async () => {
    const locks = await lockedGrades(t.store, ['e1']);
    DETAILS.forEach((text, i) => {
      const lock = locks.get(lockKey('e1', `p${i}`, 'points', 10.5, 'over'));
      expect(lock, `lock ${i}`).toBeDefined();
      const parsed = text === null ? null : (JSON.parse(text) as Record<string, unknown> | null);
      const d = (parsed ?? {}) as Record<string, unknown>;
      for (const key of ['evPct', 'value', 'takeable', 'refusal'] as const) {
        expect(Object.is(lock!.detail[key], d[key]) || JSON.stringify(lock!.detail[key]) === JSON.stringify(d[key]), `${i} ${key}`).toBe(true);
      }
      if (parsed === null) expect(lock!.modelDetail, `${i}`).toBeNull();
      else {
        expect(lock!.modelDetail).toBeInstanceOf(JsonText);
        expect((lock!.modelDetail as JsonText).text, `${i}`).toBe(JSON.stringify(parsed));
      }
    });
  });
});
