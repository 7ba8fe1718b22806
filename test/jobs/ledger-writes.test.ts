import { afterEach, describe, expect, it } from 'vitest';
import type { PropQuote } from '../../src/domain/entities.js';
import { groupQuotes } from '../../src/domain/slate.js';
import { captureClosings } from '../../src/jobs/ledger-writes.js';
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

/** Multiplicative no-vig P(over) of one pair, by hand: the consensus de-vig. */
function pOver(over: number, under: number): number {
  const r = (a: number) => (a > 0 ? 100 / (a + 100) : -a / (-a + 100));
  return r(over) / (r(over) + r(under));
}
const noDispersion = () => null;

describe('captureClosings reads the close on the one yardstick: the market at the locked line, the locked book left out', () => {
  let t: ReturnType<typeof tempStore>;
  afterEach(() => t?.cleanup());

  it('the other books’ consensus at the locked line, with the locked book’s own price kept as the closing price', async () => {
    t = tempStore();
    await insertLedgerEntries(t.store, [entry]);
    const books = groupQuotes(
      [
        quote('draftkings', 2.5, 'over', -101), quote('draftkings', 2.5, 'under', -128),
        quote('fanduel', 2.5, 'over', 105), quote('fanduel', 2.5, 'under', -135),
        quote('betmgm', 2.5, 'over', -105), quote('betmgm', 2.5, 'under', -125),
        quote('caesars', 2.5, 'over', 100), quote('caesars', 2.5, 'under', -130),
      ],
      { allowedBooks: null },
    );
    expect(await captureClosings(t.store, 'nba', [], books, EVENING, noDispersion)).toBe(1);
    const [e] = await listLedger(t.store, {}, 10);
    expect(e).toMatchObject({ closingLine: 2.5, closingPrice: -101, closingBook: 'draftkings', closingFairSource: 'consensus', closeMethod: 'one_yardstick' });
    expect(e!.closingFairProb).toBeCloseTo((pOver(105, -135) + pOver(-105, -125) + pOver(100, -130)) / 3, 12);
  });

  it('the locked book moved its line but the market still prices the locked line: the close is read there, without a closing price', async () => {
    t = tempStore();
    await insertLedgerEntries(t.store, [entry]);
    const books = groupQuotes(
      [
        quote('draftkings', 3.5, 'over', 130), quote('draftkings', 3.5, 'under', -160),
        quote('fanduel', 2.5, 'over', 100), quote('fanduel', 2.5, 'under', -130),
        quote('betmgm', 2.5, 'over', -102), quote('betmgm', 2.5, 'under', -128),
        quote('caesars', 2.5, 'over', 102), quote('caesars', 2.5, 'under', -132),
      ],
      { allowedBooks: null },
    );
    await captureClosings(t.store, 'nba', [], books, EVENING, noDispersion);
    const [e] = await listLedger(t.store, {}, 10);
    expect(e).toMatchObject({ closingLine: 2.5, closingPrice: null, closingBook: null, closingFairSource: 'consensus' });
    expect(e!.closingFairProb).toBeCloseTo((pOver(100, -130) + pOver(-102, -128) + pOver(102, -132)) / 3, 12);
  });

  it('nothing prices the locked line any more: the locked book’s own main line, whose move carries the verdict', async () => {
    t = tempStore();
    await insertLedgerEntries(t.store, [entry]);
    const books = groupQuotes([quote('draftkings', 3.5, 'over', 130), quote('draftkings', 3.5, 'under', -160), quote('draftkings', 1.5, 'over', -300), quote('draftkings', 1.5, 'under', 230)], { allowedBooks: null });
    await captureClosings(t.store, 'nba', [], books, EVENING, noDispersion);
    expect((await listLedger(t.store, {}, 10))[0]).toMatchObject({ closingLine: 3.5, closingPrice: 130, closingBook: 'draftkings', closingFairProb: null });
  });

  it('only the locked book prices the line: its own pair is another yardstick than the lock’s consensus, so no capture', async () => {
    t = tempStore();
    await insertLedgerEntries(t.store, [{ ...entry, lockedFairSource: 'consensus' }]);
    const books = groupQuotes([quote('draftkings', 2.5, 'over', -101), quote('draftkings', 2.5, 'under', -128)], { allowedBooks: null });
    expect(await captureClosings(t.store, 'nba', [], books, EVENING, noDispersion)).toBe(0);
    expect((await listLedger(t.store, {}, 10))[0]).toMatchObject({ closingLine: null, closingPrice: null, closingBook: null });
  });

  it('a lock that was read on the book’s own pair is closed on it', async () => {
    t = tempStore();
    await insertLedgerEntries(t.store, [{ ...entry, lockedFairSource: 'book' }]);
    const books = groupQuotes([quote('draftkings', 2.5, 'over', -101), quote('draftkings', 2.5, 'under', -128)], { allowedBooks: null });
    expect(await captureClosings(t.store, 'nba', [], books, EVENING, noDispersion)).toBe(1);
    const [e] = await listLedger(t.store, {}, 10);
    expect(e).toMatchObject({ closingFairSource: 'book' });
    expect(e!.closingFairProb).toBeCloseTo(pOver(-101, -128), 12);
  });

  it('a capture in the snapshot that locked the entry is not a close', async () => {
    t = tempStore();
    await insertLedgerEntries(t.store, [{ ...entry, lockedAt: EVENING.toISOString() }]);
    const books = groupQuotes([quote('draftkings', 2.5, 'over', -101), quote('draftkings', 2.5, 'under', -128)], { allowedBooks: null });
    expect(await captureClosings(t.store, 'nba', [], books, EVENING, noDispersion)).toBe(0);
  });
});
