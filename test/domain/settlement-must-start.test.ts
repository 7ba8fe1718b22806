import { describe, expect, it } from 'vitest';
import { settleEntry } from '../../src/domain/settlement.js';

// Pitcher props: the listed pitcher must start (throw his team's first pitch), else the bet is void.
describe('settleEntry: the must-start rule of pitcher props', () => {
  it('a starter settles on his strikeouts', () => {
    expect(settleEntry({ line: 5.5, side: 'over' }, { status: 'final', boxScore: { stat: 7, minutes: null, started: true } })).toEqual({ outcome: 'hit', actualValue: 7 });
  });
  it('a pitcher who pitched but did not start (followed an opener, or relieved) is void', () => {
    expect(settleEntry({ line: 3.5, side: 'under' }, { status: 'final', boxScore: { stat: 2, minutes: null, started: false } })).toEqual({ outcome: 'void', reason: 'did_not_start' });
  });
  it('a pitcher absent from the final box score is void; a postponed game stays pending', () => {
    expect(settleEntry({ line: 4.5, side: 'over' }, { status: 'final', boxScore: null })).toEqual({ outcome: 'void', reason: 'not_in_box_score' });
    expect(settleEntry({ line: 4.5, side: 'over' }, { status: 'postponed', boxScore: null })).toMatchObject({ outcome: 'pending', reason: 'game_not_final' });
  });
  it('without the flag (not a pitcher prop) nothing changes', () => {
    expect(settleEntry({ line: 0.5, side: 'over' }, { status: 'final', boxScore: { stat: 1, minutes: null } })).toEqual({ outcome: 'hit', actualValue: 1 });
  });
});
