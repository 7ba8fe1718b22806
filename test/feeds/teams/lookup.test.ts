import { describe, expect, it } from 'vitest';
import { espnToNbaCom, espnToSavant, mlbTeamByStatsapiId, MLB_TEAMS, nbaComToEspn, NBA_TEAMS, savantToEspn, teamAbbr, teamAbbrByEspnId } from '../../../src/feeds/teams/index.js';
import { readFixture, readFixtureJson } from '../espn/fixture-transport.js';

describe('team tables', () => {
  it('cover every ESPN MLB team id/abbreviation/name seen on the real scoreboards', () => {
    const seen = new Map<string, { abbr: string; name: string }>();
    for (const file of ['mlb-scoreboard-2025-05-17.json', 'mlb-scoreboard-2025-06-04.json', 'mlb-scoreboard-2025-06-06.json', 'mlb-scoreboard-2025-09-28.json']) {
      const sb = readFixtureJson('espn', file) as { events: Array<{ competitions: Array<{ competitors: Array<{ team: { id: string; abbreviation: string; displayName: string } }> }> }> };
      for (const e of sb.events) for (const c of e.competitions[0]!.competitors) seen.set(c.team.id, { abbr: c.team.abbreviation, name: c.team.displayName });
    }
    expect(seen.size).toBe(30);
    for (const [id, t] of seen) {
      expect(teamAbbrByEspnId('mlb', id)).toBe(t.abbr);
      expect(teamAbbr('mlb', t.name)).toBe(t.abbr);
    }
    expect(MLB_TEAMS).toHaveLength(30);
  });

  it('cover every Savant team code in the 2025 arsenal CSV', () => {
    const codes = new Set(
      readFixture('savant', 'mlb-pitch-arsenal-stats-2025.csv')
        .split('\n')
        .slice(1)
        .map((line) => /^"[^"]*",\d+,"([A-Z]+)"/.exec(line)?.[1])
        .filter((c): c is string => !!c),
    );
    expect(codes.size).toBe(30);
    for (const code of codes) expect(savantToEspn(code)).not.toBeNull();
    expect(savantToEspn('AZ')).toBe('ARI');
    expect(espnToSavant('CHW')).toBe('CWS');
  });

  it('map statsapi ids and spellings, NBA.com tricodes, and full names', () => {
    expect(mlbTeamByStatsapiId(112)?.espn).toBe('CHC');
    expect(mlbTeamByStatsapiId(133)?.espn).toBe('ATH');
    expect(teamAbbr('mlb', 'Oakland Athletics')).toBe('ATH');
    expect(teamAbbr('mlb', 'st louis cardinals')).toBe('STL');
    expect(nbaComToEspn('nba', 'GSW')).toBe('GS');
    expect(espnToNbaCom('nba', 'UTAH')).toBe('UTA');
    expect(teamAbbr('nba', 'New York Knicks')).toBe('NY');
    expect(teamAbbr('nba', 'NYK')).toBe('NY');
    expect(teamAbbr('wnba', 'Las Vegas Aces')).toBe('LV');
    expect(teamAbbr('soccer', 'Arsenal')).toBeNull();
    expect(teamAbbr('nba', 'Edmonton Oilers')).toBeNull();
    expect(NBA_TEAMS).toHaveLength(30);
  });

  it('agree with every NBA team in the real league injury file', () => {
    const inj = readFixtureJson('espn', 'nba-injuries-2026-05-23.json') as { injuries: Array<{ id: string; displayName: string; injuries: Array<{ athlete: { team: { abbreviation: string } } }> }> };
    for (const team of inj.injuries) {
      const abbr = team.injuries[0]!.athlete.team.abbreviation;
      expect(teamAbbr('nba', team.displayName)).toBe(abbr);
      expect(teamAbbrByEspnId('nba', team.id)).toBe(abbr);
    }
  });
});
