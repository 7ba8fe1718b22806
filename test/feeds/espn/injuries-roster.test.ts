import { describe, expect, it } from 'vitest';
import { espnLeague } from '../../../src/feeds/espn/common.js';
import { chipForStatus, fetchInjuries, injuriesUrl, injurySchema, parseInjuries } from '../../../src/feeds/espn/injuries.js';
import { parseRoster, rosterPlayerSchema, rosterUrl } from '../../../src/feeds/espn/roster.js';
import { collectingLog, fixtureTransport, readFixtureJson } from './fixture-transport.js';

const nba = espnLeague('nba');
const load = (file: string) => readFixtureJson('espn', file);

describe('injury chips', () => {
  it('maps ESPN statuses to OUT / GTD / PROB and an unknown status to no chip', () => {
    expect(chipForStatus('Out')).toBe('OUT');
    expect(chipForStatus('Day-To-Day')).toBe('GTD');
    expect(chipForStatus('Questionable')).toBe('GTD');
    expect(chipForStatus('Doubtful')).toBe('GTD');
    expect(chipForStatus('Probable')).toBe('PROB');
    expect(chipForStatus('10-Day-IL')).toBe('OUT');
    expect(chipForStatus('60-Day-IL')).toBe('OUT');
    expect(chipForStatus('Suspension')).toBeNull();
    expect(chipForStatus('')).toBeNull();
    expect(chipForStatus(undefined)).toBeNull();
  });
});

describe('ESPN league injuries (NBA 2026-05-23, 24 teams)', () => {
  const injuries = parseInjuries(load('nba-injuries-2026-05-23.json'), 'nba')!;

  it('parses every entry into a valid record', () => {
    expect(injuries).toHaveLength(104);
    for (const i of injuries) expect(injurySchema.safeParse(i).success).toBe(true);
    expect(injuries.filter((i) => i.chip === 'OUT')).toHaveLength(100);
    expect(injuries.filter((i) => i.chip === 'GTD').map((i) => i.playerName)).toEqual(['Jalen Williams', 'Ajay Mitchell', 'Dylan Harper', "De'Aaron Fox"]);
  });

  it('takes the athlete id from the player-card link (the athlete object has none here)', () => {
    const gilbert = injuries.find((i) => i.playerName === 'Keshon Gilbert')!;
    expect(gilbert).toMatchObject({
      athleteId: '4585618',
      team: 'ATL',
      status: 'Out',
      chip: 'OUT',
      date: '2026-04-22T21:37:00Z',
      detail: 'Abdomen - Surgery',
      playerKey: 'keshon gilbert',
    });
  });

  it('fetches through the transport; unknown shapes are null with a warning', async () => {
    const url = injuriesUrl(nba);
    expect(url).toBe('https://site.api.espn.com/apis/site/v2/sports/basketball/nba/injuries');
    const { transport } = fixtureTransport({ [url]: { provider: 'espn', file: 'nba-injuries-2026-05-23.json' } });
    expect(await fetchInjuries(transport, nba)).toHaveLength(104);
    const log = collectingLog();
    expect(parseInjuries({ injuries: 'none' }, 'nba', log)).toBeNull();
    expect(log.warnings).toHaveLength(1);
  });

  it('skips malformed entries with a warning and keeps the rest', () => {
    const log = collectingLog();
    const out = parseInjuries({ injuries: [{ displayName: 'Atlanta Hawks', injuries: [{ status: 'Out' }, 7] }] }, 'nba', log);
    expect(out).toEqual([]);
    expect(log.warnings[0]?.msg).toMatch(/skipped 2/);
  });
});

describe('ESPN team rosters', () => {
  it('reads the flat NBA roster with the injury chip (Luka Doncic out)', () => {
    const players = parseRoster(load('nba-roster-LAL-2026-05-23.json'), nba)!;
    expect(players).toHaveLength(17);
    for (const p of players) expect(rosterPlayerSchema.safeParse(p).success).toBe(true);
    const luka = players.find((p) => p.playerKey === 'luka doncic')!;
    expect(luka).toMatchObject({ team: 'LAL', injury: { status: 'Out', chip: 'OUT', date: '2026-05-06T16:52:00Z' } });
    expect(players.filter((p) => p.injury !== null)).toHaveLength(1);
  });

  it('reads grouped MLB rosters (athletes grouped by position)', () => {
    const mlb = espnLeague('mlb');
    const nyy = parseRoster(load('mlb-roster-NYY-2026-05-25.json'), mlb)!;
    expect(nyy).toHaveLength(26);
    expect(nyy.find((p) => p.espnId === '38303')).toMatchObject({ playerName: 'David Bednar', position: 'RP', team: 'NYY', injury: null });
    expect(parseRoster(load('mlb-roster-ATL-2025-05-19.json'), mlb)).toHaveLength(25);
    expect(rosterUrl(mlb, 'NYY')).toBe('https://site.api.espn.com/apis/site/v2/sports/baseball/mlb/teams/nyy/roster');
  });

  it('returns null with a warning for an unknown shape', () => {
    const log = collectingLog();
    expect(parseRoster({ team: {} }, nba, log)).toBeNull();
    expect(log.warnings).toHaveLength(1);
  });
});
