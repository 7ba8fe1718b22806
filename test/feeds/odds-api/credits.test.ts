import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBudget, creditCost, parseCreditHeaders, regionUnits } from '../../../src/feeds/odds-api/credits.js';

const headers = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/odds-api/${name}`, import.meta.url), 'utf8')) as Record<string, string>;

const books = (n: number) => ({ bookmakers: Array.from({ length: n }, (_, i) => `book${i}`) });

describe('credit cost', () => {
  it('odds and event odds cost markets x regions', () => {
    expect(creditCost({ endpoint: 'event-odds', markets: ['player_points', 'player_rebounds', 'player_assists'], books: { regions: ['us'] } })).toBe(3);
    expect(creditCost({ endpoint: 'event-odds', markets: ['player_points', 'player_rebounds'], books: { regions: ['us', 'us2'] } })).toBe(4);
    expect(creditCost({ endpoint: 'odds', markets: ['h2h', 'totals'], books: { regions: ['us'] } })).toBe(2);
  });

  it('a bookmakers list counts one region per started group of 10 books', () => {
    expect([1, 10, 11, 20, 21, 30].map((n) => regionUnits(books(n)))).toEqual([1, 1, 2, 2, 3, 3]);
    expect(creditCost({ endpoint: 'event-odds', markets: ['player_points', 'player_threes'], books: books(11) })).toBe(4);
    expect(regionUnits({ bookmakers: ['draftkings', 'draftkings', 'fanduel'] })).toBe(1);
  });

  it('sports and events lists are free; historical odds cost 10x', () => {
    expect(creditCost({ endpoint: 'sports' })).toBe(0);
    expect(creditCost({ endpoint: 'events' })).toBe(0);
    expect(creditCost({ endpoint: 'historical-event-odds', markets: ['player_points'], books: { regions: ['us'] } })).toBe(10);
    expect(creditCost({ endpoint: 'historical-odds', markets: ['h2h', 'spreads', 'totals'], books: books(12) })).toBe(60);
    expect(creditCost({ endpoint: 'historical-events' })).toBe(1);
  });

  it('duplicate market names are not billed twice', () => {
    expect(creditCost({ endpoint: 'event-odds', markets: ['player_points', 'player_points'], books: { regions: ['us', 'us'] } })).toBe(1);
  });
});

describe('quota headers (captured response-headers files)', () => {
  it('reads the strings into numbers; absent x-requests-last is null', () => {
    expect(parseCreditHeaders(headers('response-headers-ncaab-odds-2026-03-03-original.json'))).toEqual({ remaining: 497, used: 3, last: null });
    expect(parseCreditHeaders(headers('response-headers-tennis-odds-2026-03-03.json'))).toEqual({ remaining: 494, used: 6, last: null });
  });

  it('x-requests-last of the h2h,spreads,totals one-region call agrees with the arithmetic (3)', () => {
    const parsed = parseCreditHeaders(headers('response-headers-ncaab-odds-2026-03-03-with-last.json'));
    expect(parsed).toEqual({ remaining: 497, used: 3, last: 3 });
    expect(creditCost({ endpoint: 'odds', markets: ['h2h', 'spreads', 'totals'], books: { regions: ['us'] } })).toBe(parsed?.last);
  });

  it('no quota header -> null; header names are case-insensitive; junk values are null', () => {
    expect(parseCreditHeaders({ 'content-type': 'application/json' })).toBeNull();
    expect(parseCreditHeaders({ 'X-Requests-Remaining': '12', 'x-requests-used': 'lots' })).toEqual({ remaining: 12, used: null, last: null });
  });
});

describe('daily credit budget', () => {
  it('allows up to the limit and refuses past it, saying so', () => {
    const budget = createBudget(10);
    expect(budget.canSpend(10)).toBe(true);
    budget.spend(8);
    expect(budget.canSpend(2)).toBe(true);
    expect(budget.canSpend(3)).toBe(false);
    expect(budget.refuse(3)).toBe('daily credit budget reached: call needs 3 credits, 2 of 10 left today');
    expect(budget.state()).toEqual({ limit: 10, spent: 8, calls: 1, refused: 1, providerRemaining: null });
  });

  it('carries what earlier runs spent today; null limit never refuses', () => {
    expect(createBudget(100, 99).canSpend(2)).toBe(false);
    const open = createBudget(null);
    open.spend(10_000);
    expect(open.canSpend(10_000)).toBe(true);
  });

  it('the provider remaining count also caps spending', () => {
    const budget = createBudget(null);
    budget.observe({ remaining: 2, used: 498, last: 1 });
    expect(budget.canSpend(3)).toBe(false);
    expect(budget.refuse(3)).toBe('provider credit quota reached: call needs 3 credits, provider reports 2 remaining');
    budget.observe(null);
    expect(budget.state().providerRemaining).toBe(2);
  });
});

describe('calls in flight hold their estimate (issue 34: four event-odds calls at once overspent a budget)', () => {
  it('a reservation counts against canSpend until it settles; settle spends the real cost, or nothing without an answer', () => {
    const budget = createBudget(20, 0);
    const holds = [];
    while (budget.canSpend(7)) holds.push(budget.reserve(7));
    expect(holds).toHaveLength(2); // 14 held; a third 7 would cross 20
    holds[0]?.settle(6); // the provider said 6
    holds[1]?.settle(null); // no answer: nothing spent
    holds[1]?.settle(7); // a second settle is ignored
    expect(budget.state()).toMatchObject({ spent: 6, calls: 1 });
    expect(budget.canSpend(14)).toBe(true);
    expect(budget.canSpend(15)).toBe(false);
  });
});
