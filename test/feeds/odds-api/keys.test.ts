import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unwrapHistorical } from '../../../src/feeds/odds-api/parse.js';
import { DEFAULT_SOCCER_LEAGUES, FUTURES_KEYS, SPORT_KEYS, gradedSportForKey, sportForKey, sportKeysFor } from '../../../src/feeds/odds-api/sport-keys.js';
import { teamAbbr } from '../../../src/feeds/odds-api/teams.js';
import { NBA_TEAMS } from '../../../src/feeds/teams/index.js';

const DIR = new URL('../../fixtures/odds-api/', import.meta.url);
const load = (name: string): unknown => JSON.parse(readFileSync(new URL(name, DIR), 'utf8'));

const listedKeys = new Set(
  ['sports-list-2025-05.json', 'sports-list-2026-03-03.json'].flatMap((n) => (load(n) as Array<{ key: string }>).map((s) => s.key)),
);

describe('sport keys', () => {
  it('every key propgrade asks for appears in a real /v4/sports list', () => {
    const ours = [...Object.values(SPORT_KEYS), ...DEFAULT_SOCCER_LEAGUES, ...Object.values(FUTURES_KEYS).filter((k): k is string => k !== null)];
    expect(ours.filter((k) => !listedKeys.has(k))).toEqual([]);
    // the WNBA futures key is absent from both lists, so it is not configured
    expect(listedKeys.has('basketball_wnba_championship_winner')).toBe(false);
    expect(FUTURES_KEYS.wnba).toBeNull();
  });

  it('maps keys to sports both ways', () => {
    expect(sportForKey('basketball_nba')).toBe('nba');
    expect(sportForKey('basketball_wnba')).toBe('wnba');
    expect(sportForKey('baseball_mlb')).toBe('mlb');
    expect(sportForKey('soccer_usa_mls')).toBe('soccer');
    expect(sportForKey('mma_mixed_martial_arts')).toBe('mma');
    expect(sportForKey('soccer_fifa_world_cup_winner')).toBeNull();
    expect(sportForKey('basketball_ncaab')).toBeNull();
    expect(gradedSportForKey('mma_mixed_martial_arts')).toBeNull();
    expect(sportKeysFor('nba')).toEqual(['basketball_nba']);
    expect(sportKeysFor('soccer', ['soccer_epl'])).toEqual(['soccer_epl']);
    expect(sportKeysFor('soccer')).toContain('soccer_germany_bundesliga');
  });
});

describe('team abbreviations', () => {
  it('every NBA/WNBA/MLB team name in the real payloads has an abbreviation', () => {
    const missing: string[] = [];
    for (const name of readdirSync(DIR).filter((n) => n.endsWith('.json'))) {
      const { data } = unwrapHistorical(load(name));
      const events = Array.isArray(data) ? data : data && typeof data === 'object' && 'events' in data ? (data as { events: unknown[] }).events : [data];
      for (const e of events as Array<{ sport_key?: string; home_team?: string | null; away_team?: string | null }>) {
        const sport = e?.sport_key ? sportForKey(e.sport_key) : null;
        if (sport !== 'nba' && sport !== 'wnba' && sport !== 'mlb') continue;
        for (const team of [e.home_team, e.away_team]) if (team && teamAbbr(sport, team) === null) missing.push(`${sport}:${team}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('covers the 30 MLB teams of the World Series outrights board and uses ESPN codes', () => {
    const board = load('mlb-world-series-winner-outrights-2021-11.json') as Array<{ bookmakers: Array<{ markets: Array<{ outcomes: Array<{ name: string }> }> }> }>;
    const names = board[0]!.bookmakers[0]!.markets[0]!.outcomes.map((o) => o.name);
    expect(names).toHaveLength(30);
    expect(names.filter((n) => teamAbbr('mlb', n) === null)).toEqual([]);
    expect(teamAbbr('mlb', 'Chicago White Sox')).toBe('CHW');
    expect(teamAbbr('nba', 'Utah Jazz')).toBe('UTAH');
    expect(teamAbbr('wnba', 'Connecticut Sun')).toBe('CONN');
    expect(teamAbbr('soccer', 'RB Leipzig')).toBeNull();
    expect(teamAbbr('nba', 'Melbourne United')).toBeNull();
    // Every NBA team's full name maps to a distinct code.
    expect(new Set(NBA_TEAMS.map((t) => teamAbbr('nba', t.name))).size).toBe(30);
  });
});
