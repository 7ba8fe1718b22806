import { describe, expect, it } from 'vitest';
import { REFUSAL_LEGEND, REFUSAL_WORDS, refusalWord } from '../../src/domain/refusal.js';
import { gradeProp } from '../../src/domain/model/index.js';

describe('refusalWord', () => {
  it('reads each refusal sentence the model writes as one word', () => {
    expect(refusalWord('only 0 played game(s) with points in the last 240 days (need 5)')).toBe('no history');
    expect(refusalWord('no pra recorded in 7 played games: the rate cannot be estimated')).toBe('no history');
    expect(refusalWord('no book prices both sides of 4.5, so there is no market to grade a price against')).toBe('no market');
    expect(refusalWord('no valid price at 4.5')).toBe('no market');
    expect(refusalWord('home_runs is not graded for nba')).toBe('not graded stat');
    expect(refusalWord('the model gives the over no real chance either way at 40.5')).toBe('no chance');
    expect(refusalWord('line -1 is not a stat threshold')).toBe('bad line');
    expect(refusalWord('no projection')).toBe('no projection');
    expect(refusalWord('something new')).toBe('other');
    expect(refusalWord(null)).toBeNull();
    for (const w of REFUSAL_WORDS) expect(REFUSAL_LEGEND[w].length).toBeGreaterThan(10);
  });

  it('the words of real refusals from gradeProp', () => {
    const out = gradeProp({ sport: 'nba', stat: 'points', line: 20.5, side: 'over', market: null, history: [], gameDate: '2025-11-05' });
    expect(out.grade).toBeNull();
    expect(out.insufficientData && refusalWord(out.reason)).toBe('no history');
  });
});
