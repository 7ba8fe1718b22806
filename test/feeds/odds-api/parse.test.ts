import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gameEventSchema, propQuoteSchema, type PropQuote } from '../../../src/domain/entities.js';
import {
  parseEventPropQuotes,
  parseEvents,
  parseJsonBody,
  parseMmaFightOdds,
  parseOutrights,
  parseSportsList,
  unwrapHistorical,
} from '../../../src/feeds/odds-api/parse.js';
import { mmaFightOddsSchema, outrightBookSchema } from '../../../src/feeds/odds-api/schemas.js';
import { createCollectingLogger } from '../../../src/feeds/transport/log.js';

const DIR = new URL('../../fixtures/odds-api/', import.meta.url);
const load = (name: string): unknown => JSON.parse(readFileSync(new URL(name, DIR), 'utf8'));

function props(name: string) {
  const log = createCollectingLogger();
  const quotes = parseEventPropQuotes(load(name), { log });
  for (const q of quotes) propQuoteSchema.parse(q);
  return { quotes, log };
}

const find = (quotes: PropQuote[], q: Partial<PropQuote>) =>
  quotes.filter((x) => Object.entries(q).every(([k, v]) => x[k as keyof PropQuote] === v));

describe('event odds -> PropQuotes (real payloads)', () => {
  it('NBA CLE-ORL 2024-02-22 (American): Caris LeVert 11.5 at DraftKings -130 / +100, every outcome kept', () => {
    const { quotes, log } = props('nba-event-odds-player-points-2024-02-22-CLE-ORL.json');
    expect(quotes).toHaveLength(482);
    expect(log.warnings).toEqual([]);
    const levert = find(quotes, { book: 'draftkings', player: 'Caris LeVert' });
    expect(levert).toEqual([
      { eventId: 'f54c4a22568ce9dc33fb410d1b0e75e9', sport: 'nba', book: 'draftkings', stat: 'points', player: 'Caris LeVert', side: 'over', line: 11.5, price: -130, lastUpdate: '2024-02-22T23:55:07Z' },
      { eventId: 'f54c4a22568ce9dc33fb410d1b0e75e9', sport: 'nba', book: 'draftkings', stat: 'points', player: 'Caris LeVert', side: 'under', line: 11.5, price: 100, lastUpdate: '2024-02-22T23:55:07Z' },
    ]);
    // FanDuel hangs a different line for the same player
    expect(find(quotes, { book: 'fanduel', player: 'Caris LeVert', side: 'over' }).map((q) => [q.line, q.price])).toEqual([[12.5, 106]]);
  });

  it('keeps ladders: unibet_us Paolo Banchero has 8 lines x 2 sides in the main market', () => {
    const { quotes } = props('nba-event-odds-player-points-2024-02-22-CLE-ORL.json');
    const ladder = find(quotes, { book: 'unibet_us', player: 'Paolo Banchero' });
    expect(ladder).toHaveLength(16);
    expect([...new Set(ladder.map((q) => q.line))].sort((a, b) => a! - b!)).toEqual([17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, 24.5]);
    expect(find(ladder, { line: 24.5, side: 'over' })[0]?.price).toBe(200);
    expect(find(ladder, { line: 17.5, side: 'over' })[0]?.price).toBe(-305);
  });

  it('NBA TOR-BKN parses every outcome', () => {
    expect(props('nba-event-odds-player-points-2024-02-22-TOR-BKN.json').quotes).toHaveLength(572);
  });

  it('MLB decimal payload converts to American: Max Fried K 6.5 at DraftKings 1.77 -> -129.87, 2.0 -> +100', () => {
    const { quotes } = props('mlb-event-odds-pitcher-strikeouts-1book-2025-07-29.json');
    expect(quotes).toEqual([
      { eventId: '16945bc9446e76515a0c94857619b82e', sport: 'mlb', book: 'draftkings', stat: 'strikeouts', player: 'Max Fried', side: 'over', line: 6.5, price: -129.87, lastUpdate: '2025-07-30T00:05:07Z' },
      { eventId: '16945bc9446e76515a0c94857619b82e', sport: 'mlb', book: 'draftkings', stat: 'strikeouts', player: 'Max Fried', side: 'under', line: 6.5, price: 100, lastUpdate: '2025-07-30T00:05:07Z' },
    ]);
  });

  it('MLB pitcher props: strikeouts kept (FanDuel Robbie Ray 5.5 1.68 -> -147.06), ungraded pitcher markets skipped and counted', () => {
    const { quotes, log } = props('mlb-event-odds-pitcher-props-2025-08-01.json');
    expect(quotes).toHaveLength(40);
    expect(quotes.every((q) => q.stat === 'strikeouts')).toBe(true);
    expect(find(quotes, { book: 'fanduel', player: 'Robbie Ray', side: 'over' }).map((q) => [q.line, q.price])).toEqual([[5.5, -147.06]]);
    expect(find(quotes, { book: 'fanduel', player: 'David Peterson', side: 'under' }).map((q) => [q.line, q.price])).toEqual([[4.5, 124]]);
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]?.detail).toEqual({ pitcher_earned_runs: expect.any(Number), pitcher_hits_allowed: expect.any(Number), pitcher_walks: expect.any(Number) });
    expect(props('mlb-event-odds-pitcher-props-2025-08-06.json').quotes).toHaveLength(36);
  });

  it('MLB batter props: one-sided FanDuel total-bases ladder kept as Over-only quotes (Juan Soto 3.5 at 3.7 -> +270)', () => {
    const { quotes, log } = props('mlb-event-odds-batter-props-2025-08-01.json');
    expect(quotes).toHaveLength(361);
    const fd = find(quotes, { book: 'fanduel' });
    expect(fd).toHaveLength(72);
    expect(fd.every((q) => q.side === 'over')).toBe(true);
    expect(find(fd, { player: 'Juan Soto', line: 3.5 })[0]?.price).toBe(270);
    expect(log.warnings[0]?.msg).toMatch(/skipped 12 markets propgrade does not grade: batter_rbis \(4\), batter_runs_scored \(4\), batter_stolen_bases \(3\), batter_walks \(1\)$/);
  });

  it('MLB market with no graded stat -> empty plus a warning; empty bookmakers -> empty, no warning, no throw', () => {
    const hrr = props('mlb-event-odds-batter-hits-runs-rbis-2025-07-29.json');
    expect(hrr.quotes).toEqual([]);
    expect(hrr.log.warnings[0]?.detail).toEqual({ batter_hits_runs_rbis: 1 });
    const empty = props('mlb-event-odds-empty-bookmakers-2025-08-02.json');
    expect(empty.quotes).toEqual([]);
    expect(empty.log.warnings).toEqual([]);
  });

  it('soccer (decimal, Over-only shots ladder at 1xBet): Tim Kleindienst shots 0.5 at 1.01 -> -10000; h2h skipped', () => {
    const { quotes, log } = props('soccer-bundesliga-event-odds-player-shots-h2h-2025-11-25.json');
    expect(quotes).toHaveLength(253);
    expect(quotes.every((q) => q.sport === 'soccer' && q.stat === 'shots' && q.book === 'onexbet' && q.side === 'over')).toBe(true);
    expect(find(quotes, { player: 'Tim Kleindienst', line: 0.5 })[0]?.price).toBe(-10000);
    expect(log.warnings[0]?.detail).toMatchObject({ h2h: expect.any(Number), h2h_lay: expect.any(Number) });
  });

  it('historical wrapper is unwrapped transparently (NBA 2025-03-09, decimal): Jaylen Wells 11.5 at FanDuel 1.8 -> -125', () => {
    const raw = load('nba-historical-event-odds-player-points-2025-03-09.json');
    expect(unwrapHistorical(raw).snapshot).toEqual({
      timestamp: '2025-03-09T23:50:38Z',
      previousTimestamp: '2025-03-09T23:45:38Z',
      nextTimestamp: '2025-03-09T23:55:38Z',
    });
    const { quotes } = props('nba-historical-event-odds-player-points-2025-03-09.json');
    expect(quotes).toHaveLength(94);
    const wells = find(quotes, { book: 'fanduel', player: 'Jaylen Wells' });
    expect(wells.map((q) => [q.side, q.line, q.price, q.lastUpdate])).toEqual([
      ['over', 11.5, -125, '2025-03-09T23:50:34Z'],
      ['under', 11.5, -106.38, '2025-03-09T23:50:34Z'],
    ]);
    expect(props('nba-historical-event-odds-player-points-2025-03-09-2books.json').quotes).toHaveLength(56);
  });

  it('WNBA historical (American): graded markets kept, combo markets skipped; Allisha Gray 15.5 at DraftKings -120/-110', () => {
    const { quotes, log } = props('wnba-historical-event-odds-player-props-2024-06-11T1125Z.json');
    expect(quotes).toHaveLength(36 + 16 + 32 + 12 + 16);
    expect(quotes.every((q) => q.sport === 'wnba')).toBe(true);
    expect(find(quotes, { book: 'draftkings', player: 'Allisha Gray', stat: 'points' }).map((q) => [q.side, q.line, q.price])).toEqual([
      ['over', 15.5, -120],
      ['under', 15.5, -110],
    ]);
    expect(Object.keys(log.warnings[0]?.detail as object).sort()).toEqual(['player_points_assists', 'player_points_rebounds', 'player_rebounds_assists']);
    expect(props('wnba-historical-event-odds-player-props-2024-06-11T2320Z-closing.json').quotes).toHaveLength(64 + 20 + 56 + 20 + 36);
  });

  it('game-line payloads give no props and say why', () => {
    for (const name of ['nba-historical-event-odds-h2h-2024-01-25.json', 'nba-historical-event-odds-spreads-totals-2024-01-25.json']) {
      const { quotes, log } = props(name);
      expect(quotes).toEqual([]);
      expect(log.warnings).toHaveLength(1);
    }
  });

  it('one bad outcome drops only itself (counted); a missing point stays a null line', () => {
    const raw = load('mlb-event-odds-pitcher-strikeouts-1book-2025-07-29.json') as { bookmakers: Array<{ markets: Array<{ outcomes: unknown[] }> }> };
    const outcomes = raw.bookmakers[0]!.markets[0]!.outcomes;
    outcomes.push({ name: 'Over', description: 'Broken Price', price: 'n/a', point: 4.5 }, { name: 'Yes', description: 'Max Fried', price: 1.5 }, { name: 'Over', description: 'No Point', price: 1.9 });
    const log = createCollectingLogger();
    const quotes = parseEventPropQuotes(raw, { log });
    expect(quotes.map((q) => [q.player, q.side, q.line])).toEqual([
      ['Max Fried', 'over', 6.5],
      ['Max Fried', 'under', 6.5],
      ['No Point', 'over', null],
    ]);
    expect(log.warnings[0]?.msg).toMatch(/dropped 2: malformed outcome in pitcher_strikeouts \(1\), outcome "Yes" is not Over\/Under \(1\)/);
  });

  it('unknown shapes -> empty + warning, never a throw', () => {
    for (const raw of [null, 42, 'text', [], { hello: 'world' }, load('mma-odds-h2h-2025-09-13.json')]) {
      const log = createCollectingLogger();
      expect(parseEventPropQuotes(raw, { log })).toEqual([]);
      expect(log.warnings).toHaveLength(1);
    }
  });
});

describe('events lists -> GameEvents (real payloads)', () => {
  it('soccer Bundesliga events: 18, no abbreviations (no soccer table)', () => {
    const log = createCollectingLogger();
    const events = parseEvents(load('soccer-bundesliga-events-2025-11-25.json'), { log });
    expect(events).toHaveLength(18);
    for (const e of events) gameEventSchema.parse(e);
    expect(events[0]).toEqual({
      provider: 'odds-api',
      id: '5a2fa066190fb45e3934bbe943d5f56e',
      sport: 'soccer',
      commenceTime: '2025-11-28T19:30:00Z',
      homeTeam: 'Borussia Monchengladbach',
      awayTeam: 'RB Leipzig',
      homeAbbr: null,
      awayAbbr: null,
    });
    expect(log.warnings).toEqual([]);
  });

  it('WNBA events (inner array of the repo wrapper): every team maps, incl. 2026 expansion teams', () => {
    const wrapped = load('wnba-events-2026-08-01.json') as { events: unknown[] };
    const events = parseEvents(wrapped.events, { log: createCollectingLogger() });
    expect(events.map((e) => `${e.awayAbbr}@${e.homeAbbr}`)).toEqual(['LV@CHI', 'NY@PHX', 'IND@MIN', 'LA@POR', 'CONN@DAL', 'TOR@GS']);
    // the repo's own wrapper is not an API shape
    const log = createCollectingLogger();
    expect(parseEvents(wrapped, { log })).toEqual([]);
    expect(log.warnings[0]?.msg).toMatch(/expected an array of events, got an object with keys fetched_at_utc,events/);
  });

  it('historical events lists unwrap; NBA teams map to ESPN codes', () => {
    const counts = ['nba-historical-events-2024-01-25.json', 'nba-historical-events-2024-04-10.json', 'nba-historical-events-2025-03-09.json'].map((n) => {
      const events = parseEvents(load(n), { log: createCollectingLogger() });
      expect(events.every((e) => e.homeAbbr !== null && e.awayAbbr !== null)).toBe(true);
      return events.length;
    });
    expect(counts).toEqual([10, 9, 16]);
    const first = parseEvents(load('nba-historical-events-2025-03-09.json'), { log: createCollectingLogger() })[0];
    expect([first?.homeTeam, first?.homeAbbr, first?.awayAbbr]).toEqual(['New Orleans Pelicans', 'NO', 'MEM']);
  });

  it('scores and event-odds payloads also list their events; NCAAB (not served) is dropped with a warning', () => {
    expect(parseEvents(load('nba-scores-2024-02-22.json'), { log: createCollectingLogger() })).toHaveLength(21);
    const log = createCollectingLogger();
    expect(parseEvents(load('ncaab-odds-h2h-spreads-totals-2026-03-03.json'), { log })).toEqual([]);
    expect(log.warnings[0]?.msg).toBe('odds-api events: dropped 5 of 5: sport key not served: basketball_ncaab (5)');
  });

  it('MLB event payloads map both teams', () => {
    const raw = load('mlb-event-odds-pitcher-props-2025-08-01.json');
    const [event] = parseEvents([raw], { log: createCollectingLogger() });
    expect([event?.awayAbbr, event?.homeAbbr]).toEqual(['SF', 'NYM']);
  });
});

describe('MMA fight odds (real payloads)', () => {
  it('2025-09-13 (American): 87 bouts, 46 without prices; Donchenko -205 / Sezinando +170 at DraftKings', () => {
    const log = createCollectingLogger();
    const fights = parseMmaFightOdds(load('mma-odds-h2h-2025-09-13.json'), { log });
    for (const f of fights) mmaFightOddsSchema.parse(f);
    expect(fights).toHaveLength(87);
    expect(fights.filter((f) => f.books.length === 0)).toHaveLength(46);
    const bout = fights.find((f) => f.eventId === 'c450429fd4687948006052038fa3ac0b');
    expect(bout?.fighters).toEqual(['Rodrigo Sezinando', 'Daniil Donchenko']);
    expect(bout?.books[0]).toEqual({
      book: 'draftkings',
      lastUpdate: '2025-09-13T08:57:40Z',
      moneyline: [
        { fighter: 'Daniil Donchenko', price: -205 },
        { fighter: 'Rodrigo Sezinando', price: 170 },
      ],
      totals: [],
    });
    expect(log.warnings).toEqual([]);
  });

  it('2021-11-13 (decimal): both fighters converted (Da Un Jung 1.8 -> -125, Nzechukwu 2 -> +100); h2h_lay skipped', () => {
    const log = createCollectingLogger();
    const fights = parseMmaFightOdds(load('mma-odds-h2h-2021-11-13.json'), { log });
    expect(fights).toHaveLength(23);
    const betclic = fights.find((f) => f.eventId === '34e7a0f4d093bee392c3fa4f21ee31f0')?.books.find((b) => b.book === 'betclic');
    expect(betclic?.moneyline).toEqual([
      { fighter: 'Da Un Jung', price: -125 },
      { fighter: 'Kennedy Nzechukwu', price: 100 },
    ]);
    expect(betclic?.lastUpdate).toBe('2021-11-13T17:35:34Z');
    expect(log.warnings[0]?.detail).toEqual({ h2h_lay: 17 });
  });

  it('round totals are read with their point', () => {
    const raw = [
      {
        id: 'x1',
        sport_key: 'mma_mixed_martial_arts',
        commence_time: '2025-09-13T19:15:00Z',
        home_team: 'A Fighter',
        away_team: 'B Fighter',
        bookmakers: [{ key: 'draftkings', markets: [{ key: 'totals', outcomes: [{ name: 'Over', price: -150, point: 2.5 }, { name: 'Under', price: 120, point: 2.5 }] }] }],
      },
    ];
    const [fight] = parseMmaFightOdds(raw, { log: createCollectingLogger() });
    expect(fight?.books[0]?.totals).toEqual([
      { side: 'over', rounds: 2.5, price: -150 },
      { side: 'under', rounds: 2.5, price: 120 },
    ]);
  });
});

describe('outrights and sports list (real payloads)', () => {
  it('MLB World Series 2021-11 (decimal): 30 teams per book; Dodgers 6.5 -> +550 at unibet; lay market skipped', () => {
    const log = createCollectingLogger();
    const boards = parseOutrights(load('mlb-world-series-winner-outrights-2021-11.json'), { log });
    for (const b of boards) outrightBookSchema.parse(b);
    expect(boards.map((b) => [b.book, b.selections.length])).toEqual([
      ['unibet', 30],
      ['betfair', 30],
    ]);
    const unibet = boards[0]!;
    expect(unibet.title).toBe('MLB World Series Winner');
    expect(unibet.lastUpdate).toBe('2021-11-13T17:37:04Z');
    expect(unibet.selections.find((s) => s.name === 'Los Angeles Dodgers')?.price).toBe(550);
    expect(unibet.selections.find((s) => s.name === 'Houston Astros')?.price).toBe(900);
    expect(log.warnings[0]?.detail).toEqual({ outrights_lay: 1 });
  });

  it('sports lists: 80 and 84 sports; futures keys flagged', () => {
    const log = createCollectingLogger();
    const a = parseSportsList(load('sports-list-2025-05.json'), { log });
    const b = parseSportsList(load('sports-list-2026-03-03.json'), { log });
    expect([a.length, b.length]).toEqual([80, 84]);
    expect(b.find((s) => s.key === 'basketball_nba_championship_winner')).toMatchObject({ hasOutrights: true, group: 'Basketball' });
    expect(log.warnings).toEqual([]);
  });
});

describe('every real payload in the fixtures folder parses', () => {
  type Kind = 'props' | 'events' | 'event-of-odds' | 'mma' | 'outrights' | 'sports' | 'wrapped-events';
  // [file, parser, records produced, warnings logged]
  const table: Array<[string, Kind, number, number]> = [
    ['mlb-event-odds-batter-hits-runs-rbis-2025-07-29.json', 'props', 0, 1],
    ['mlb-event-odds-batter-props-2025-08-01.json', 'props', 361, 1],
    ['mlb-event-odds-empty-bookmakers-2025-08-02.json', 'props', 0, 0],
    ['mlb-event-odds-pitcher-props-2025-08-01.json', 'props', 40, 1],
    ['mlb-event-odds-pitcher-props-2025-08-06.json', 'props', 36, 1],
    ['mlb-event-odds-pitcher-strikeouts-1book-2025-07-29.json', 'props', 2, 0],
    ['mlb-world-series-winner-outrights-2021-11.json', 'outrights', 2, 1],
    ['mma-odds-h2h-2021-11-13.json', 'mma', 23, 1],
    ['mma-odds-h2h-2025-09-13.json', 'mma', 87, 0],
    ['nba-event-odds-player-points-2024-02-22-CLE-ORL.json', 'props', 482, 0],
    ['nba-event-odds-player-points-2024-02-22-TOR-BKN.json', 'props', 572, 0],
    ['nba-historical-event-odds-h2h-2024-01-25.json', 'event-of-odds', 1, 0],
    ['nba-historical-event-odds-player-points-2025-03-09-2books.json', 'props', 56, 0],
    ['nba-historical-event-odds-player-points-2025-03-09.json', 'props', 94, 0],
    ['nba-historical-event-odds-spreads-totals-2024-01-25.json', 'event-of-odds', 1, 0],
    ['nba-historical-events-2024-01-25.json', 'events', 10, 0],
    ['nba-historical-events-2024-04-10.json', 'events', 9, 0],
    ['nba-historical-events-2025-03-09.json', 'events', 16, 0],
    ['nba-scores-2024-02-22.json', 'events', 21, 0],
    ['ncaab-odds-h2h-spreads-totals-2026-03-03.json', 'events', 0, 1],
    ['soccer-bundesliga-event-odds-player-shots-h2h-2025-11-25.json', 'props', 253, 1],
    ['soccer-bundesliga-events-2025-11-25.json', 'events', 18, 0],
    ['sports-list-2025-05.json', 'sports', 80, 0],
    ['sports-list-2026-03-03.json', 'sports', 84, 0],
    ['wnba-events-2026-08-01.json', 'wrapped-events', 6, 0],
    ['wnba-historical-event-odds-player-props-2024-06-11T1125Z.json', 'props', 112, 1],
    ['wnba-historical-event-odds-player-props-2024-06-11T2320Z-closing.json', 'props', 196, 1],
  ];

  it('the table covers every payload file', () => {
    const files = readdirSync(DIR).filter((n) => n.endsWith('.json') && !n.startsWith('response-headers'));
    expect(table.map(([n]) => n).sort()).toEqual(files.sort());
  });

  it.each(table)('%s -> %s: %i records, %i warnings', (name, kind, records, warnings) => {
    const log = createCollectingLogger();
    const raw = load(name);
    const parsers: Record<Kind, () => unknown[]> = {
      props: () => parseEventPropQuotes(raw, { log }),
      events: () => parseEvents(raw, { log }),
      'event-of-odds': () => parseEvents([unwrapHistorical(raw).data], { log }),
      mma: () => parseMmaFightOdds(raw, { log }),
      outrights: () => parseOutrights(raw, { log }),
      sports: () => parseSportsList(raw, { log }),
      'wrapped-events': () => parseEvents((raw as { events: unknown }).events, { log }),
    };
    expect(parsers[kind]()).toHaveLength(records);
    expect(log.warnings).toHaveLength(warnings);
  });
});

describe('parseJsonBody', () => {
  it('HTML, empty and truncated bodies are warnings, not throws', () => {
    const log = createCollectingLogger();
    expect(parseJsonBody('<html>oops</html>', 'x', log)).toBeNull();
    expect(parseJsonBody('   ', 'x', log)).toBeNull();
    expect(parseJsonBody('{"a": [1, 2', 'x', log)).toBeNull();
    expect(parseJsonBody('[1]', 'x', log)).toEqual({ value: [1] });
    expect(log.warnings.map((w) => w.msg)).toEqual(['x: response is not JSON (starts with "<html>oops</html>")', 'x: empty response body', 'x: response is not JSON (starts with "{\\"a\\": [1, 2")']);
  });
});
