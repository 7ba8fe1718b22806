import { describe, expect, it } from 'vitest';
import { playerGameStatSchema } from '../../../src/domain/entities.js';
import { boxscoreUrl, fetchBoxscore, parseBoxscore, startingLineup } from '../../../src/feeds/mlb-statsapi/boxscore.js';
import { inningsFromNotation, totalBasesOf } from '../../../src/feeds/mlb-statsapi/common.js';
import { liveFeedUrl, parseLiveFeed } from '../../../src/feeds/mlb-statsapi/live-feed.js';
import { collectingLog, fixtureTransport, readFixtureJson } from '../espn/fixture-transport.js';

const load = (file: string) => readFixtureJson('mlb-statsapi', file);

describe('MLB boxscore 716896 (CHC @ DET, 2023-08-22)', () => {
  const lines = parseBoxscore(load('mlb-boxscore-716896-2023-08-22.json'), { gamePk: 716896, date: '2023-08-22' })!;

  it('emits one valid line per player who batted or pitched', () => {
    expect(lines).toHaveLength(30);
    for (const l of lines) expect(playerGameStatSchema.safeParse(l.stat).success).toBe(true);
    // On the roster but did not play: no line at all (not a line of zeros).
    expect(lines.find((l) => l.stat.playerName === 'Adbert Alzolay')).toBeUndefined();
  });

  it('takes starters from battingOrder ending "00" (not the team battingOrder list)', () => {
    const cubs = startingLineup(lines, 'away');
    expect(cubs.map((e) => e.playerName)).toEqual([
      'Mike Tauchman',
      'Nico Hoerner',
      'Ian Happ',
      'Cody Bellinger',
      'Dansby Swanson',
      'Seiya Suzuki',
      'Jeimer Candelario',
      'Christopher Morel',
      'Miguel Amaya',
    ]);
    const madrigal = lines.find((l) => l.stat.playerName === 'Nick Madrigal')!;
    expect(madrigal).toMatchObject({ battingOrder: '101', battingSlot: 1, starter: false });
  });

  it('reads batter lines: hits, total bases, home runs', () => {
    const candelario = lines.find((l) => l.mlbamId === 600869)!;
    expect(candelario.stat).toMatchObject({ playerKey: 'jeimer candelario', team: 'CHC', opponent: 'DET', date: '2023-08-22', gameId: '716896', minutes: null });
    expect(candelario.stat.stats).toEqual({ hits: 2, total_bases: 6, home_runs: 1 });
    expect(candelario.stat.extras).toMatchObject({ at_bats: 4 });
  });

  it('reads pitcher lines: strikeouts, batters faced, innings (3.2 = 3 2/3)', () => {
    const smyly = lines.find((l) => l.stat.playerName === 'Drew Smyly')!;
    expect(smyly.startingPitcher).toBe(true);
    expect(smyly.stat.stats).toEqual({ strikeouts: 4, pitcher_outs: 11 });
    expect(smyly.stat.extras).toMatchObject({ batters_faced: 22, outs: 11 });
    expect(smyly.stat.extras['innings_pitched']).toBeCloseTo(11 / 3, 10);
  });

  it('computes total bases from 1B/2B/3B/HR only when every part is present', () => {
    const raw = load('mlb-boxscore-716896-2023-08-22.json') as { teams: { away: { players: Record<string, { stats: { batting: Record<string, unknown> } }> } } };
    const batting = { ...raw.teams.away.players['ID600869']!.stats.batting };
    delete batting['totalBases'];
    expect(totalBasesOf(batting)).toBe(6);
    delete batting['triples'];
    expect(totalBasesOf(batting)).toBeNull();
    expect(inningsFromNotation('6.2')).toBeCloseTo(6 + 2 / 3, 10);
    expect(inningsFromNotation('6.5')).toBeNull();
  });
});

describe('MLB boxscore 744914 (HOU @ TOR, 2024-07-01)', () => {
  it('reads both starting nines and the starting pitchers', () => {
    const lines = parseBoxscore(load('mlb-boxscore-744914-2024-07-01.json'), { gamePk: 744914, date: '2024-07-01' })!;
    expect(lines).toHaveLength(26);
    expect(startingLineup(lines, 'home').map((e) => `${e.battingSlot} ${e.playerName}`)).toEqual([
      '1 Bo Bichette',
      '2 Spencer Horwitz',
      '3 Justin Turner',
      '4 George Springer',
      '5 Daulton Varsho',
      '6 Alejandro Kirk',
      '7 Davis Schneider',
      '8 Ernie Clement',
      '9 Kevin Kiermaier',
    ]);
    expect(startingLineup(lines, 'away')[0]?.playerName).toBe('Alex Bregman');
    const yariel = lines.find((l) => l.mlbamId === 684320)!;
    expect(yariel).toMatchObject({ startingPitcher: true, side: 'home', stat: { playerKey: 'yariel rodriguez', team: 'TOR', stats: { strikeouts: 6 } } });
    expect(yariel.stat.extras).toMatchObject({ batters_faced: 23, outs: 20 });
  });
});

describe('MLB live feed', () => {
  it('reads game state, probables and the same player values as the boxscore (716896)', () => {
    const feed = parseLiveFeed(load('mlb-feedlive-716896-2023-08-22.json'))!;
    expect(feed).toMatchObject({
      gamePk: 716896,
      timeStamp: '20230823_013016',
      officialDate: '2023-08-22',
      status: 'final',
      homeAbbr: 'DET',
      awayAbbr: 'CHC',
      homeRuns: 8,
      awayRuns: 6,
      inning: 9,
      homeProbable: { mlbamId: 681857, playerName: 'Reese Olson' },
      awayProbable: { mlbamId: 592767, playerName: 'Drew Smyly' },
    });
    const box = parseBoxscore(load('mlb-boxscore-716896-2023-08-22.json'), { gamePk: 716896, date: '2023-08-22' })!;
    const byId = (ls: typeof box) => Object.fromEntries(ls.map((l) => [l.mlbamId, l.stat.stats]));
    expect(byId(feed.lines)).toEqual(byId(box));
    expect(feed.lines.every((l) => l.stat.source === 'mlb-statsapi:feed-live')).toBe(true);
  });

  it('reads the 744914 feed (accented names keyed accent-free)', () => {
    const feed = parseLiveFeed(load('mlb-feedlive-744914-2024-07-01.json'))!;
    expect(feed).toMatchObject({ status: 'final', homeRuns: 1, awayRuns: 3, homeProbable: { playerName: 'Yariel Rodríguez', playerKey: 'yariel rodriguez' } });
    expect(feed.lines).toHaveLength(26);
    expect(liveFeedUrl(744914)).toBe('https://statsapi.mlb.com/api/v1.1/game/744914/feed/live');
  });

  it('returns null with a warning for unknown shapes', () => {
    for (const junk of [null, { gamePk: 1 }, { teams: 3 }]) {
      const log = collectingLog();
      expect(parseLiveFeed(junk, log)).toBeNull();
      expect(parseBoxscore(junk, { gamePk: 1, date: '2023-08-22' }, log)).toBeNull();
      expect(log.warnings).toHaveLength(2);
    }
  });

  it('fetches the boxscore through the transport; a non-JSON body is null with a warning', async () => {
    const url = boxscoreUrl(716896);
    const { transport } = fixtureTransport({ [url]: { provider: 'mlb-statsapi', file: 'mlb-boxscore-716896-2023-08-22.json' } });
    expect(await fetchBoxscore(transport, { gamePk: 716896, date: '2023-08-22' })).toHaveLength(30);
    const bad = fixtureTransport({ [url]: { body: '<!DOCTYPE html><title>Error</title>' } });
    const log = collectingLog();
    expect(await fetchBoxscore(bad.transport, { gamePk: 716896, date: '2023-08-22' }, log)).toBeNull();
    expect(log.warnings[0]?.msg).toMatch(/not JSON/);
  });
});
