import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { sportsForStat } from '../../src/domain/prop-evaluation.js';
import { statInputSchema } from '../../src/domain/stats.js';

describe('sportsForStat', () => {
  it('lists every sport that grades the stat, narrowed by an explicit sport', () => {
    expect(sportsForStat('points')).toEqual(['nba', 'wnba']);
    expect(sportsForStat('points', 'wnba')).toEqual(['wnba']);
  });

  it('calls a stat foreign to the asked sport bad input', () => {
    expect(() => sportsForStat('points', 'mlb')).toThrow(AppError);
    expect(() => sportsForStat('points', 'mlb')).toThrow(/points is not a mlb stat/);
  });
});

describe('statInputSchema', () => {
  it('reads a canonical name, a market key or an alias as the canonical stat', () => {
    expect(statInputSchema.parse('points')).toBe('points');
    expect(statInputSchema.parse('player_points')).toBe('points');
    expect(statInputSchema.parse(' PTS ')).toBe('points');
  });

  it('refuses an unknown stat by name', () => {
    expect(statInputSchema.safeParse('dunks').success).toBe(false);
  });
});
