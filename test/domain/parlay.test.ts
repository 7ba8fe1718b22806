import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import {
  assertLegCount,
  assertParlayLegs,
  averageCorrelation,
  combineGrades,
  CORRELATION,
  CORRELATION_PENALTY_FACTOR,
  correlationWarning,
  estimatePayout,
  legConflicts,
  pairCorrelations,
  parlayProblems,
  relationshipOf,
  type LegContext,
  type ParlayLegCheck,
} from '../../src/domain/parlay.js';

// Real identities from the bundled 2025-11-05 replay: OKC @ POR and PHI @ CLE.
const OKC_POR = '791675e364eb25c166c6382113c0c17f';
const PHI_CLE = '82a6ef30859cca886863981ccbe7deb5';
const sga: LegContext = { playerKey: 'shai gilgeous alexander', team: 'OKC', eventId: OKC_POR };
const chet: LegContext = { playerKey: 'chet holmgren', team: 'OKC', eventId: OKC_POR };
const avdija: LegContext = { playerKey: 'deni avdija', team: 'POR', eventId: OKC_POR };
const mitchell: LegContext = { playerKey: 'donovan mitchell', team: 'CLE', eventId: PHI_CLE };

describe('pair correlation by game relationship (seed values)', () => {
  it('same player 0.7, same team same game 0.4, same game opposing 0.2, different games 0.0', () => {
    expect(CORRELATION).toEqual({ same_player: 0.7, same_team_same_game: 0.4, same_game_opposing_teams: 0.2, different_games: 0.0 });
    expect(relationshipOf(sga, sga)).toBe('same_player');
    expect(relationshipOf(sga, chet)).toBe('same_team_same_game');
    expect(relationshipOf(sga, avdija)).toBe('same_game_opposing_teams');
    expect(relationshipOf(sga, mitchell)).toBe('different_games');
  });

  it('same player wins even without a known game; otherwise a missing game or team is unknown, never guessed', () => {
    expect(relationshipOf({ ...sga, eventId: null }, { ...sga, eventId: null })).toBe('same_player');
    expect(relationshipOf(sga, { ...chet, eventId: null })).toBe('unknown');
    expect(relationshipOf(sga, { ...avdija, team: null })).toBe('unknown');
    // Different games are uncorrelated whatever the teams are.
    expect(relationshipOf(sga, { ...mitchell, team: null })).toBe('different_games');
  });

  it('lists every pair once with its score and averages the known ones', () => {
    const pairs = pairCorrelations([sga, chet, avdija, mitchell]);
    expect(pairs.map((p) => `${p.a}+${p.b}:${p.score}`)).toEqual(['1+2:0.4', '1+3:0.2', '1+4:0', '2+3:0.2', '2+4:0', '3+4:0']);
    expect(averageCorrelation(pairs)).toBeCloseTo(0.8 / 6, 15);
    const withUnknown = pairCorrelations([sga, chet, { playerKey: 'larry nance', team: 'CLE', eventId: null }]);
    expect(withUnknown.map((p) => p.score)).toEqual([0.4, null, null]);
    expect(averageCorrelation(withUnknown)).toBe(0.4);
    expect(averageCorrelation(pairCorrelations([sga, { ...chet, eventId: null }]))).toBeNull();
    expect(averageCorrelation([])).toBeNull();
  });
});

describe('combined grade = mean leg points - average correlation x 0.5', () => {
  it('uses the grades.ts scale A+ 4.3, A 4.0, B 3.0, C 2.0, F 0.0', () => {
    expect(CORRELATION_PENALTY_FACTOR).toBe(0.5);
    // A + B = 3.5; same team same game 0.4 -> penalty 0.2 -> 3.3 -> B (B >= 2.5, A >= 3.5).
    const c = combineGrades(['A', 'B'], 0.4);
    expect(c.points.average).toBe(3.5);
    expect(c.points.penalty).toBeCloseTo(0.2, 15);
    expect(c.points.combined).toBeCloseTo(3.3, 15);
    expect(c.grade).toBe('B');
    expect(c).toMatchObject({ legsUsed: 2, legsTotal: 2, provisional: false });
  });

  it('the penalty moves a letter: A+ A+ uncorrelated stays A+, the same two legs of one player drop to A', () => {
    expect(combineGrades(['A+', 'A+'], 0).grade).toBe('A+');
    const same = combineGrades(['A+', 'A+'], 0.7);
    expect(same.points.combined).toBeCloseTo(4.3 - 0.35, 15);
    expect(same.grade).toBe('A');
  });

  it('leaves refused legs out and says how many legs it rests on', () => {
    const c = combineGrades(['A', null, 'C'], 0.2);
    expect(c.points.average).toBe(3);
    expect(c.points.combined).toBeCloseTo(2.9, 15);
    expect(c.grade).toBe('B');
    expect(c).toMatchObject({ legsUsed: 2, legsTotal: 3, provisional: false });
    const one = combineGrades(['B', null], 0.0);
    expect(one).toMatchObject({ grade: 'B', legsUsed: 1, legsTotal: 2, provisional: true });
    expect(combineGrades([null, null], 0.4)).toMatchObject({ grade: null, legsUsed: 0, points: { average: null, penalty: null, combined: null } });
  });

  it('one leg is a provisional leg grade with no penalty; unknown correlation on a multi-leg slip gives no grade', () => {
    expect(combineGrades(['C'], null)).toEqual({ grade: 'C', provisional: true, legsUsed: 1, legsTotal: 1, points: { average: 2, penalty: null, combined: 2 } });
    expect(combineGrades(['A', 'A'], null)).toMatchObject({ grade: null, points: { average: 4, penalty: null, combined: null } });
  });
});

describe('estimated payout = product of fair decimal odds x (1 - average correlation)', () => {
  it('multiplies fair decimals and takes the haircut', () => {
    // +100 is decimal 2.0; two legs at 0.4 -> 4 x 0.6 = 2.4 -> +140.
    const p = estimatePayout([100, 100], 0.4);
    expect(p!.product).toBe(4);
    expect(p!.decimal).toBeCloseTo(2.4, 15);
    expect(p!.american).toBeCloseTo(140, 9);
    // Real fair prices of the bundled board (SGA points 31.5 over, Chet Holmgren rebounds 8.5 over).
    const real = estimatePayout([100.8855827134254, 133.46382978723403], 0.4)!;
    expect(real.decimal).toBeCloseTo(2.008855827134254 * 2.3346382978723403 * 0.6, 12);
    expect(estimatePayout([-200, 150], 0)!.decimal).toBeCloseTo(1.5 * 2.5, 15);
  });

  it('is null when any leg lacks a fair price, or a multi-leg slip has no known pair', () => {
    expect(estimatePayout([100, null], 0)).toBeNull();
    expect(estimatePayout([100, 50], 0)).toBeNull(); // |A| < 100 is not a price
    expect(estimatePayout([100, 100], null)).toBeNull();
    expect(estimatePayout([], 0)).toBeNull();
  });

  it('one leg: its own fair decimal, no haircut; a haircut below the stake has no American price', () => {
    expect(estimatePayout([150], null)!.decimal).toBe(2.5);
    const under = estimatePayout([-200, -200], 0.7)!;
    expect(under.decimal).toBeCloseTo(0.675, 15);
    expect(under.american).toBeNull();
  });
});

describe('correlation warning', () => {
  it('fires at an average of 0.2 or any pair of 0.4, and not below', () => {
    const opposing = pairCorrelations([sga, avdija]);
    expect(correlationWarning(opposing, 0.2)).toMatch(/^correlated legs: average correlation 0\.20/);
    const slip = pairCorrelations([sga, chet, avdija, mitchell]);
    expect(correlationWarning(slip, averageCorrelation(slip))).toMatch(/legs 1\+2 same team, same game \(0\.4\)/);
    const calm = pairCorrelations([sga, mitchell, avdija]);
    // pairs: different 0, opposing 0.2, different 0 -> average 0.067, no pair >= 0.4
    expect(correlationWarning(calm, averageCorrelation(calm))).toBeNull();
    expect(correlationWarning([], null)).toBeNull();
  });
});

describe('leg counts and tier caps', () => {
  const message = (n: number, tier: 'free' | 'analyst' | 'desk') => {
    try {
      assertLegCount(n, tier);
      return null;
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).exitCode).toBe(2);
      return (e as AppError).message;
    }
  };
  it('free 2, analyst 4, desk 6; 0, 1 and 7 refused', () => {
    expect(message(1, 'free')).toMatch(/a parlay takes 2 to 6 legs, got 1 \(one prop alone: propgrade scan/);
    expect(message(2, 'free')).toBeNull();
    expect(message(3, 'free')).toMatch(/free tier allows at most 2 legs/);
    expect(message(4, 'analyst')).toBeNull();
    expect(message(5, 'analyst')).toMatch(/analyst tier allows at most 4 legs/);
    expect(message(6, 'desk')).toBeNull();
    expect(message(7, 'desk')).toMatch(/2 to 6 legs, got 7/);
    expect(message(7, 'free')).toMatch(/2 to 6 legs, got 7/);
    expect(message(0, 'desk')).toMatch(/2 to 6 legs, got 0/);
  });
});

describe('legs that make no parlay', () => {
  const check = (leg: number, market: string, line: number, side: 'over' | 'under', unresolved: string | null = null): ParlayLegCheck => ({
    leg,
    label: `${market} ${side} ${line}`,
    market,
    line,
    side,
    unresolved,
  });
  const refusal = (legs: ParlayLegCheck[]): AppError => {
    try {
      assertParlayLegs(legs);
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).exitCode).toBe(2);
      expect((e as AppError).status).toBe(400);
      return e as AppError;
    }
    throw new Error('expected a refusal');
  };

  it('names each pair that bets one market: the same prop twice, both sides, two lines of one stat', () => {
    const legs = [check(1, 'nba:jalen brunson|points', 27.5, 'over'), check(2, 'nba:jalen brunson|points', 27.5, 'under'), check(3, 'nba:jalen brunson|points', 27.5, 'over'), check(4, 'nba:jalen brunson|points', 25.5, 'over')];
    expect(legConflicts(legs)).toEqual([
      { a: 1, b: 2, kind: 'both_sides' },
      { a: 1, b: 3, kind: 'repeated' },
      { a: 1, b: 4, kind: 'same_market' },
      { a: 2, b: 3, kind: 'both_sides' },
      { a: 2, b: 4, kind: 'same_market' },
      { a: 3, b: 4, kind: 'same_market' },
    ]);
    const e = refusal(legs.slice(0, 2));
    expect(e.message).toBe('not a parlay: legs 1 (nba:jalen brunson|points over 27.5) and 2 (nba:jalen brunson|points under 27.5) are both sides of one prop (they cannot both win)');
    expect(e.details).toEqual({ conflicts: [{ a: 1, b: 2, kind: 'both_sides' }], unresolved: [] });
    expect(refusal([legs[0]!, legs[2]!]).message).toMatch(/legs 1 .* and 3 .* are the same prop twice$/);
  });

  it('another stat of one player, or one player in two sports, is a parlay', () => {
    const legs = [check(1, 'nba:jalen brunson|points', 27.5, 'over'), check(2, 'nba:jalen brunson|assists', 6.5, 'over'), check(3, 'wnba:jalen brunson|points', 27.5, 'under')];
    expect(legConflicts(legs)).toEqual([]);
    expect(() => assertParlayLegs(legs)).not.toThrow();
  });

  it('refuses when no leg resolves, naming every leg and why; one resolved leg keeps the rest as warnings', () => {
    const none = [check(1, 'typed:nobody|points', 10.5, 'over', "no player 'Nobody' in the store"), check(2, 'nba:jalen brunson|points', 10.5, 'over', 'lines it priced: 23.5, 24.5')];
    const e = refusal(none);
    expect(e.message).toBe(
      "not a parlay: no leg resolves to a line the board prices: leg 1 (typed:nobody|points over 10.5): no player 'Nobody' in the store; leg 2 (nba:jalen brunson|points over 10.5): lines it priced: 23.5, 24.5",
    );
    expect(parlayProblems(none).unresolved.map((u) => u.leg)).toEqual([1, 2]);
    expect(parlayProblems([none[0]!, check(2, 'nba:jalen brunson|points', 27.5, 'over')])).toEqual({ conflicts: [], unresolved: [] });
  });
});
