import { describe, expect, it } from 'vitest';
import { gameStatusSchema } from '../../src/domain/entities.js';
import { settleEntry, settlementSchema, type GameResult } from '../../src/domain/settlement.js';
import { readCsv, realNbaCases, statFromLog } from '../fixtures/ledger/real-ledger.js';

const cases = realNbaCases();

function find(player: string, statType: string, line: number, side: 'over' | 'under') {
  const c = cases.find((x) => x.entry.player === player && x.entry.statType === statType && x.entry.line === line && x.entry.side === side);
  if (!c) throw new Error(`no real case for ${player} ${statType} ${line} ${side}`);
  return c;
}

describe('settleEntry on the real 2025-11-21 NBA slate', () => {
  it('settles Donovan Mitchell against his NBA.com line (32 pts, 9 reb, 5 ast, 4 threes, 1 stl)', () => {
    const expectations = [
      ['points', 28.5, 'over', 'hit', 32],
      ['points', 28.5, 'under', 'miss', 32],
      ['assists', 5.5, 'over', 'miss', 5],
      ['assists', 5.5, 'under', 'hit', 5],
      ['rebounds', 4.5, 'over', 'hit', 9],
      ['pra', 38.5, 'over', 'hit', 46],
      ['threes', 3.5, 'over', 'hit', 4],
      ['steals', 1.5, 'under', 'hit', 1],
    ] as const;
    for (const [stat, line, side, outcome, actual] of expectations) {
      const c = find('Donovan Mitchell', stat, line, side);
      expect(c.result).not.toBeNull();
      expect(settleEntry(c.entry, c.result as GameResult)).toEqual({ outcome, actualValue: actual });
    }
  });

  it('voids a tracked player with a prop and no box-score row (Jrue Holiday, late 03:10Z tip, still 2025-11-21 ET)', () => {
    const c = find('Jrue Holiday', 'assists', 6.5, 'over');
    expect(c.entry.commenceTime).toBe('2025-11-22T03:10:00Z');
    expect(c.entry.gameDate).toBe('2025-11-21');
    expect(c.result).toEqual({ status: 'final', boxScore: null });
    expect(settleEntry(c.entry, c.result as GameResult)).toEqual({ outcome: 'void', reason: 'not_in_box_score' });
  });

  it('voids a 0-minute row instead of calling it a miss (Joe Ingles, MIN @ PHX, 0.0 minutes, 0 pts)', () => {
    const log = readCsv('nba_player_game_logs_2024-25_and_2025-26.csv').find(
      (r) => r.player === 'Joe Ingles' && r.date === '2025-11-21',
    );
    expect(log?.minutes).toBe('0.0');
    const points = statFromLog(log ?? {}, 'points');
    expect(points).toBe(0);
    const result: GameResult = { status: 'final', boxScore: { stat: points, minutes: Number(log?.minutes) } };
    // A naive comparison would call the over 0.5 a miss; a player who did not play is void.
    expect(settleEntry({ line: 0.5, side: 'over' }, result)).toEqual({ outcome: 'void', reason: 'zero_minutes' });
    expect(settleEntry({ line: 0.5, side: 'under' }, result)).toEqual({ outcome: 'void', reason: 'zero_minutes' });
  });

  it('over and under of the same real line always settle to opposite hit/miss, and voids come in pairs', () => {
    const settled = cases.filter((c) => c.result !== null);
    expect(settled.length).toBeGreaterThan(1000);
    const byProp = new Map<string, string[]>();
    for (const c of settled) {
      const s = settleEntry(c.entry, c.result as GameResult);
      settlementSchema.parse(s);
      const key = `${c.entry.eventId}|${c.entry.playerKey}|${c.entry.statType}|${c.entry.line}`;
      byProp.set(key, [...(byProp.get(key) ?? []), s.outcome]);
    }
    const pairs = [...byProp.values()].map((o) => o.slice().sort().join('/'));
    expect(new Set(pairs)).toEqual(new Set(['hit/miss', 'void/void']));
    // Every real line ends in .5: no push can occur on this slate.
    expect(pairs.filter((p) => p === 'void/void').length).toBeGreaterThan(0);
  });

  it('leaves players the logs do not track without a result: nothing is guessed', () => {
    const untracked = cases.filter((c) => c.result === null);
    expect(untracked.length).toBeGreaterThan(0);
    expect(untracked.every((c) => c.entry.outcome === 'pending' && c.entry.actualValue === null)).toBe(true);
  });
});

describe('settleEntry rules', () => {
  const final = (stat: number | null, minutes: number | null = 30): GameResult => ({
    status: 'final',
    boxScore: { stat, minutes },
  });

  it('pushes on a whole-number line when the stat equals it, for both sides', () => {
    expect(settleEntry({ line: 6, side: 'over' }, final(6))).toEqual({ outcome: 'push', actualValue: 6 });
    expect(settleEntry({ line: 6, side: 'under' }, final(6))).toEqual({ outcome: 'push', actualValue: 6 });
    expect(settleEntry({ line: 6, side: 'over' }, final(7))).toEqual({ outcome: 'hit', actualValue: 7 });
    expect(settleEntry({ line: 6, side: 'under' }, final(5))).toEqual({ outcome: 'hit', actualValue: 5 });
    expect(settleEntry({ line: 6, side: 'under' }, final(7))).toEqual({ outcome: 'miss', actualValue: 7 });
  });

  it('settles a stat of 0 by a player who played (MLB: no minutes) as a real result', () => {
    expect(settleEntry({ line: 0.5, side: 'over' }, final(0, null))).toEqual({ outcome: 'miss', actualValue: 0 });
    expect(settleEntry({ line: 0.5, side: 'under' }, final(0, null))).toEqual({ outcome: 'hit', actualValue: 0 });
  });

  it('keeps every non-final status pending, box score or not', () => {
    for (const status of gameStatusSchema.options.filter((s) => s !== 'final')) {
      expect(settleEntry({ line: 5.5, side: 'over' }, { status, boxScore: { stat: 9, minutes: 30 } })).toEqual({
        outcome: 'pending',
        reason: 'game_not_final',
        status,
      });
      expect(settleEntry({ line: 5.5, side: 'over' }, { status, boxScore: null }).outcome).toBe('pending');
    }
  });

  it('keeps a final game with a missing stat pending with a reason (data missing, never a guess)', () => {
    expect(settleEntry({ line: 5.5, side: 'over' }, final(null))).toEqual({
      outcome: 'pending',
      reason: 'stat_missing',
      status: 'final',
    });
    expect(settleEntry({ line: 5.5, side: 'over' }, final(Number.NaN)).outcome).toBe('pending');
  });
});
