import { describe, expect, it } from 'vitest';
import type { ContentFacts, LedgerFact } from '../../src/domain/facts.js';
import { streaks } from '../../src/content/select.js';
import { streakWatch } from '../../src/content/templates/record.js';

let nextId = 1;
/** A public entry as the store holds it; `day` is the November 2025 game day. */
function entry(player: string, stat: string, day: number, outcome: LedgerFact['outcome'], extra: Partial<LedgerFact> = {}): LedgerFact {
  const date = `2025-11-${String(day).padStart(2, '0')}`;
  return {
    id: nextId++,
    sport: 'nba',
    eventId: `ev-${player}-${day}`,
    commenceTime: `${date}T23:30:00Z`,
    gameDate: date,
    player,
    playerKey: player.toLowerCase().replace(/\W+/g, '-'),
    team: 'NY',
    opponent: 'MIN',
    statType: stat,
    line: 24.5,
    side: 'over',
    grade: 'B',
    book: 'fanduel',
    price: -110,
    pWin: null,
    gradedAt: `${date}T15:00:00Z`,
    outcome,
    actualValue: null,
    clvVerdict: null,
    clvPct: null,
    closeMethod: null,
    closeLeadMinutes: null,
    pinnacleClvVerdict: null,
    pinnacleCloseLeadMinutes: null,
    archetype: null,
    ...extra,
  };
}

describe('streak watch', () => {
  it('counts the current run in games, newest back: a void is skipped, a push ends it, pending is not part of it', () => {
    const rows = [
      entry('Jalen Brunson', 'points', 1, 'miss'),
      entry('Jalen Brunson', 'points', 2, 'hit'),
      entry('Jalen Brunson', 'points', 3, 'hit'),
      entry('Jalen Brunson', 'points', 4, 'void'),
      entry('Jalen Brunson', 'points', 5, 'hit'),
      entry('Jalen Brunson', 'points', 6, 'pending'),
      entry('Josh Hart', 'rebounds', 1, 'miss'),
      entry('Josh Hart', 'rebounds', 2, 'push'),
      entry('Josh Hart', 'rebounds', 3, 'miss'),
      entry('Josh Hart', 'rebounds', 4, 'miss'),
    ];
    const runs = streaks(rows);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ player: 'Jalen Brunson', statType: 'points', outcome: 'hit', run: 3, n: 4 });
    expect(runs[0]?.entries.map((e) => e.gameDate)).toEqual(['2025-11-05', '2025-11-03', '2025-11-02']);
  });

  it('takes the latest read of a game when a moved line re-graded it', () => {
    const rows = [
      entry('OG Anunoby', 'threes', 1, 'miss'),
      entry('OG Anunoby', 'threes', 2, 'miss'),
      entry('OG Anunoby', 'threes', 3, 'hit', { line: 1.5 }),
      // Same game, the line moved and the prop was graded again later: that read is the game's.
      { ...entry('OG Anunoby', 'threes', 3, 'miss', { line: 2.5, gradedAt: '2025-11-03T19:00:00Z' }), eventId: 'ev-OG Anunoby-3' },
    ];
    expect(streaks(rows)).toMatchObject([{ player: 'OG Anunoby', outcome: 'miss', run: 3 }]);
  });

  it('writes the template from runs of three or more, with n, and omits it when there are none', () => {
    const facts: ContentFacts = {
      date: '2025-11-06',
      now: '2025-11-06T12:00:00.000Z',
      slates: [],
      settleDate: '2025-11-05',
      settle: [],
      window: { from: '2025-10-08', to: '2025-11-06' },
      windows: [{ sport: 'nba', from: '2025-10-08', to: '2025-11-06' }],
      record: [1, 2, 3, 4].map((d) => entry('Mikal Bridges', 'assists', d, d === 1 ? 'miss' : 'hit')),
    };
    const result = streakWatch(facts);
    if ('omit' in result) throw new Error(result.omit);
    expect(result.draft.body.map((b) => ('text' in b ? b.text : b.items.join(' '))).join(' ')).toContain('Mikal Bridges (NY) assists: the public read has hit 3 games running (over; 4 decided games in 30 days)');
    expect(result.draft.brief.figures.find((f) => f.key === 'streak_1.run')).toMatchObject({ value: 3, n: 4 });
    expect(streakWatch({ ...facts, record: facts.record.slice(0, 3) })).toEqual({ omit: expect.stringContaining('3 or more consecutive settled results') });
  });
});
