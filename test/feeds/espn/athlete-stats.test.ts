import { describe, expect, it } from 'vitest';
import {
  alignValues,
  athleteGamelogUrl,
  parseAthleteCoreStatistics,
  parseAthleteGamelog,
  parseAthleteSeasonStats,
} from '../../../src/feeds/espn/athlete-stats.js';
import { espnLeague } from '../../../src/feeds/espn/common.js';
import { collectingLog, readFixtureJson } from './fixture-transport.js';

const load = (file: string) => readFixtureJson('espn', file);

describe('ESPN athlete season tables', () => {
  it("reads LeBron James's 2003-04 averages, splitting made-attempted columns", () => {
    const rows = parseAthleteSeasonStats(load('nba-athlete-stats-1966.json'))!;
    const rookie = rows.find((r) => r.category === 'averages' && r.season === 2004)!;
    expect(rookie).toMatchObject({ seasonLabel: '2003-04', teamId: '5' });
    expect(rookie.values).toMatchObject({ gamesPlayed: 79, avgMinutes: 39.5, avgFieldGoalsMade: 7.9, avgFieldGoalsAttempted: 18.9, avgPoints: 20.9, avgRebounds: 5.5 });
    expect(rows.filter((r) => r.category === 'averages')).toHaveLength(22);
  });

  it('reads MLB batting tables (site.web stats for athlete 33192)', () => {
    const rows = parseAthleteSeasonStats(load('mlb-athlete-stats-33192.json'))!;
    const r2025 = rows.find((r) => r.category === 'career-batting' && r.season === 2025)!;
    expect(r2025.values).toMatchObject({ gamesPlayed: 57, homeRuns: 21, hits: 86, avg: 0.398 });
  });

  it('reads sports.core statistics (WNBA 2491205)', () => {
    const stats = parseAthleteCoreStatistics(load('wnba-athlete-core-statistics-2491205.json'))!;
    expect(stats['offensive']).toMatchObject({ points: 4956, avgPoints: 16.52 });
    expect(stats['defensive']?.['blocks']).toBe(191);
  });

  it('reads the game-log shape (NFL shape reference: the only real gamelog payload)', () => {
    const rows = parseAthleteGamelog(load('nfl-athlete-gamelog-3139477-SHAPE-REFERENCE.json'))!;
    expect(rows).toHaveLength(19);
    const sb = rows.find((r) => r.eventId === '401671889')!;
    expect(sb).toMatchObject({ seasonType: '2024 Postseason', opponentAbbr: 'PHI', teamAbbr: 'KC', result: 'L', atVs: 'vs', gameDate: '2025-02-09T23:30:00Z' });
    expect(sb.values).toMatchObject({ completions: 21, passingAttempts: 32, passingYards: 257 });
    expect(athleteGamelogUrl(espnLeague('nba'), '1966')).toBe('https://site.web.api.espn.com/apis/common/v3/sports/basketball/nba/athletes/1966/gamelog');
  });

  it('aligns cells to names with nulls for non-numeric cells', () => {
    expect(alignValues(['a', 'b-c', 'd'], ['1', '2-5', '--'])).toEqual({ a: 1, b: 2, c: 5, d: null });
  });

  it('returns null with a warning for unknown shapes', () => {
    for (const fn of [parseAthleteSeasonStats, parseAthleteCoreStatistics, parseAthleteGamelog]) {
      const log = collectingLog();
      expect(fn({ nope: true }, log)).toBeNull();
      expect(log.warnings).toHaveLength(1);
    }
  });
});
