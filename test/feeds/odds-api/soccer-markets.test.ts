/**
 * The Odds API soccer player markets (issue 42 part C): player_goal_scorer_anytime (Yes/No: Yes is
 * over 0.5 goals), player_shots_on_target, player_shots and player_assists parse from the
 * recorded soccer shapes, on real EPL prices of 2025-09-27 (soccer-epl-payloads.ts). Counts and
 * prices are read from the raw CSV rows here, not from the parser.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { propQuoteSchema } from '../../../src/domain/entities.js';
import { readOutcome } from '../../../src/feeds/odds-api/outcome.js';
import { parseEventPropQuotes, parseEvents } from '../../../src/feeds/odds-api/parse.js';
import { createCollectingLogger } from '../../../src/feeds/transport/log.js';
import { decodeName, eplMatchday, eventIdOf, MATCHES_FIXTURE, matchRows, PROPS_FIXTURE, propRows } from './soccer-epl-payloads.js';

const SHARED = '../shared/history';
const day = eplMatchday();
const palace = matchRows().find((m) => m['home_team'] === 'Crystal Palace') as Record<string, string>;
const palaceId = eventIdOf(palace['match_id'] as string);

describe('the fixtures are the shared files', () => {
  it.runIf(existsSync(SHARED))('every props and matches line is a line of the shared files', () => {
    const props = new Set(gunzipSync(readFileSync(`${SHARED}/epl_player_props_2024-08_to_2026-01.csv.gz`)).toString('utf8').split('\n'));
    for (const l of gunzipSync(readFileSync(PROPS_FIXTURE)).toString('utf8').trim().split('\n')) expect(props.has(l), l).toBe(true);
    const matches = new Set(readFileSync(`${SHARED}/epl_matches_2024-25_2025-26.csv`, 'utf8').split('\n'));
    for (const l of readFileSync(MATCHES_FIXTURE, 'utf8').trim().split('\n')) expect(matches.has(l), l).toBe(true);
    const stats = new Set(gunzipSync(readFileSync(`${SHARED}/epl_player_match_stats_2024-25_2025-26.csv.gz`)).toString('utf8').split('\n'));
    const seed = gunzipSync(readFileSync('test/fixtures/soccer-epl-player-match-stats-before-2025-09-27.csv.gz')).toString('utf8').trim().split('\n');
    expect(seed.length).toBe(2840);
    for (const l of seed) expect(stats.has(l), l).toBe(true);
    const day = readFileSync('test/fixtures/soccer-epl-player-match-stats-2025-09-27.csv', 'utf8').trim().split('\n');
    expect(day.length).toBe(219);
    for (const l of day) expect(stats.has(l), l).toBe(true);
  });
});

describe('EPL events and event odds in The Odds API shapes', () => {
  it('the events list parses to the 7 matches of 2025-09-27 as soccer', () => {
    const log = createCollectingLogger();
    const events = parseEvents(day.events, { log });
    expect(events.map((e) => [e.sport, e.homeTeam, e.commenceTime])).toEqual(matchRows().map((m) => ['soccer', m['home_team_long'], m['kickoff_utc']]));
    expect(log.warnings).toEqual([]);
  });

  it('Crystal Palace v Liverpool: one quote per priced side of every anytime scorer, SOT, shots and assists row', () => {
    const log = createCollectingLogger();
    const quotes = parseEventPropQuotes(day.eventOdds.get(palaceId), { log });
    for (const q of quotes) propQuoteSchema.parse(q);
    const raw = propRows().filter((r) => r['match'] === 'Crystal Palace v Liverpool');
    const sides = (market: string) => raw.filter((r) => r['market'] === market).reduce((n, r) => n + (r['over_price'] ? 1 : 0) + (r['under_price'] ? 1 : 0), 0);
    const count = (stat: string) => quotes.filter((q) => q.stat === stat).length;
    expect(count('goals')).toBe(sides('player_goals'));
    expect(count('shots_on_target')).toBe(sides('player_shots_on_target'));
    expect(count('shots')).toBe(sides('player_shots'));
    expect(count('assists')).toBe(sides('player_assists'));
    // This scrape priced no tackles (the file's tackles rows are other weeks).
    expect([sides('player_tackles'), count('tackles')]).toEqual([0, 0]);
    expect(count('goals')).toBeGreaterThan(50);
    // Every anytime-scorer Yes is goals over 0.5 at the book's price, converted from decimal.
    const tab = raw.find((r) => r['book_key'] === 'tab' && r['market'] === 'player_goals' && r['player_name'] === 'Alexander Isak') as Record<string, string>;
    // TAB's 2.2 is +120.
    expect(tab['over_price']).toBe('2.2');
    expect(quotes.filter((q) => q.book === 'tab' && q.stat === 'goals' && q.player === 'Alexander Isak')).toEqual([
      { eventId: palaceId, sport: 'soccer', book: 'tab', stat: 'goals', player: 'Alexander Isak', side: 'over', line: 0.5, price: 120, lastUpdate: '2025-09-27T08:34:05Z' },
    ]);
    // This scrape is Neds, PointsBet and TAB: over/yes prices only (NOTES.md §6), so every quote is an over.
    expect(new Set(quotes.map((q) => q.side))).toEqual(new Set(['over']));
    expect(new Set(quotes.map((q) => q.book))).toEqual(new Set(['neds', 'pointsbetau', 'tab']));
    expect(quotes.some((q) => q.book === 'pointsbetau')).toBe(true);
    expect(log.warnings).toEqual([]);
  });

  it('a byte-escaped name reaches the quote decoded', () => {
    const escaped = propRows().find((r) => (r['player_name'] as string).includes('<'));
    expect(escaped).toBeDefined();
    const name = decodeName(escaped?.['player_name'] as string);
    expect(name).not.toContain('<');
    const all = [...day.eventOdds.values()].flatMap((p) => parseEventPropQuotes(p, { log: createCollectingLogger() }));
    expect(all.some((q) => q.player === name)).toBe(true);
  });
});

describe('readOutcome: the shapes of a Yes-only market', () => {
  it('Yes/No with the player in description; a scorer board naming the player; Over/Under as before', () => {
    expect(readOutcome({ name: 'Yes', description: 'Cole Palmer' }, 0.5)).toEqual({ player: 'Cole Palmer', side: 'over', line: 0.5 });
    expect(readOutcome({ name: 'No', description: 'Cole Palmer' }, 0.5)).toEqual({ player: 'Cole Palmer', side: 'under', line: 0.5 });
    expect(readOutcome({ name: 'Cole Palmer' }, 0.5)).toEqual({ player: 'Cole Palmer', side: 'over', line: 0.5 });
    expect(readOutcome({ name: 'Over', description: 'Cole Palmer', point: 1.5 }, 0.5)).toEqual({ player: 'Cole Palmer', side: 'over', line: 1.5 });
    expect(readOutcome({ name: 'Yes' }, 0.5)).toEqual({ drop: 'outcome without a player' });
    expect(readOutcome({ name: 'Cole Palmer', description: 'Anytime' }, 0.5)).toEqual({ drop: 'outcome "Cole Palmer" is not Yes/No' });
    // Markets with a line read Over/Under only.
    expect(readOutcome({ name: 'Yes', description: 'Cole Palmer' }, undefined)).toEqual({ drop: 'outcome "Yes" is not Over/Under' });
  });
});
