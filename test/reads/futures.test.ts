import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { bestFutures, moveOf, withPreviousPrices, type FuturesMarket } from '../../src/domain/futures.js';
import { decimalToAmerican } from '../../src/domain/odds.js';
import { outrightsUrl } from '../../src/feeds/odds-api/index.js';
import type { FetchOutcome, FetchRequest, Transport } from '../../src/feeds/transport/types.js';
import { ContextCache } from '../../src/store/cache.js';
import type { ContextProviders } from '../../src/feeds/factory.js';
import type { ContextDeps } from '../../src/feeds/context.js';
import { futuresCreditKey, readFutures, readFuturesCredits } from '../../src/reads/futures.js';
import { silentLogger } from '../../src/feeds/sources.js';
import { kvGet } from '../../src/store/repo/kv.js';
import { toWire } from '../../src/wire.js';
import { tempStore } from '../helpers/replay-store.js';

/**
 * Futures on the real MLB World Series outrights (2021-11-13, unibet and betfair, decimal odds;
 * test/fixtures/odds-api, a copy of ../shared/feeds/odds-api).
 */

const WS = readFileSync('test/fixtures/odds-api/mlb-world-series-winner-outrights-2021-11.json', 'utf8');
const raw = JSON.parse(WS) as Array<{ bookmakers: Array<{ key: string; last_update: string; markets: Array<{ key: string; outcomes: Array<{ name: string; price: number }> }> }> }>;
const T0 = new Date('2021-11-14T12:00:00Z');
const HOURS = 3_600_000;

function oddsTransport(answer: () => FetchOutcome) {
  const calls: FetchRequest[] = [];
  const t: Transport = {
    kind: 'live',
    async fetch(request) {
      calls.push(request);
      return answer();
    },
  };
  return { t, calls };
}
const ok = (body: string, headers: Record<string, string> = {}): FetchOutcome => ({ ok: true, status: 200, headers, body, source: 'live' });

let cleanups: Array<() => void> = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

function deps(t: Transport | null, env: Record<string, string> = { FUTURES_ENABLED: '1', ODDS_API_REGIONS: 'eu' }, now = T0): ContextDeps {
  const s = tempStore();
  cleanups.push(s.cleanup);
  const providers: ContextProviders = t ? { source: 'live', keyless: t, odds: t, oddsApiKey: 'test-key', close: async () => {} } : { source: 'live', keyless: oddsTransport(() => ok('')).t, odds: null, oddsMissing: 'ODDS_API_KEY is not set', close: async () => {} };
  return { store: s.store, config: loadConfig(env), cache: new ContextCache(s.store), providers, now, wallNow: () => now, log: silentLogger };
}

/** The best American price per team, straight from the raw payload (longest decimal price across books). */
function bestFromRaw(books?: string[]): Map<string, number> {
  const best = new Map<string, number>();
  for (const b of raw[0]!.bookmakers) {
    if (books && !books.includes(b.key)) continue;
    for (const o of b.markets.find((m) => m.key === 'outrights')!.outcomes) best.set(o.name, Math.max(best.get(o.name) ?? 0, o.price));
  }
  return new Map([...best].map(([k, d]) => [k, Math.round(decimalToAmerican(d)! * 100) / 100]));
}

describe('futures (real MLB World Series outrights)', () => {
  it('hidden unless FUTURES_ENABLED, and no call is made', async () => {
    const up = oddsTransport(() => ok(WS));
    const view = await readFutures(deps(up.t, {}), 'mlb');
    expect(view).toMatchObject({ sport: 'mlb', available: false });
    expect(!view.available && view.reason).toMatch(/FUTURES_ENABLED/);
    expect(up.calls).toHaveLength(0);
  });

  it('WNBA has no real futures key: hidden with that reason, no call', async () => {
    const up = oddsTransport(() => ok(WS));
    const view = await readFutures(deps(up.t), 'wnba');
    expect(!view.available && view.reason).toMatch(/no WNBA championship futures key/);
    expect(up.calls).toHaveLength(0);
  });

  it('without ODDS_API_KEY (and no replay): hidden, saying so', async () => {
    const view = await readFutures(deps(null), 'nba');
    expect(!view.available && view.reason).toMatch(/ODDS_API_KEY is not set/);
  });

  it('each selection at its best price across the allowed books, favourites first; no previous price, no prevPrice and no move', async () => {
    const up = oddsTransport(() => ok(WS));
    const view = await readFutures(deps(up.t), 'mlb');
    if (!view.available) throw new Error(view.reason);
    expect(up.calls[0]!.url).toBe(outrightsUrl('baseball_mlb_world_series_winner', { regions: ['eu'] }));
    expect(view.updatedAt).toBe('2021-11-13T17:37:04Z'); // the newest book update in the answer
    const [market] = view.markets;
    expect(market).toMatchObject({ key: 'baseball_mlb_world_series_winner', title: 'MLB World Series Winner' });
    const expected = bestFromRaw();
    expect(market!.selections).toHaveLength(30);
    for (const s of market!.selections) {
      expect(s.price).toBe(expected.get(s.name));
      expect('prevPrice' in s || 'move' in s).toBe(false);
    }
    expect(market!.selections[0]).toMatchObject({ name: 'Los Angeles Dodgers', price: 550, book: 'unibet' });
  });

  it('ALLOWED_BOOKS is the one book list: prices only from those books', async () => {
    const view = await readFutures(deps(oddsTransport(() => ok(WS)).t, { FUTURES_ENABLED: '1', ALLOWED_BOOKS: 'betfair' }), 'mlb');
    if (!view.available) throw new Error(view.reason);
    const expected = bestFromRaw(['betfair']);
    expect(view.markets[0]!.selections.every((s) => s.book === 'betfair' && s.price === expected.get(s.name))).toBe(true);
  });

  it('one outrights call per 12-hour TTL, kept outside the daily budget and written to the futures credit log', async () => {
    const up = oddsTransport(() => ok(WS, { 'x-requests-last': '1', 'x-requests-remaining': '499' }));
    const d = deps(up.t, { FUTURES_ENABLED: '1', ODDS_API_REGIONS: 'eu', ODDS_API_DAILY_BUDGET: '0' });
    await readFutures(d, 'mlb');
    await readFutures({ ...d, now: new Date(T0.getTime() + 11 * HOURS) }, 'mlb');
    expect(up.calls).toHaveLength(1); // a spent daily budget (0) does not stop futures
    const second = await readFutures({ ...d, now: new Date(T0.getTime() + 12 * HOURS) }, 'mlb');
    expect(up.calls).toHaveLength(2);
    const log = (await readFuturesCredits(d.store, '2021-11-14', new Date(T0.getTime() + 12 * HOURS)))!;
    expect(log).toMatchObject({ date: '2021-11-14', calls: 2, credits: 2, remaining: 499 });
    expect(await kvGet(d.store, 'odds-api:credits:2021-11-14', T0)).toBeNull(); // the snapshot budget's own count is untouched
    expect(futuresCreditKey('2021-11-14')).toBe('odds-api:futures-credits:2021-11-14');
    // The second board carries the first as its previous prices: the same real prices, so every move is flat.
    if (!second.available) throw new Error(second.reason);
    expect(second.markets[0]!.selections.every((s) => s.prevPrice === s.price && s.move === 'flat')).toBe(true);
    const wire = toWire(second) as { markets: Array<{ selections: Array<Record<string, unknown>> }> };
    expect(Object.keys(wire.markets[0]!.selections[0]!)).toEqual(['name', 'price', 'book', 'books', 'prev_price', 'move']);
  });

  it('a failed refresh serves the stored board marked stale; unknown shapes never throw and hide the board', async () => {
    let up = true;
    const tr = oddsTransport(() => (up ? ok(WS) : { ok: false, status: 503, reason: 'HTTP 503' }));
    const d = deps(tr.t);
    await readFutures(d, 'mlb');
    up = false;
    expect(await readFutures({ ...d, now: new Date(T0.getTime() + 13 * HOURS) }, 'mlb')).toMatchObject({ available: true, stale: true, ageSeconds: 13 * 3600 });
    for (const body of ['{"message": "unknown"}', '[]', 'not json', '[{"id": "x"}]']) {
      const view = await readFutures(deps(oddsTransport(() => ok(body)).t), 'mlb');
      expect(view.available, body).toBe(false);
    }
  });
});

describe('moves on implied probability', () => {
  it('shortening when the implied probability rises, drifting when it falls, flat when equal', () => {
    expect(moveOf(550, 450)).toBe('shortening');
    expect(moveOf(-120, -150)).toBe('shortening');
    expect(moveOf(450, 550)).toBe('drifting');
    expect(moveOf(-150, 120)).toBe('drifting');
    expect(moveOf(900, 900)).toBe('flat');
  });

  it('a selection new to the board has neither prevPrice nor move', () => {
    const board = (prices: Record<string, number>): FuturesMarket[] => [
      { key: 'k', title: 't', selections: Object.entries(prices).map(([name, price]) => ({ name, price, book: 'b', books: 1 })) },
    ];
    const out = withPreviousPrices(board({ Dodgers: 450, Astros: 1000, Newcomer: 5000 }), board({ Dodgers: 550, Astros: 900 }));
    expect(out[0]!.selections).toEqual([
      { name: 'Dodgers', price: 450, book: 'b', books: 1, prevPrice: 550, move: 'shortening' },
      { name: 'Astros', price: 1000, book: 'b', books: 1, prevPrice: 900, move: 'drifting' },
      { name: 'Newcomer', price: 5000, book: 'b', books: 1 },
    ]);
  });

  it('a selection no allowed book prices is left out, never given a price', () => {
    const markets = bestFutures(
      [
        { eventId: 'e', sportKey: 'k', title: 'T', book: 'a', lastUpdate: null, selections: [{ name: 'X', price: null }, { name: 'Y', price: 300 }] },
        { eventId: 'e', sportKey: 'k', title: 'T', book: 'b', lastUpdate: null, selections: [{ name: 'Y', price: 250 }] },
      ],
      null,
    );
    expect(markets[0]!.selections).toEqual([{ name: 'Y', price: 300, book: 'a', books: 2 }]);
  });
});
