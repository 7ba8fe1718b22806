import { describe, expect, it } from 'vitest';
import type { PlayerGameStat } from '../../src/domain/entities.js';
import { settleEntries, type GameBox, type PendingEntry } from '../../src/domain/settle-entries.js';

const line = (playerKey: string, team: string, stats: PlayerGameStat['stats'], minutes: number | null = 30, extras: Record<string, number> = {}): PlayerGameStat => ({
  sport: 'nba', playerKey, playerName: playerKey, team, opponent: null, date: '2025-11-05', gameId: 'g', minutes, stats, extras, source: 'test',
});
let nextId = 1;
const entry = (over: Partial<PendingEntry>): PendingEntry => ({
  id: nextId++, team: 'NY', playerKey: 'a', statType: 'points', line: 20.5, side: 'over',
  lockedPrice: -110, lockedFairProb: 0.5, closingLine: null, closingFairProb: null, closingCapturedAt: null, commenceTime: '2025-11-06T00:10:00.000Z', ...over,
});

describe('settleEntries: one date decided against its games', () => {
  const games: GameBox[] = [
    { status: 'final', homeAbbr: 'NY', awayAbbr: 'BOS', players: [line('a', 'NY', { points: 25 }), line('b', 'NY', { points: 10 }, 0), line('c', 'BOS', { points: 7 })] },
    { status: 'in_progress', homeAbbr: 'LAL', awayAbbr: 'GSW', players: null },
    { status: 'final', homeAbbr: 'MIA', awayAbbr: 'ORL', players: null },
  ];

  it('decides each entry and counts outcomes, CLV and the reasons others stay pending', () => {
    const hit = entry({});
    const miss = entry({ side: 'under' });
    const push = entry({ playerKey: 'c', team: 'BOS', line: 7 });
    const zeroMinutes = entry({ playerKey: 'b' });
    const notInBox = entry({ playerKey: 'z' });
    const live = entry({ team: 'LAL' });
    const unread = entry({ team: 'MIA' });
    const noTeam = entry({ team: null });
    const unknownTeam = entry({ team: 'XXX' });
    // A close at the locked line captured before the start: the locked -110 at a 0.55 closing fair is +5% EV.
    const withClose = entry({ closingLine: 20.5, closingFairProb: 0.55, closingCapturedAt: '2025-11-05T23:00:00.000Z' });
    const d = settleEntries([hit, miss, push, zeroMinutes, notInBox, live, unread, noTeam, unknownTeam, withClose], games);

    expect(d.settled.map((s) => [s.id, s.outcome, s.actualValue])).toEqual([
      [hit.id, 'hit', 25], [miss.id, 'miss', 25], [push.id, 'push', 7], [zeroMinutes.id, 'void', null], [notInBox.id, 'void', null], [withClose.id, 'hit', 25],
    ]);
    expect(d.counts).toEqual({ hit: 2, miss: 1, push: 1, void: 2 });
    expect(d.pendingReasons).toEqual({ game_not_final: 1, game_not_found: 3 });
    expect(Object.keys(d.pendingReasons)).toEqual(['game_not_final', 'game_not_found']);
    expect(d.stillPending).toBe(4);
    const close = d.settled.find((s) => s.id === withClose.id);
    expect(close?.clvVerdict).toBe('beat');
    expect(close?.clvLine).toBe(0);
    expect(close?.clv).toBeCloseTo(0.05, 12);
    expect(close?.clvPct).toBeCloseTo(100 * (0.55 * (1 + 100 / 110) - 1), 9);
    expect(d.clv).toEqual({ beat: 1, faded: 0, flat: 0, noClose: 5 });
  });

  it('a pitcher prop stands only for a starter, and a doubleheader\u2019s player is found in the game that lists him', () => {
    const pitcher = (key: string, k: number, starter: number) => line(key, 'NYY', { strikeouts: k }, null, { is_starter: starter });
    const doubleheader: GameBox[] = [
      { status: 'final', homeAbbr: 'NYY', awayAbbr: 'BOS', players: [pitcher('p1', 7, 1), pitcher('p2', 2, 0)] },
      { status: 'final', homeAbbr: 'NYY', awayAbbr: 'BOS', players: [pitcher('p3', 5, 1)] },
    ];
    const started = entry({ team: 'NYY', playerKey: 'p1', statType: 'strikeouts', line: 6.5 });
    const relieved = entry({ team: 'NYY', playerKey: 'p2', statType: 'strikeouts', line: 1.5 });
    const second = entry({ team: 'NYY', playerKey: 'p3', statType: 'strikeouts', line: 5.5, side: 'under' });
    const d = settleEntries([started, relieved, second], doubleheader);
    expect(d.settled.map((s) => [s.outcome, s.actualValue])).toEqual([['hit', 7], ['void', null], ['hit', 5]]);
  });

  it('a player booked to a third team (his last history club, not in his event) is found in his event\u2019s game: his line decides, absent from a final box score is void', () => {
    // Axel Tuanzebe's shape: booked IPS (his last game in the history) for Burnley v Sunderland; Ipswich plays elsewhere that day.
    const soccer = (key: string, team: string, shots: number, minutes: number): PlayerGameStat => ({ ...line(key, team, { shots }, minutes), sport: 'soccer' });
    const games: GameBox[] = [
      { status: 'final', homeAbbr: 'BUR', awayAbbr: 'SUN', homeTeam: 'Burnley', awayTeam: 'Sunderland', players: [soccer('played', 'BUR', 2, 90), soccer('sub', 'SUN', 0, 0)] },
      { status: 'final', homeAbbr: 'IPS', awayAbbr: 'LEI', homeTeam: 'Ipswich Town', awayTeam: 'Leicester City', players: [soccer('other', 'IPS', 1, 90)] },
      { status: 'in_progress', homeAbbr: 'ARS', awayAbbr: 'LEE', homeTeam: 'Arsenal', awayTeam: 'Leeds United', players: null },
    ];
    const burnley = { homeTeam: 'Burnley', awayTeam: 'Sunderland' };
    const events = new Map([
      ['bur-sun', burnley],
      ['ars-lee', { homeTeam: 'Arsenal', awayTeam: 'Leeds United' }],
      ['nobody', { homeTeam: 'Luton Town', awayTeam: 'Sheffield United' }],
    ]);
    const e = (over: Partial<PendingEntry>) => entry({ statType: 'shots', line: 0.5, ...over });
    const didNotPlay = e({ playerKey: 'tuanzebe', team: 'IPS', eventId: 'bur-sun' });
    const played = e({ playerKey: 'played', team: 'IPS', eventId: 'bur-sun' });
    const noTeam = e({ playerKey: 'played', team: null, eventId: 'bur-sun' });
    const zeroMinutes = e({ playerKey: 'sub', team: 'IPS', eventId: 'bur-sun' });
    const live = e({ playerKey: 'x', team: 'IPS', eventId: 'ars-lee' });
    const unmatched = e({ playerKey: 'x', team: null, eventId: 'nobody' });
    const unknownEvent = e({ playerKey: 'x', team: null, eventId: 'not-in-map' });
    // The booked team's own game is not his: without the event it would call him absent from IPS v LEI (void).
    const withoutEvent = e({ playerKey: 'played', team: 'IPS' });
    const d = settleEntries([didNotPlay, played, noTeam, zeroMinutes, live, unmatched, unknownEvent, withoutEvent], games, events);
    expect(d.settled.map((s) => [s.id, s.outcome, s.actualValue])).toEqual([
      [didNotPlay.id, 'void', null], [played.id, 'hit', 2], [noTeam.id, 'hit', 2], [zeroMinutes.id, 'void', null], [withoutEvent.id, 'void', null],
    ]);
    // Event teams known but no game of theirs that date: not found; no teams known for the event: unknown, never a guess.
    expect(d.pendingReasons).toEqual({ game_not_final: 1, game_not_found: 1, event_teams_unknown: 1 });
    // The same entries with no event teams at all: the booked team decides, as before.
    const before = settleEntries([didNotPlay, noTeam], games);
    expect(before.settled.map((s) => [s.id, s.outcome])).toEqual([[didNotPlay.id, 'void']]);
    expect(before.pendingReasons).toEqual({ event_teams_unknown: 1 });
    expect(settleEntries([{ ...noTeam, eventId: undefined }], games).pendingReasons).toEqual({ game_not_found: 1 });
  });

  it('a traded player whose old team also played that night is found in his event\u2019s game by its codes, whatever the providers call the teams', () => {
    const games: GameBox[] = [
      { status: 'final', homeAbbr: 'LAC', awayAbbr: 'DAL', homeTeam: 'LA Clippers', awayTeam: 'Dallas Mavericks', players: [line('traded', 'LAC', { points: 22 })] },
      { status: 'final', homeAbbr: 'NY', awayAbbr: 'BOS', homeTeam: 'New York Knicks', awayTeam: 'Boston Celtics', players: [line('a', 'NY', { points: 25 })] },
    ];
    const traded = entry({ playerKey: 'traded', team: 'NY', eventId: 'lac-dal' });
    const event = { homeTeam: 'Los Angeles Clippers', awayTeam: 'Dallas Mavericks', homeAbbr: 'LAC', awayAbbr: 'DAL' };
    expect(settleEntries([traded], games).settled.map((s) => s.outcome)).toEqual(['void']);
    const d = settleEntries([traded], games, new Map([['lac-dal', event]]));
    expect(d.settled.map((s) => [s.outcome, s.actualValue])).toEqual([['hit', 22]]);
  });
});
