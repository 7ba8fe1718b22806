import { afterEach, describe, expect, it } from 'vitest';
import type { PropQuote } from '../../src/domain/entities.js';
import { groupQuotes } from '../../src/domain/slate.js';
import { captureClosings } from '../../src/pipeline/ledger-writes.js';
import { insertLedgerEntries, listLedger, type NewLedgerEntry } from '../../src/store/repo/ledger.js';
import { tempStore } from '../helpers/replay-store.js';

// Jalen Brunson threes at DraftKings in the bundled replay: 2.5 at +110/-143 (15:00), -101/-128 (17:00).
const EVENT = 'e-brunson';
const entry: NewLedgerEntry = {
  userId: null,
  source: 'pipeline',
  sport: 'nba',
  eventId: EVENT,
  commenceTime: '2025-11-06T00:30:00Z',
  gameDate: '2025-11-05',
  player: 'Jalen Brunson',
  playerKey: 'jalen brunson',
  statType: 'threes',
  line: 2.5,
  side: 'over',
  book: 'draftkings',
  lockedPrice: 110,
  lockedAt: '2025-11-05T15:05:00.000Z',
  outcome: 'pending',
};
const quote = (book: string, line: number, side: 'over' | 'under', price: number): PropQuote => ({ eventId: EVENT, sport: 'nba', book, stat: 'threes', player: 'Jalen Brunson', side, line, price, lastUpdate: null });
const EVENING = new Date('2025-11-05T17:05:00Z');

describe('captureClosings reads the close at the entry’s own book', () => {
  let t: ReturnType<typeof tempStore>;
  afterEach(() => t?.cleanup());

  it('same book, same line: that book’s price and de-vigged probability', () => {
    t = tempStore();
    insertLedgerEntries(t.store.db, [entry]);
    const books = groupQuotes([quote('draftkings', 2.5, 'over', -101), quote('draftkings', 2.5, 'under', -128), quote('fanduel', 2.5, 'over', 105), quote('fanduel', 2.5, 'under', -135)], { allowedBooks: null });
    expect(captureClosings(t.store.db, 'nba', [], books, EVENING)).toBe(1);
    const [e] = listLedger(t.store.db, {}, 10);
    expect(e).toMatchObject({ closingLine: 2.5, closingPrice: -101, closingBook: 'draftkings' });
    // Shin two-way = (1 + r_over - r_under) / 2 with r = implied probabilities of -101 and -128.
    expect(e!.closingFairProb).toBeCloseTo((1 + 101 / 201 - 128 / 228) / 2, 12);
  });

  it('the book moved its line: the close is that book’s own main line, never another book’s', () => {
    t = tempStore();
    insertLedgerEntries(t.store.db, [entry]);
    // Illustrative prices: DraftKings now hangs 3.5 (and a 1.5 rung); FanDuel still has 2.5.
    const books = groupQuotes(
      [quote('draftkings', 3.5, 'over', 130), quote('draftkings', 3.5, 'under', -160), quote('draftkings', 1.5, 'over', -300), quote('draftkings', 1.5, 'under', 230), quote('fanduel', 2.5, 'over', 100), quote('fanduel', 2.5, 'under', -130)],
      { allowedBooks: null },
    );
    captureClosings(t.store.db, 'nba', [], books, EVENING);
    expect(listLedger(t.store.db, {}, 10)[0]).toMatchObject({ closingLine: 3.5, closingPrice: 130, closingBook: 'draftkings' });
  });

  it('the book no longer quotes the prop: no capture, the previous one stands', () => {
    t = tempStore();
    insertLedgerEntries(t.store.db, [entry]);
    const books = groupQuotes([quote('fanduel', 2.5, 'over', 100), quote('fanduel', 2.5, 'under', -130)], { allowedBooks: null });
    expect(captureClosings(t.store.db, 'nba', [], books, EVENING)).toBe(0);
    expect(listLedger(t.store.db, {}, 10)[0]).toMatchObject({ closingLine: null, closingPrice: null, closingBook: null });
  });

  it('a capture in the snapshot that locked the entry is not a close', () => {
    t = tempStore();
    insertLedgerEntries(t.store.db, [{ ...entry, lockedAt: EVENING.toISOString() }]);
    const books = groupQuotes([quote('draftkings', 2.5, 'over', -101), quote('draftkings', 2.5, 'under', -128)], { allowedBooks: null });
    expect(captureClosings(t.store.db, 'nba', [], books, EVENING)).toBe(0);
  });
});
