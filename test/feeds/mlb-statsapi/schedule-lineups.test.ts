import { describe, expect, it } from 'vitest';
import { lineupStatus } from '../../../src/feeds/mlb-statsapi/lineups.js';
import { fetchSchedule, mlbScheduleGameSchema, parseSchedule, scheduleUrl } from '../../../src/feeds/mlb-statsapi/schedule.js';
import { collectingLog, fixtureTransport, readFixtureJson } from '../espn/fixture-transport.js';

const load = (file: string) => readFixtureJson('mlb-statsapi', file);

describe('lineupStatus', () => {
  it('is PROJECTED when the lineup is not posted, CONFIRMED with the slot when listed, NOT_IN otherwise', () => {
    expect(lineupStatus(false)).toEqual({ status: 'PROJECTED', battingSlot: null });
    expect(lineupStatus(false, { battingSlot: 3 })).toEqual({ status: 'PROJECTED', battingSlot: null });
    expect(lineupStatus(true, { battingSlot: 3 })).toEqual({ status: 'CONFIRMED', battingSlot: 3 });
    expect(lineupStatus(true)).toEqual({ status: 'NOT_IN', battingSlot: null });
    expect(lineupStatus(true, null)).toEqual({ status: 'NOT_IN', battingSlot: null });
  });
});

describe('MLB Stats API schedule (real payloads)', () => {
  it('builds the schedule URL with the probablePitcher,lineups hydrate', () => {
    expect(scheduleUrl('2023-08-22')).toBe('https://statsapi.mlb.com/api/v1/schedule?sportId=1&date=2023-08-22&hydrate=probablePitcher,lineups');
  });

  it('parses the 2023-08-22 slate: 15 final games, abbreviations from the team table', () => {
    const games = parseSchedule(load('mlb-schedule-2023-08-22.json'))!;
    expect(games).toHaveLength(15);
    for (const g of games) expect(mlbScheduleGameSchema.safeParse(g).success).toBe(true);
    const g = games.find((x) => x.gamePk === 716896)!;
    expect(g).toMatchObject({
      officialDate: '2023-08-22',
      status: 'final',
      detailedState: 'Final',
      homeScore: 8,
      awayScore: 6,
      event: { provider: 'mlb-statsapi', id: '716896', sport: 'mlb', commenceTime: '2023-08-22T22:40:00Z', homeTeam: 'Detroit Tigers', awayTeam: 'Chicago Cubs', homeAbbr: 'DET', awayAbbr: 'CHC' },
    });
    // This payload was fetched without the hydrate: no probables, no lineups -> PROJECTED.
    expect(g.homeProbable).toBeNull();
    expect(g.homeLineup).toBeNull();
    expect(games.every((x) => x.event.homeAbbr !== null && x.event.awayAbbr !== null)).toBe(true);
  });

  it('reads the hydrate=team abbreviation and the 3-game 2024-07-01 file', () => {
    const [g] = parseSchedule(load('mlb-schedule-hydrate-team-744914-2024-07-01.json'))!;
    expect(g?.event).toMatchObject({ homeAbbr: 'TOR', awayAbbr: 'HOU' });
    const three = parseSchedule(load('mlb-schedule-2024-07-01-3games.json'))!;
    expect(three.map((x) => x.gamePk)).toEqual([744914, 744840, 746535]);
    expect(three.find((x) => x.gamePk === 746535)).toMatchObject({ homeScore: 8, event: { homeAbbr: 'COL', awayAbbr: 'MIL' } });
  });

  it('reads hydrated probables and lineups when present (shape per the API docs, built on a real game)', () => {
    const raw = structuredClone(load('mlb-schedule-2023-08-22.json')) as { dates: Array<{ games: Array<Record<string, any>> }> };
    const game = raw.dates[0]!.games[0]!;
    game.teams.away.probablePitcher = { id: 592767, fullName: 'Drew Smyly', link: '/api/v1/people/592767' };
    game.lineups = { awayPlayers: [{ id: 643565, fullName: 'Mike Tauchman' }, { id: 663538, fullName: 'Nico Hoerner' }] };
    const [g] = parseSchedule(raw)!;
    expect(g?.awayProbable).toEqual({ mlbamId: 592767, playerName: 'Drew Smyly', playerKey: 'drew smyly' });
    expect(g?.homeProbable).toBeNull();
    expect(g?.awayLineup?.[1]).toEqual({ mlbamId: 663538, playerName: 'Nico Hoerner', playerKey: 'nico hoerner', battingSlot: 2 });
    expect(g?.homeLineup).toBeNull();
    const hoerner = g?.awayLineup?.find((e) => e.playerKey === 'nico hoerner');
    expect(lineupStatus(g?.awayLineup !== null, hoerner)).toEqual({ status: 'CONFIRMED', battingSlot: 2 });
    expect(lineupStatus(g?.awayLineup !== null, g?.awayLineup?.find((e) => e.playerKey === 'ian happ'))).toEqual({ status: 'NOT_IN', battingSlot: null });
    expect(lineupStatus(g?.homeLineup !== null)).toEqual({ status: 'PROJECTED', battingSlot: null });
  });

  it('returns null with a warning for an unknown shape, and fetches through the transport', async () => {
    const log = collectingLog();
    expect(parseSchedule({ dates: 'x' }, log)).toBeNull();
    expect(log.warnings).toHaveLength(1);
    const url = scheduleUrl('2023-08-22');
    const { transport, requests } = fixtureTransport({ [url]: { provider: 'mlb-statsapi', file: 'mlb-schedule-2023-08-22.json' } });
    expect(await fetchSchedule(transport, '2023-08-22')).toHaveLength(15);
    expect(requests[0]).toEqual({ provider: 'mlb-statsapi', url, accept: 'json' });
    const empty = fixtureTransport({});
    const log2 = collectingLog();
    expect(await fetchSchedule(empty.transport, '2023-08-22', log2)).toBeNull();
    expect(log2.warnings[0]?.msg).toMatch(/unavailable/);
  });
});
