import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { espnGameStatus } from '../../src/feeds/espn/common.js';
import { parseSummary } from '../../src/feeds/espn/summary.js';
import { espnLeague } from '../../src/feeds/espn/index.js';
import { parseLiveFeed } from '../../src/feeds/mlb-statsapi/live-feed.js';
import {
  basketballElapsed,
  compareLive,
  countStates,
  finalRead,
  finalReadOf,
  liveRead,
  mlbElapsed,
  mlbOffensiveOuts,
  overTarget,
  PACE_MIN_ELAPSED,
  soccerElapsed,
} from '../../src/domain/live.js';

const fixture = (p: string) => JSON.parse(readFileSync(`test/fixtures/${p}`, 'utf8')) as unknown;

describe('liveRead: the five tracking states', () => {
  it('an over above its line is HIT; at or below it, NEEDS the real remaining amount', () => {
    expect(liveRead({ side: 'over', line: 27.5, current: 28, elapsed: 0.8, final: false })).toMatchObject({ state: 'HIT', label: 'HIT', needs: null, proximity: 1 });
    expect(liveRead({ side: 'over', line: 27.5, current: 20, elapsed: 0.9, final: false })).toMatchObject({ state: 'NEEDS', label: 'NEEDS 8', needs: 8 });
    // An integer line reached is a push, not a win: one more is needed.
    expect(liveRead({ side: 'over', line: 27, current: 27, elapsed: 0.99, final: false })).toMatchObject({ state: 'NEEDS', needs: 1 });
    expect(overTarget(27)).toBe(28);
    expect(overTarget(27.5)).toBe(28);
  });

  it('ON PACE when current / elapsed reaches a winning total, only once a quarter of the game has run', () => {
    expect(liveRead({ side: 'over', line: 19.5, current: 12, elapsed: 0.5, final: false })).toMatchObject({ state: 'ON PACE', needs: 8, paceProjection: 24 });
    expect(liveRead({ side: 'over', line: 19.5, current: 9, elapsed: 0.5, final: false })).toMatchObject({ state: 'NEEDS', needs: 11, paceProjection: 18 });
    // 6 points in the first 10% projects 60, but that early a pace is noise.
    expect(liveRead({ side: 'over', line: 19.5, current: 6, elapsed: PACE_MIN_ELAPSED / 2, final: false })).toMatchObject({ state: 'NEEDS', paceProjection: null });
  });

  it('no clock in the feed: no pace state', () => {
    expect(liveRead({ side: 'over', line: 1.5, current: 1, elapsed: null, final: false })).toMatchObject({ state: 'NEEDS', needs: 1, paceProjection: null });
  });

  it('an under below its line HOLDS; at or past it the line is passed (a tracking state, not a loss)', () => {
    expect(liveRead({ side: 'under', line: 6.5, current: 4, elapsed: 0.75, final: false })).toMatchObject({ state: 'HOLDS', proximity: 0.75 });
    expect(liveRead({ side: 'under', line: 6.5, current: 7, elapsed: 0.75, final: false })).toMatchObject({ state: 'LINE PASSED', label: 'LINE PASSED', proximity: 0 });
    expect(liveRead({ side: 'under', line: 6, current: 6, elapsed: 0.75, final: false }).state).toBe('LINE PASSED');
  });

  it('a final, unsettled game keeps tracking states: an over short of its line still NEEDS, never a miss', () => {
    expect(liveRead({ side: 'over', line: 24.5, current: 22, elapsed: 1, final: true })).toMatchObject({ state: 'NEEDS', needs: 3, paceProjection: null });
    expect(liveRead({ side: 'under', line: 24.5, current: 22, elapsed: 1, final: true })).toMatchObject({ state: 'HOLDS', proximity: 1 });
  });

  it('no current value: no state (never a 0 standing in for it)', () => {
    expect(liveRead({ side: 'over', line: 0.5, current: null, elapsed: 0.5, final: false })).toEqual({ state: null, needs: null, paceProjection: null, label: null, proximity: null });
  });

  it('sorts by proximity to hitting, rows without a state last', () => {
    const row = (player: string, side: 'over' | 'under', line: number, current: number | null) => ({ player, stat: 'points', read: liveRead({ side, line, current, elapsed: 0.5, final: false }) });
    const rows = [row('E none', 'over', 10.5, null), row('D passed', 'under', 5.5, 9), row('A hit', 'over', 10.5, 12), row('C needs 9', 'over', 10.5, 2), row('B needs 1', 'over', 10.5, 10)];
    expect(rows.sort(compareLive).map((r) => r.player)).toEqual(['A hit', 'B needs 1', 'C needs 9', 'D passed', 'E none']);
  });
});

describe('game time elapsed from real feed clocks', () => {
  it('basketball: period + clock (a real WNBA halftime status is half the game)', () => {
    const board = fixture('espn/wnba-scoreboard-2025-06-03-live-halftime.json') as { events: Array<{ competitions: Array<{ status: { type: { name: string; state: string; completed: boolean }; period: number; clock: number } }> }> };
    const half = board.events.map((e) => e.competitions[0]!.status).find((s) => s.type.name === 'STATUS_HALFTIME')!;
    expect(basketballElapsed('wnba', espnGameStatus(half.type), half.period, half.clock)).toBe(0.5);
    expect(basketballElapsed('nba', 'in_progress', 3, 6 * 60)).toBe(0.625);
    expect(basketballElapsed('nba', 'in_progress', 5, 120)).toBe(1); // overtime: all of regulation
    expect(basketballElapsed('nba', 'in_progress', 2, null)).toBeNull(); // no clock in the feed
    expect(basketballElapsed('nba', 'scheduled', 1, 720)).toBeNull();
    expect(basketballElapsed('nba', 'final', 4, 0)).toBe(1);
  });

  it("soccer: the minute over 90 from ESPN's clock text (a real live summary at 45'+6')", () => {
    const s = parseSummary(fixture('espn/soccer-fifaworld-summary-760495-2026-07-01-live.json'), espnLeague('soccer', 'fifa.world'))!;
    expect([s.status, s.period, s.displayClock]).toEqual(['in_progress', 1, "45'+6'"]);
    expect(soccerElapsed(s.status, s.statusName, s.period, s.displayClock)).toBe(0.5);
    expect(soccerElapsed('in_progress', 'STATUS_IN_PROGRESS', 2, "67'")).toBeCloseTo(67 / 90);
    expect(soccerElapsed('in_progress', 'STATUS_HALFTIME', 1, null)).toBe(0.5);
    expect(soccerElapsed('in_progress', 'STATUS_IN_PROGRESS', 2, 'not a clock')).toBeNull();
  });

  it('MLB: outs at bat for batters, outs in the field for pitchers', () => {
    expect(mlbOffensiveOuts({ inning: 4, inningState: 'Top', outs: 2 })).toEqual({ away: 11, home: 9 });
    expect(mlbOffensiveOuts({ inning: 4, inningState: 'Bottom', outs: 1 })).toEqual({ away: 12, home: 10 });
    expect(mlbOffensiveOuts({ inning: 4, inningState: 'Middle', outs: 3 })).toEqual({ away: 12, home: 9 });
    expect(mlbElapsed('in_progress', { inning: 4, inningState: 'Top', outs: 2 }, 'away', 'batter')).toBeCloseTo(11 / 27);
    // The home starter's clock is the away side's outs at bat.
    expect(mlbElapsed('in_progress', { inning: 4, inningState: 'Top', outs: 2 }, 'home', 'pitcher')).toBeCloseTo(11 / 27);
    expect(mlbElapsed('in_progress', { inning: null, inningState: null, outs: null }, 'home', 'batter')).toBeNull();
    const feed = parseLiveFeed(fixture('mlb-statsapi/mlb-feedlive-716896-2023-08-22.json'))!;
    expect(feed.status).toBe('final');
    expect(mlbElapsed(feed.status, feed, 'away', 'batter')).toBe(1);
  });
});

describe('final states', () => {
  it('an outcome is its state; a pending settlement has none', () => {
    expect(finalRead('hit')).toMatchObject({ state: 'HIT', label: 'HIT', proximity: 1, needs: null });
    expect(finalRead('miss')).toMatchObject({ state: 'MISS', proximity: 0 });
    expect(finalRead('void')).toMatchObject({ state: 'VOID', proximity: null });
    expect(finalReadOf({ outcome: 'push', actualValue: 7 })).toMatchObject({ state: 'PUSH' });
    expect(finalReadOf({ outcome: 'pending', reason: 'stat_missing', status: 'final' })).toBeNull();
  });

  it('counts rows per state in state order, no-state last, leaving out states with no row', () => {
    expect(countStates(['MISS', 'HIT', null, 'VOID', 'HIT', 'NEEDS'])).toEqual([
      { state: 'HIT', count: 2 },
      { state: 'NEEDS', count: 1 },
      { state: 'MISS', count: 1 },
      { state: 'VOID', count: 1 },
      { state: null, count: 1 },
    ]);
  });

  it('a final HIT leads, a VOID sorts with the rows without a state', () => {
    const row = (player: string, read: ReturnType<typeof finalRead>) => ({ read, player, stat: 'points' });
    const rows = [row('a', finalRead('void')), row('b', finalRead('miss')), row('c', finalRead('hit')), row('d', finalRead('push'))];
    expect(rows.sort(compareLive).map((r) => r.read.state)).toEqual(['HIT', 'PUSH', 'MISS', 'VOID']);
  });
});
