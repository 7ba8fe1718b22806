import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBudget } from '../../../src/feeds/odds-api/credits.js';
import { fetchEventPropQuotes, fetchEvents, fetchMmaFightOdds, fetchOutrights, fetchSports } from '../../../src/feeds/odds-api/fetch.js';
import { createCollectingLogger } from '../../../src/feeds/transport/log.js';
import type { FetchOutcome, FetchRequest, Transport } from '../../../src/feeds/transport/types.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/odds-api/${name}`, import.meta.url), 'utf8');
const KEY = 'test-key-abc123';

/** An in-memory transport answering every request with one recorded body; keeps the requests. */
function cannedTransport(body: string | null, headers: Record<string, string> = {}) {
  const requests: FetchRequest[] = [];
  const transport: Transport = {
    kind: 'replay',
    async fetch(request): Promise<FetchOutcome> {
      requests.push(request);
      return body === null
        ? { ok: false, status: 503, reason: 'HTTP 503 from https://api.the-odds-api.com/...' }
        : { ok: true, status: 200, headers, body, source: 'replay' };
    },
  };
  return { transport, requests };
}

describe('fetchEventPropQuotes', () => {
  const CLE_ORL = 'f54c4a22568ce9dc33fb410d1b0e75e9';

  it('asks only for gradable markets, keeps the key in secretQuery, parses quotes and credits, spends x-requests-last', async () => {
    const { transport, requests } = cannedTransport(fixture('nba-event-odds-player-points-2024-02-22-CLE-ORL.json'), {
      'x-requests-remaining': '480',
      'x-requests-used': '20',
      'x-requests-last': '1',
    });
    const log = createCollectingLogger();
    const budget = createBudget(500);
    const result = await fetchEventPropQuotes(transport, 'basketball_nba', CLE_ORL, ['player_points', 'player_double_double', 'batter_hits'], {
      apiKey: KEY,
      log,
      books: { regions: ['us'] },
      budget,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toEqual({
      provider: 'odds-api',
      url: `https://api.the-odds-api.com/v4/sports/basketball_nba/events/${CLE_ORL}/odds?regions=us&markets=player_points&oddsFormat=american&dateFormat=iso`,
      accept: 'json',
      secretQuery: { apiKey: KEY },
    });
    expect(result.quotes).toHaveLength(482);
    expect(result.credits).toEqual({ remaining: 480, used: 20, last: 1 });
    expect(result.error).toBeNull();
    expect(budget.state()).toMatchObject({ spent: 1, calls: 1, providerRemaining: 480 });
    expect(log.warnings.map((w) => w.msg)).toEqual([
      `odds-api event odds ${CLE_ORL}: not requesting markets propgrade cannot grade for basketball_nba: player_double_double, batter_hits`,
    ]);
  });

  it('an allowed-books list replaces regions and is billed per 10 books (estimate spent when no header)', async () => {
    const { transport, requests } = cannedTransport(fixture('nba-event-odds-player-points-2024-02-22-CLE-ORL.json'));
    const elevenBooks = ['draftkings', 'fanduel', 'betmgm', 'bovada', 'betrivers', 'unibet_us', 'pointsbetus', 'williamhill_us', 'betonlineag', 'mybookieag', 'espnbet'];
    const budget = createBudget(null);
    const result = await fetchEventPropQuotes(transport, 'basketball_nba', CLE_ORL, ['player_points', 'player_rebounds'], {
      log: createCollectingLogger(),
      books: { bookmakers: elevenBooks },
      budget,
    });
    expect(requests[0]?.url).toContain(`?bookmakers=${elevenBooks.join(',')}&markets=player_points,player_rebounds&`);
    expect(requests[0]?.url).not.toContain('regions=');
    expect(requests[0]?.secretQuery).toBeUndefined();
    expect(result.credits).toBeNull();
    expect(budget.state().spent).toBe(4);
  });

  it('a call past the daily budget is not made and says so', async () => {
    const { transport, requests } = cannedTransport('[]');
    const log = createCollectingLogger();
    const budget = createBudget(5, 4);
    const result = await fetchEventPropQuotes(transport, 'basketball_nba', CLE_ORL, ['player_points', 'player_rebounds'], {
      apiKey: KEY,
      log,
      books: { regions: ['us'] },
      budget,
    });
    expect(requests).toHaveLength(0);
    expect(result).toEqual({ quotes: [], snapshot: null, credits: null, error: 'daily credit budget reached: call needs 2 credits, 1 of 5 left today' });
    expect(log.warnings[0]?.msg).toBe(`odds-api event odds ${CLE_ORL}: not requested, daily credit budget reached: call needs 2 credits, 1 of 5 left today`);
    expect(budget.state().refused).toBe(1);
  });

  it('historical: /v4/historical URL with date, estimated at 10x, snapshot returned', async () => {
    const { transport, requests } = cannedTransport(fixture('nba-historical-event-odds-player-points-2025-03-09.json'));
    const budget = createBudget(null);
    const result = await fetchEventPropQuotes(transport, 'basketball_nba', '242c77a8d5890e18bab91773ad32fcb5', ['player_points'], {
      log: createCollectingLogger(),
      books: { regions: ['us'] },
      budget,
      date: '2025-03-09T23:52:00Z',
    });
    expect(requests[0]?.url).toBe(
      'https://api.the-odds-api.com/v4/historical/sports/basketball_nba/events/242c77a8d5890e18bab91773ad32fcb5/odds?regions=us&markets=player_points&date=2025-03-09T23%3A52%3A00Z&oddsFormat=american&dateFormat=iso',
    );
    expect(result.quotes).toHaveLength(94);
    expect(result.snapshot?.timestamp).toBe('2025-03-09T23:50:38Z');
    expect(budget.state().spent).toBe(10);
  });

  it('an unavailable feed gives empty quotes, the reason, and a warning', async () => {
    const log = createCollectingLogger();
    const result = await fetchEventPropQuotes(cannedTransport(null).transport, 'baseball_mlb', 'x', ['pitcher_strikeouts'], { log, books: { regions: ['us'] } });
    expect(result.quotes).toEqual([]);
    expect(result.error).toBe('unavailable: HTTP 503 from https://api.the-odds-api.com/...');
    expect(log.warnings).toHaveLength(1);
  });

  it('no gradable market at all: no call', async () => {
    const { transport, requests } = cannedTransport('{}');
    const result = await fetchEventPropQuotes(transport, 'mma_mixed_martial_arts', 'x', ['h2h'], { log: createCollectingLogger(), books: { regions: ['us'] } });
    expect(requests).toHaveLength(0);
    expect(result.error).toBe('no gradable markets requested');
  });
});

describe('other fetches', () => {
  it('fetchEvents: free events URL, events parsed', async () => {
    const { transport, requests } = cannedTransport(fixture('soccer-bundesliga-events-2025-11-25.json'), { 'x-requests-remaining': '497', 'x-requests-used': '3' });
    const budget = createBudget(10);
    const result = await fetchEvents(transport, 'soccer_germany_bundesliga', { apiKey: KEY, log: createCollectingLogger(), budget, commenceTimeFrom: '2025-11-28T00:00:00Z' });
    expect(requests[0]?.url).toBe('https://api.the-odds-api.com/v4/sports/soccer_germany_bundesliga/events?dateFormat=iso&commenceTimeFrom=2025-11-28T00%3A00%3A00Z');
    expect(result.events).toHaveLength(18);
    expect(result.credits).toEqual({ remaining: 497, used: 3, last: null });
    expect(budget.state().spent).toBe(0);
  });

  it('fetchEvents historical unwraps the snapshot', async () => {
    const { transport, requests } = cannedTransport(fixture('nba-historical-events-2024-01-25.json'));
    const result = await fetchEvents(transport, 'basketball_nba', { log: createCollectingLogger(), date: '2024-01-25T04:00:00Z' });
    expect(requests[0]?.url).toBe('https://api.the-odds-api.com/v4/historical/sports/basketball_nba/events?date=2024-01-25T04%3A00%3A00Z&dateFormat=iso');
    expect(result.events).toHaveLength(10);
    expect(result.snapshot?.timestamp).toBeTypeOf('string');
  });

  it('fetchMmaFightOdds asks featured h2h,totals (2 credits per region) and parses bouts', async () => {
    const { transport, requests } = cannedTransport(fixture('mma-odds-h2h-2025-09-13.json'));
    const budget = createBudget(null);
    const result = await fetchMmaFightOdds(transport, { log: createCollectingLogger(), books: { regions: ['us'] }, budget });
    expect(requests[0]?.url).toBe('https://api.the-odds-api.com/v4/sports/mma_mixed_martial_arts/odds?regions=us&markets=h2h,totals&oddsFormat=american&dateFormat=iso');
    expect(result.fights).toHaveLength(87);
    expect(budget.state().spent).toBe(2);
  });

  it('fetchOutrights asks the outrights market of a futures key', async () => {
    const { transport, requests } = cannedTransport(fixture('mlb-world-series-winner-outrights-2021-11.json'));
    const result = await fetchOutrights(transport, 'baseball_mlb_world_series_winner', { log: createCollectingLogger(), books: { regions: ['us'] } });
    expect(requests[0]?.url).toBe('https://api.the-odds-api.com/v4/sports/baseball_mlb_world_series_winner/odds?regions=us&markets=outrights&oddsFormat=american&dateFormat=iso');
    expect(result.boards.map((b) => b.selections.length)).toEqual([30, 30]);
  });

  it('fetchSports lists sports', async () => {
    const { transport, requests } = cannedTransport(fixture('sports-list-2026-03-03.json'));
    const result = await fetchSports(transport, { log: createCollectingLogger() });
    expect(requests[0]?.url).toBe('https://api.the-odds-api.com/v4/sports');
    expect(result.sports).toHaveLength(84);
  });
});
