import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { PlayerIndex, searchPlayers } from '../../src/domain/player-index.js';

const FIX = new URL('../fixtures/names/', import.meta.url);
function csvRows(file: string): Record<string, string>[] {
  return parse(readFileSync(new URL(file, FIX)), { columns: true, bom: true }) as Record<string, string>[];
}

/** NBA.com game-log players (one real row each), meta = NBA.com person id. */
function nbaLogIndex(): PlayerIndex<string> {
  const index = new PlayerIndex<string>({ identityOf: (id) => id });
  for (const r of csvRows('nba-game-logs-first-row-per-player.csv')) index.add(r.player!, r.player_id!);
  return index;
}

describe('PlayerIndex merge', () => {
  it('variants sharing a key merge, keeping the longest display and every meta', () => {
    // feeds/odds-api/nba-event-odds-player-points-2024-02-22-TOR-BKN.json lists both spellings.
    const index = new PlayerIndex<string>();
    index.add('Lonnie Walker', 'williamhill_us');
    index.add('Lonnie Walker IV', 'draftkings');
    index.add('RJ Barrett', 'draftkings');
    index.add('RJ Barrett Jr.', 'bovada');
    expect(index.size).toBe(2);
    expect(index.lookup('Lonnie Walker')).toEqual({ display: 'Lonnie Walker IV', key: 'lonnie walker', meta: ['williamhill_us', 'draftkings'] });
    expect(index.lookup('R.J. Barrett')).toEqual({ display: 'RJ Barrett Jr', key: 'rj barrett', meta: ['draftkings', 'bovada'] });
  });

  it('on equal length the accented spelling wins (threes results vs game logs)', () => {
    const index = new PlayerIndex();
    index.add('Nikola Jokic');
    index.add('Nikola Jokić');
    index.add('Luka Dončić');
    index.add('Luka Doncic');
    expect(index.lookup('nikola jokic')?.display).toBe('Nikola Jokić');
    expect(index.lookup('Luka Doncic')?.display).toBe('Luka Dončić');
  });

  it('ignores an empty name', () => {
    const index = new PlayerIndex();
    index.add('  ');
    expect(index.size).toBe(0);
    expect(index.lookup('')).toBeNull();
  });
});

describe('PlayerIndex lookup on the real NBA.com player list', () => {
  const index = nbaLogIndex();

  it('resolves book spellings to the NBA.com player', () => {
    expect(index.size).toBe(435);
    expect(index.lookup('Herb Jones')).toEqual({ display: 'Herbert Jones', key: 'herbert jones', meta: ['1630529'] });
    expect(index.lookup('Michael Porter Jr')?.display).toBe('Michael Porter Jr');
    expect(index.lookup('Nikola Jokić')?.display).toBe('Nikola Jokic');
  });

  it('a bare surname resolves only when one player has it', () => {
    expect(index.lookup('Jokic')?.display).toBe('Nikola Jokic');
    // Jalen Williams and Jaylin Williams (both OKC), and six more: never a guess.
    expect(index.lookup('Williams')).toBeNull();
    expect(index.lookup('Martin')).toBeNull();
  });

  it('candidates explain an ambiguous query', () => {
    expect(index.candidates('Martin')).toEqual([
      { display: 'Caleb Martin', key: 'caleb martin' },
      { display: 'Cody Martin', key: 'cody martin' },
      { display: 'KJ Martin', key: 'kj martin' },
    ]);
  });
});

describe('searchPlayers ranking', () => {
  const index = nbaLogIndex();

  it('exact key first, then surname prefix, then folded substring', () => {
    expect(searchPlayers(index, 'Walker', 10).map((c) => c.display)).toEqual([
      // surname starts with "walker"
      'Jabari Walker',
      'Jarace Walker',
      'Lonnie Walker IV',
      'Nickeil Alexander-Walker',
      // substring only
      'Walker Kessler',
    ]);
    expect(searchPlayers(index, 'alex', 10).map((c) => c.display)).toEqual([
      'Nickeil Alexander-Walker',
      'Shai Gilgeous-Alexander',
      'Alex Caruso',
      'Alex Len',
    ]);
    expect(searchPlayers(index, 'herb jones', 3)[0]).toEqual({ display: 'Herbert Jones', key: 'herbert jones' });
  });

  it('honours the limit and an empty query', () => {
    expect(searchPlayers(index, 'Williams', 3)).toHaveLength(3);
    expect(searchPlayers(index, '', 3)).toEqual([]);
  });
});

describe('MLB: Odds API pitcher names against Savant "Last, First" (identity = MLBAM id)', () => {
  const index = new PlayerIndex<string>({ identityOf: (id) => id });
  for (const r of csvRows('savant-pitch-arsenal-2025-first-row-per-pitcher.csv')) index.add(r['last_name, first_name']!, r.player_id!);
  const pitchers = csvRows('mlb-k-props-first-row-per-pitcher.csv').map((r) => r.pitcher_name!);

  it('resolves accent-stripped book names to Savant ids', () => {
    expect(index.lookup('Jose Berrios')).toEqual({ display: 'José Berríos', key: 'jose berrios', meta: ['621244'] });
    // Savant "McCullers Jr., Lance" 621121.
    expect(index.lookup('Lance McCullers Jr.')?.meta).toEqual(['621121']);
  });

  it('a middle initial separates namesakes; the loose form resolves only when unique', () => {
    // Savant: "Castillo, Luis" 622491 and "Castillo, Luis F." 622379.
    expect(index.lookup('Luis Castillo')?.meta).toEqual(['622491']);
    // Savant has only "Ortiz, Luis L." 682847; the book writes "Luis Ortiz".
    expect(index.lookup('Luis Ortiz')?.meta).toEqual(['682847']);
  });

  it('two people with one key is ambiguous: null, with a candidate for the message', () => {
    // Savant 2025: "García, Luis" 472610 (LAA) and "Garcia, Luis" 677651 (HOU).
    expect(index.lookup('Luis Garcia')).toBeNull();
    expect(index.candidates('Luis Garcia')).toEqual([{ display: 'Luis García', key: 'luis garcia' }]);
  });

  it('resolves 287 of the 290 strikeout-prop pitchers', () => {
    expect(pitchers).toHaveLength(290);
    const unresolved = pitchers.filter((p) => index.lookup(p) === null);
    // Not in the 2025 arsenal file: CJ Alexander, Daniel Davis; ambiguous: Luis Garcia.
    expect(unresolved.sort()).toEqual(['CJ Alexander', 'Daniel Davis', 'Luis Garcia']);
  });
});
