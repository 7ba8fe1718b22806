import { readFileSync } from 'node:fs';
import type { PlayerGameStat } from '../../src/domain/entities.js';
import { describe, expect, it } from 'vitest';
import { cascadeSplit, CASCADE_MIN_GAMES } from '../../src/domain/cascade.js';
import { isPlayedGame, leaderMinGames, minutesAverage, parseSeason, seasonContaining, statAverages, statLeaders } from '../../src/domain/leaders.js';
import { loadNbaGameLogsCsv } from '../../src/feeds/history/nba-gamelogs.js';

/**
 * The pure stats figures on real rows: test/fixtures/history/gamelogs-nop-excerpt.csv holds every
 * 2024-25 and 2025-26 game-log row of Herbert Jones and Jose Alvarado (NOP), byte copies of the
 * shared game logs (its PROVENANCE.md).
 */

const lines = loadNbaGameLogsCsv(readFileSync('test/fixtures/history/gamelogs-nop-excerpt.csv', 'utf8')).rows;
const of = (name: string) => lines.filter((l) => l.playerName === name);

describe('seasons', () => {
  it('NBA seasons start August 1 and straddle the year; MLB and WNBA are calendar years', () => {
    expect(seasonContaining('nba', '2025-11-05')).toEqual({ label: '2025-26', from: '2025-08-01', until: '2026-08-01' });
    expect(seasonContaining('nba', '2025-04-13')).toEqual({ label: '2024-25', from: '2024-08-01', until: '2025-08-01' });
    expect(seasonContaining('mlb', '2025-11-05')).toEqual({ label: '2025', from: '2025-01-01', until: '2026-01-01' });
    expect(parseSeason('nba', '2024-25')).toEqual(parseSeason('nba', '2024'));
    expect(parseSeason('nba', '1999-2000')?.label).toBe('1999-00');
    expect(parseSeason('nba', '2024-26')).toBeNull();
    expect(parseSeason('mlb', '2024-25')).toBeNull();
    expect(parseSeason('nba', 'last')).toBeNull();
  });
});

describe('played games and averages', () => {
  it('a 0-minute basketball line is not a played game; an MLB line always is', () => {
    expect(isPlayedGame('nba', { minutes: 0 })).toBe(false);
    expect(isPlayedGame('nba', { minutes: null })).toBe(false);
    expect(isPlayedGame('nba', { minutes: 18 })).toBe(true);
    expect(isPlayedGame('mlb', { minutes: null })).toBe(true);
  });

  it('each average carries its n; a stat no line carries is absent, never 0; no minutes: null', () => {
    const jones = of('Herbert Jones').filter((l) => isPlayedGame('nba', l));
    const avgs = statAverages('nba', jones);
    const points = avgs.find((a) => a.stat === 'points')!;
    expect(points.n).toBe(jones.length);
    expect(points.total).toBe(jones.reduce((t, l) => t + (l.stats.points ?? 0), 0));
    expect(statAverages('nba', [{ stats: { points: null } }, { stats: {} }])).toEqual([]);
    expect(statAverages('nba', [{ stats: { points: 10, rebounds: null } }, { stats: { points: 20 } }])).toEqual([{ stat: 'points', avg: 15, n: 2, total: 30 }]);
    expect(minutesAverage([{ minutes: null }])).toBeNull();
  });
});

describe('leaders', () => {
  it('the minimum is 70% of the most team games, rounded up (82 -> 58, 8 -> 6, 1 -> 1)', () => {
    expect([leaderMinGames(82), leaderMinGames(8), leaderMinGames(1), leaderMinGames(0)]).toEqual([58, 6, 1, 1]);
  });

  it('ranks the per-game average over played games with the stat, only players reaching the minimum', () => {
    const season = lines.filter((l) => l.date >= '2024-08-01' && l.date < '2025-08-01');
    const board = statLeaders('nba', 'points', season, { limit: 5 });
    const games = new Set(season.map((l) => l.date)).size;
    expect(board.teamGamesMax).toBe(games);
    expect(board.minGames).toBe(Math.ceil(0.7 * games));
    for (const row of board.leaders) {
      const played = season.filter((l) => l.playerKey === row.key && isPlayedGame('nba', l));
      expect(row.games).toBe(played.length);
      expect(row.avg).toBeCloseTo(played.reduce((t, l) => t + l.stats.points!, 0) / played.length, 10);
      expect(row.games).toBeGreaterThanOrEqual(board.minGames);
    }
    expect(board.players).toBe(2);
  });
});

describe('cascade', () => {
  it('Jose Alvarado with and without Herbert Jones (NOP 2024-25): both sides counted from real lines', () => {
    const season = lines.filter((l) => l.date >= '2024-08-01' && l.date < '2025-08-01');
    const split = cascadeSplit('nba', 'herbert jones', 'NO', season, 1);
    const jonesDates = new Set(of('Herbert Jones').filter((l) => l.date < '2025-08-01' && isPlayedGame('nba', l)).map((l) => l.date));
    const alvarado = season.filter((l) => l.playerName === 'Jose Alvarado' && isPlayedGame('nba', l));
    const t = split.teammates.find((x) => x.player === 'Jose Alvarado')!;
    expect(t.with.n).toBe(alvarado.filter((l) => jonesDates.has(l.date)).length);
    expect(t.without.n).toBe(alvarado.filter((l) => !jonesDates.has(l.date)).length);
    expect(t.with.n + t.without.n).toBe(alvarado.length);
    expect(split.gamesWith).toBe(jonesDates.size);
    expect(t.delta.minutesAvg).toBeCloseTo(t.without.minutes!.avg - t.with.minutes!.avg, 10);
  });

  it('a teammate with no change measured sorts after every measured one, never as a zero', () => {
    // MLB lines carry no minutes: the change is the first stat's, and a teammate with no real stat has none.
    const line = (player: string, date: string, stats: Record<string, number | null>): PlayerGameStat => ({
      sport: 'mlb', playerKey: player.toLowerCase(), playerName: player, team: 'NYY', opponent: 'BOS', date, gameId: `g-${date}`, minutes: null, stats, extras: {}, source: 'test',
    });
    const dates = ['2025-05-01', '2025-05-02', '2025-05-03', '2025-05-04'];
    const lines = dates.flatMap((d, i) => [
      ...(i < 2 ? [line('Star', d, { hits: 1 })] : []),
      line('Gainer', d, { hits: i < 2 ? 0 : 2 }),
      line('Loser', d, { hits: i < 2 ? 2 : 0 }),
      line('Unmeasured', d, { hits: null }),
    ]);
    const split = cascadeSplit('mlb', 'star', 'NYY', lines, 2);
    expect(split.teammates.map((t) => t.player)).toEqual(['Gainer', 'Loser', 'Unmeasured']);
    const unmeasured = split.teammates[2]!;
    expect(unmeasured.delta).toEqual({ minutesAvg: null, stats: [] });
  });

  it(`a teammate under ${CASCADE_MIN_GAMES} games on either side is not shown, only counted`, () => {
    const season = lines.filter((l) => l.date >= '2025-08-01');
    const split = cascadeSplit('nba', 'herbert jones', 'NO', season);
    expect(split.teammates).toEqual([]);
    expect(split.belowMinimum).toBe(1);
  });
});
