import { describe, expect, it } from 'vitest';
import { displayState } from '../../src/domain/display-state.js';
import { lineMovement } from '../../src/domain/line-movement.js';
import { buildTicker, type TickerItem } from '../../src/domain/ticker.js';

describe('lineMovement', () => {
  it('has no delta without a previous snapshot line', () => {
    expect(lineMovement(24.5, null, 26)).toEqual({ previousLine: null, lineDelta: null, lineDirection: null });
  });
  it('moves toward the projection when the new line is closer to it', () => {
    // Real bundled example shape: a points line 24.5 -> 25.5 with the model projecting 27.
    expect(lineMovement(25.5, 24.5, 27)).toEqual({ previousLine: 24.5, lineDelta: 1, lineDirection: 'toward' });
    expect(lineMovement(23.5, 24.5, 27)).toEqual({ previousLine: 24.5, lineDelta: -1, lineDirection: 'away' });
  });
  it('reports the delta but no direction without a projection (refused reads)', () => {
    expect(lineMovement(3.5, 2.5, null)).toEqual({ previousLine: 2.5, lineDelta: 1, lineDirection: null });
  });
  it('keeps half-point arithmetic exact', () => {
    expect(lineMovement(0.3 + 0.2, 0.1 + 0.2, null).lineDelta).toBe(0.2);
  });
});

describe('displayState', () => {
  const injuries = new Map([['luka doncic', 'OUT' as const]]);
  const board = { confirmed: new Map([['juan soto', 2]]), postedTeams: new Set(['NYM']) };
  it('injury chips come only from the feed; unknown players get none', () => {
    expect(displayState('luka doncic', 'LAL', 'points', injuries, null).injuryStatus).toBe('OUT');
    expect(displayState('lebron james', 'LAL', 'points', injuries, null).injuryStatus).toBeNull();
    expect(displayState('lebron james', 'LAL', 'points', null, null).injuryStatus).toBeNull();
  });
  it('lineups: CONFIRMED with slot, NOT_IN only when his own team posted, else PROJECTED', () => {
    expect(displayState('juan soto', 'NYM', 'hits', null, board)).toMatchObject({ lineupStatus: 'CONFIRMED', battingSlot: 2 });
    expect(displayState('pete alonso', 'NYM', 'hits', null, board)).toMatchObject({ lineupStatus: 'NOT_IN', battingSlot: null });
    expect(displayState('aaron judge', 'NYY', 'home_runs', null, board)).toMatchObject({ lineupStatus: 'PROJECTED' });
    expect(displayState('aaron judge', null, 'home_runs', null, board)).toMatchObject({ lineupStatus: 'PROJECTED' });
  });
  it('pitcher props and unavailable lineups carry no lineup state', () => {
    expect(displayState('max fried', 'NYY', 'strikeouts', null, board).lineupStatus).toBeNull();
    expect(displayState('juan soto', 'NYM', 'hits', null, null).lineupStatus).toBeNull();
  });
});

describe('buildTicker', () => {
  const move = (i: number): TickerItem => ({ kind: 'MOVE', text: `move ${i}`, sport: 'nba', at: `2025-11-05T17:0${i}:00Z`, source: 'snapshot' });
  it('hides below 4 real items', () => {
    expect(buildTicker([move(1), move(2), move(3)], [])).toEqual({ visible: false, count: 3, items: [] });
  });
  it('shows pins first, then moves newest first, at 4 or more', () => {
    const pin: TickerItem = { kind: 'PIN', text: 'pinned', sport: null, at: null, source: 'manual' };
    const t = buildTicker([move(1), move(3), move(2)], [pin]);
    expect(t.visible).toBe(true);
    expect(t.items.map((i) => i.text)).toEqual(['pinned', 'move 3', 'move 2', 'move 1']);
  });
});
