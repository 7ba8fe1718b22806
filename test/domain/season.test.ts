import { describe, expect, it } from 'vitest';
import { seasonStart } from '../../src/domain/season.js';
import type { GradedSport } from '../../src/domain/sports.js';

/**
 * Real seasons: first and last game day, and the last game day of the season before. Every day of
 * a season must read one start, on or before its opener and after the previous season's end.
 */
const SEASONS: Array<{ sport: GradedSport; what: string; first: string; last: string; previousLast: string }> = [
  // NBA: opening night to the Finals' last game.
  { sport: 'nba', what: 'NBA 2023-24', first: '2023-10-24', last: '2024-06-17', previousLast: '2023-06-12' },
  { sport: 'nba', what: 'NBA 2024-25', first: '2024-10-22', last: '2025-06-22', previousLast: '2024-06-17' },
  // MLB: the Seoul and Tokyo openers to the World Series' last game.
  { sport: 'mlb', what: 'MLB 2024', first: '2024-03-20', last: '2024-10-30', previousLast: '2023-11-01' },
  { sport: 'mlb', what: 'MLB 2025', first: '2025-03-18', last: '2025-11-01', previousLast: '2024-10-30' },
  // WNBA: opening day to the Finals' last game.
  { sport: 'wnba', what: 'WNBA 2024', first: '2024-05-14', last: '2024-10-20', previousLast: '2023-10-18' },
  { sport: 'wnba', what: 'WNBA 2025', first: '2025-05-16', last: '2025-10-10', previousLast: '2024-10-20' },
  // Soccer: the Premier League's opener to the Champions League final.
  { sport: 'soccer', what: 'EPL/UCL 2024-25', first: '2024-08-16', last: '2025-05-31', previousLast: '2024-06-01' },
  // 2025-26: the opener and the scheduled final matchday.
  { sport: 'soccer', what: 'EPL 2025-26', first: '2025-08-15', last: '2026-05-24', previousLast: '2025-05-31' },
  // The 2026 World Cup (Jun 11 - Jul 19): one tournament, one window, however far it runs into July.
  { sport: 'soccer', what: 'World Cup 2026', first: '2026-06-11', last: '2026-07-19', previousLast: '2025-05-31' },
];

describe('seasonStart against real seasons', () => {
  for (const s of SEASONS) {
    it(`${s.what}: every day from ${s.first} to ${s.last} reads one start, after ${s.previousLast}`, () => {
      const start = seasonStart(s.sport, s.first);
      expect(seasonStart(s.sport, s.last)).toBe(start);
      expect(start <= s.first).toBe(true);
      expect(start > s.previousLast).toBe(true);
    });
  }

  it('names the window in full: Aug 1 for NBA and soccer, Jan 1 for MLB and WNBA', () => {
    expect(seasonStart('nba', '2025-11-05')).toBe('2025-08-01');
    expect(seasonStart('nba', '2026-03-01')).toBe('2025-08-01');
    expect(seasonStart('soccer', '2025-11-25')).toBe('2025-08-01');
    expect(seasonStart('soccer', '2025-07-31')).toBe('2024-08-01');
    expect(seasonStart('mlb', '2025-08-01')).toBe('2025-01-01');
    expect(seasonStart('wnba', '2024-06-11')).toBe('2024-01-01');
  });
});
