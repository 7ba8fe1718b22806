import { describe, expect, it } from 'vitest';
import { playerGameStatSchema } from '../../../src/domain/entities.js';
import { mlbamIdByName, parsePeople, parseTeamRoster } from '../../../src/feeds/mlb-statsapi/people.js';
import { fetchSeasonStats, gameLogUrl, parseGameLog, parseSeasonStats, seasonStatsUrl } from '../../../src/feeds/mlb-statsapi/people-stats.js';
import { collectingLog, fixtureTransport, readFixture, readFixtureJson } from '../espn/fixture-transport.js';

const load = (file: string) => readFixtureJson('mlb-statsapi', file);

describe('MLB people and players', () => {
  it('reads a person (Ohtani, currentTeam null)', () => {
    expect(parsePeople(load('mlb-people-660271.json'))).toEqual([
      { mlbamId: 660271, playerName: 'Shohei Ohtani', playerKey: 'shohei ohtani', teamAbbr: null, position: 'TWP', pitchHand: 'R', batSide: 'L' },
    ]);
  });

  it('reads the 2023 season players list and resolves names to MLBAM ids, refusing ambiguous ones', () => {
    const people = parsePeople(load('mlb-sports-players-2023.json'))!;
    expect(people).toHaveLength(1421);
    expect(mlbamIdByName(people, 'Drew Smyly')).toBe(592767);
    expect(people.find((p) => p.mlbamId === 592767)?.teamAbbr).toBe('CHC');
    // Two different "Luis Garcia"s played in 2023: ambiguous -> null, never a guess.
    expect(people.filter((p) => p.playerKey === 'luis garcia').length).toBeGreaterThan(1);
    expect(mlbamIdByName(people, 'Luis García')).toBeNull();
    expect(mlbamIdByName(people, 'Nobody Atall')).toBeNull();
  });

  it('reads a team roster (Athletics 2022, BOM-prefixed file)', () => {
    expect(readFixture('mlb-statsapi', 'mlb-team-roster-133-2022.json').charCodeAt(0)).toBe(0xfeff);
    const roster = parseTeamRoster(load('mlb-team-roster-133-2022.json'))!;
    expect(roster).toHaveLength(37);
    expect(roster[0]).toEqual({ mlbamId: 640462, playerName: 'AJ Puk', playerKey: 'aj puk', position: 'P', jersey: '33', status: 'Active' });
  });
});

describe('MLB season / career stats', () => {
  it('reads the pitching ERA string as a number plus K% (Ohtani 2022: 2.33, 219 K / 660 BF)', () => {
    const lines = parseSeasonStats(load('mlb-people-stats-pitching-season-career-2022.json'))!;
    const season = lines.find((l) => l.statsType === 'season' && l.group === 'pitching')!;
    expect(season).toMatchObject({ mlbamId: 660271, season: '2022', teamAbbr: 'LAA', eraText: '2.33', era: 2.33, innings: 166 });
    expect(season.strikeoutPct).toBeCloseTo((100 * 219) / 660, 10);
    const career = lines.find((l) => l.statsType === 'career')!;
    expect(career).toMatchObject({ era: 2.96, season: null });
    expect(career.innings).toBeCloseTo(349 + 2 / 3, 10);
    // Advanced blocks carry no ERA: it stays null.
    expect(lines.find((l) => l.statsType === 'seasonAdvanced')).toMatchObject({ era: null, eraText: null });
  });

  it("reads a traded hitter's combined and per-team rows (Soto 2022)", () => {
    const lines = parseSeasonStats(load('mlb-people-stats-hitting-season-career-2022.json'))!.filter((l) => l.statsType === 'season');
    expect(lines.map((l) => [l.teamAbbr, l.values['hits'], l.values['avg']])).toEqual([
      [null, 127, 0.242],
      ['WSH', 84, 0.246],
      ['SD', 43, 0.236],
    ]);
  });

  it('fetches through the transport; unknown shapes are null with a warning', async () => {
    const url = seasonStatsUrl(660271, 'pitching', 2022);
    expect(url).toBe('https://statsapi.mlb.com/api/v1/people/660271/stats?stats=season,career&group=pitching&season=2022');
    const { transport } = fixtureTransport({ [url]: { provider: 'mlb-statsapi', file: 'mlb-people-stats-pitching-season-career-2022.json' } });
    expect((await fetchSeasonStats(transport, 660271, 'pitching', 2022))?.length).toBe(4);
    const log = collectingLog();
    expect(parseSeasonStats({ stats: {} }, log)).toBeNull();
    expect(log.warnings).toHaveLength(1);
  });
});

describe('MLB game logs', () => {
  it('reads the per-game gameLog split into a PlayerGameStat (hitting only: the pitching split is empty)', () => {
    const log = collectingLog();
    // The splits carry no player, date or game: the batter is Cal Raleigh (663728, named in the
    // file's vsPlayer5Y block) and the playLog timestamps put the game on 2022-10-13.
    const [line, ...rest] = parseGameLog(load('mlb-people-stats-game-gamelog-2022.json'), { mlbamId: 663728, playerName: 'Cal Raleigh', date: '2022-10-13' }, log)!;
    expect(rest).toEqual([]);
    expect(playerGameStatSchema.safeParse(line).success).toBe(true);
    expect(line).toMatchObject({ sport: 'mlb', playerKey: 'cal raleigh', date: '2022-10-13', gameId: null, minutes: null, source: 'mlb-statsapi:game-log' });
    expect(line!.stats).toEqual({ hits: 0, total_bases: 0, home_runs: 0 });
    expect(line!.extras).toMatchObject({ at_bats: 4, batter_strikeouts: 1 });
    expect(log.warnings).toEqual([]);
  });

  it('skips splits without any date, with a warning', () => {
    const log = collectingLog();
    expect(parseGameLog(load('mlb-people-stats-game-gamelog-2022.json'), { mlbamId: 663728, playerName: 'Cal Raleigh' }, log)).toEqual([]);
    expect(log.warnings[0]?.msg).toMatch(/without a date/);
    expect(gameLogUrl(592767, 2023, 'pitching')).toBe('https://statsapi.mlb.com/api/v1/people/592767/stats?stats=gameLog&group=pitching&season=2023');
  });
});
