import { describe, expect, it } from 'vitest';
import { backfillEnteredAt, insertLedgerEntries, listLedger, publicEntriesForEvents, publicEntriesOfDate, upsertClosingPrices, writeClosings, type NewClosingPrice, type NewLedgerEntry } from '../../../src/store/repo/ledger.js';
import { pendingDates, pendingOfDate, writeSettlements } from '../../../src/store/repo/ledger-settle.js';
import { insertUserWithToken } from '../../../src/store/repo/users.js';
import { ENGINES } from '../../helpers/engines.js';
import { eachEmptyStore, observations, raw } from './writes-helpers.js';

/** Contract: the ledger's writes (entries, closes, closing prices, settlements) on both engines. */

const seen = observations();

function entry(over: Partial<NewLedgerEntry>): NewLedgerEntry {
  return {
    userId: null,
    source: 'pipeline',
    sport: 'nba',
    eventId: 'ev1',
    commenceTime: '2025-11-05T23:00:00.000Z',
    gameDate: '2025-11-05',
    player: 'Jalen Brunson',
    playerKey: 'jalen-brunson',
    team: 'NYK',
    opponent: 'BOS',
    statType: 'points',
    line: 27.5,
    side: 'over',
    grade: 'A',
    gradeUncapped: 'A',
    capReason: null,
    projection: 29.25,
    pWin: 0.5712,
    book: 'draftkings',
    lockedPrice: -115,
    lockedFairProb: 0.5234,
    lockedFairSource: 'consensus',
    lockedAt: '2025-11-05T15:05:00.000Z',
    outcome: 'pending',
    ...over,
  };
}

describe.each(ENGINES)('ledger writes on %s', (engine) => {
  const get = eachEmptyStore(engine);

  it('insertLedgerEntries: counts what it inserted; a repeat (public or a user\'s, in one call or a later one) keeps the first', async () => {
    const { store } = get();
    const user = await insertUserWithToken(store, { email: 'a@example.com', tier: 'analyst', createdAt: '2025-11-01T00:00:00.000Z' }, 'hash-a');
    expect(user.id).toBe(1);
    const inserted = await insertLedgerEntries(store, [
      entry({}),
      entry({ side: 'under', grade: 'C', lockedPrice: -105 }),
      entry({ grade: 'F', lockedPrice: 999 }), // the public over again, in the same call
      entry({ userId: 1, source: 'scan', grade: 'B' }), // a user's scan of the same prop is its own entry
      entry({ userId: 1, source: 'scan', grade: 'D' }), // ... and its repeat is not
    ]);
    expect(inserted).toBe(3);
    expect(await insertLedgerEntries(store, [entry({ grade: 'C' }), entry({ eventId: 'ev2', playerKey: 'josh-hart', player: 'Josh Hart' })])).toBe(1);
    expect(await insertLedgerEntries(store, [])).toBe(0);

    const all = await listLedger(store, {});
    expect(all.map((e) => [e.player, e.side, e.userId, e.grade, e.lockedPrice])).toStrictEqual([
      ['Jalen Brunson', 'over', null, 'A', -115],
      ['Jalen Brunson', 'under', null, 'C', -105],
      ['Jalen Brunson', 'over', 1, 'B', -115],
      ['Josh Hart', 'over', null, 'A', -115],
    ]);
    seen.record(engine, 'listLedger', all);
    seen.record(engine, 'ledger ids', all.map((e) => e.id));
    const pub = await publicEntriesForEvents(store, ['ev1']);
    expect(pub.map((e) => [e.side, e.grade])).toStrictEqual([
      ['over', 'A'],
      ['under', 'C'],
    ]);
    expect(pub[0]).toMatchObject({ projection: 29.25, pWin: 0.5712, lockedFairProb: 0.5234, lockedFairSource: 'consensus', closingLine: null, clv: null, revisedFromGrade: null, outcome: 'pending' });

    const stored = await raw(store, 'select user_id as u, side, grade, locked_price as p, p_win as w from ledger_entries order by coalesce(user_id, 0), event_id, side');
    expect(stored).toStrictEqual([
      { u: null, side: 'over', grade: 'A', p: -115, w: 0.5712 },
      { u: null, side: 'under', grade: 'C', p: -105, w: 0.5712 },
      { u: null, side: 'over', grade: 'A', p: -115, w: 0.5712 },
      { u: 1, side: 'over', grade: 'B', p: -115, w: 0.5712 },
    ]);
  });

  it('writeClosings: each capture replaces the close; one entry captured twice in a call keeps the last', async () => {
    const { store } = get();
    await insertLedgerEntries(store, [entry({}), entry({ side: 'under' }), entry({ line: 28.5 })]);
    await writeClosings(store, []);
    await writeClosings(store, [
      { entryId: 1, closingLine: 27.5, closingPrice: -120, closingFairProb: 0.55, closingBook: 'fanduel', closingFairSource: 'consensus', capturedAt: '2025-11-05T22:50:00.000Z', closeLeadMinutes: 10, closeBooks: 'betmgm,fanduel' },
      { entryId: 2, closingLine: 28.5, closingPrice: null, closingFairProb: null, closingBook: null, closingFairSource: null, capturedAt: '2025-11-05T22:50:00.000Z', closeLeadMinutes: null, closeBooks: null },
      { entryId: 1, closingLine: 28, closingPrice: -125.5, closingFairProb: 0.5611, closingBook: 'draftkings', closingFairSource: 'market_implied', capturedAt: '2025-11-05T22:55:00.000Z', closeLeadMinutes: 4.75, closeBooks: 'draftkings,pinnacle' },
    ]);
    const byId = new Map((await listLedger(store, {})).map((e) => [e.id, e]));
    const close = (id: number) => {
      const e = byId.get(id);
      return e && { l: e.closingLine, p: e.closingPrice, f: e.closingFairProb, b: e.closingBook, s: e.closingFairSource, m: e.closeMethod, at: e.closingCapturedAt, lead: e.closeLeadMinutes };
    };
    expect(close(1)).toStrictEqual({ l: 28, p: -125.5, f: 0.5611, b: 'draftkings', s: 'market_implied', m: 'one_yardstick', at: '2025-11-05T22:55:00.000Z', lead: 4.75 });
    expect(close(2)).toStrictEqual({ l: 28.5, p: null, f: null, b: null, s: null, m: 'one_yardstick', at: '2025-11-05T22:50:00.000Z', lead: null });
    expect(close(3)).toStrictEqual({ l: null, p: null, f: null, b: null, s: null, m: null, at: null, lead: null });
    expect(await raw(store, 'select id, closing_line as l, closing_price as p, close_method as m, close_lead_minutes as lead from ledger_entries order by id')).toStrictEqual([
      { id: 1, l: 28, p: -125.5, m: 'one_yardstick', lead: 4.75 },
      { id: 2, l: 28.5, p: null, m: 'one_yardstick', lead: null },
      { id: 3, l: null, p: null, m: null, lead: null },
    ]);
    expect(await raw(store, 'select id, close_books as b from ledger_entries order by id')).toStrictEqual([
      { id: 1, b: 'draftkings,pinnacle' },
      { id: 2, b: null },
      { id: 3, b: null },
    ]);
    // An entry id that does not exist changes nothing.
    await writeClosings(store, [{ entryId: 99, closingLine: 1, closingPrice: 1, closingFairProb: 1, closingBook: 'x', closingFairSource: 'book', capturedAt: 'x', closeLeadMinutes: 1, closeBooks: 'x' }]);
    expect(await raw(store, 'select count(*) as n from ledger_entries where closing_book = ?', ['x'])).toStrictEqual([{ n: 0 }]);
  });

  it('writeClosings: a Pinnacle capture replaces the entry\'s Pinnacle close, one without Pinnacle leaves it standing', async () => {
    const { store } = get();
    await insertLedgerEntries(store, [entry({}), entry({ side: 'under' })]);
    const main = { closingLine: 27.5, closingPrice: -120, closingFairProb: 0.55, closingBook: 'fanduel', closingFairSource: 'consensus' as const, closeBooks: 'fanduel,pinnacle' };
    await writeClosings(store, [{ entryId: 1, ...main, capturedAt: '2025-11-05T22:00:00.000Z', closeLeadMinutes: 60 }], [
      { entryId: 1, fairProb: 0.54, leadMinutes: 60, clv: 0.02, clvPct: 1.5, verdict: 'beat' },
      { entryId: 1, fairProb: 0.56, leadMinutes: 60, clv: 0.04, clvPct: 3.25, verdict: 'beat' },
    ]);
    // A later capture with no Pinnacle price at the line: the consensus close moves, Pinnacle's stays.
    await writeClosings(store, [{ entryId: 1, ...main, capturedAt: '2025-11-05T22:50:00.000Z', closeLeadMinutes: 10 }], []);
    await writeClosings(store, [], [{ entryId: 2, fairProb: 0.45, leadMinutes: 5, clv: null, clvPct: -0.25, verdict: 'flat' }]);
    expect(
      await raw(store, 'select id, close_lead_minutes as lead, pinnacle_closing_fair_prob as f, pinnacle_close_lead_minutes as pl, pinnacle_clv as c, pinnacle_clv_pct as pct, pinnacle_clv_verdict as v from ledger_entries order by id'),
    ).toStrictEqual([
      { id: 1, lead: 10, f: 0.56, pl: 60, c: 0.04, pct: 3.25, v: 'beat' },
      { id: 2, lead: null, f: 0.45, pl: 5, c: null, pct: -0.25, v: 'flat' },
    ]);
  });

  it('upsertClosingPrices: the last capture is the close; a price repeated in one call keeps its first place, last values', async () => {
    const { store } = get();
    const price = (over: Partial<NewClosingPrice>): NewClosingPrice => ({
      sport: 'nba', eventId: 'ev1', playerKey: 'jalen-brunson', statType: 'points', side: 'over', line: 27.5, price: -110, fairProb: 0.51, book: 'fanduel',
      capturedAt: '2025-11-05T22:00:00.000Z', commenceTime: '2025-11-05T23:00:00.000Z', closeLeadMinutes: 60, ...over,
    });
    await upsertClosingPrices(store, []);
    await upsertClosingPrices(store, [price({}), price({ side: 'under', price: -110.5, fairProb: null, book: null, closeLeadMinutes: null }), price({ price: -118, capturedAt: '2025-11-05T22:30:00.000Z', closeLeadMinutes: 30 })]);
    await upsertClosingPrices(store, [price({ line: 28.5 }), price({ side: 'under', price: 101, capturedAt: '2025-11-05T22:58:00.000Z', closeLeadMinutes: 2 })]);
    const rows = await raw(
      store,
      'select id, side, line, price, fair_prob as "fairProb", book, captured_at as "capturedAt", close_lead_minutes as "lead" from closing_prices order by id',
    );
    // Ids agree up to the in-call repeat: SQLite's upsert spends an id on it, PostgreSQL's (deduped
    // before one multi-row upsert) does not, so the next new price is 4 on SQLite and 3 on PostgreSQL.
    seen.record(engine, 'closing_prices', rows.map(({ id: _id, ...r }) => r));
    seen.record(engine, 'closing_prices new id after an in-call repeat', rows[2]?.['id']);
    expect(rows.map(({ id: _id, ...r }) => r)).toStrictEqual([
      { side: 'over', line: 27.5, price: -118, fairProb: 0.51, book: 'fanduel', capturedAt: '2025-11-05T22:30:00.000Z', lead: 30 },
      { side: 'under', line: 27.5, price: 101, fairProb: 0.51, book: 'fanduel', capturedAt: '2025-11-05T22:58:00.000Z', lead: 2 },
      { side: 'over', line: 28.5, price: -110, fairProb: 0.51, book: 'fanduel', capturedAt: '2025-11-05T22:00:00.000Z', lead: 60 },
    ]);
    expect(rows.slice(0, 2).map((r) => r['id'])).toStrictEqual([1, 2]);
  });

  it('writeSettlements: only pending entries change, an id given twice counts once with its first values; pending reads follow', async () => {
    const { store } = get();
    await insertLedgerEntries(store, [
      entry({}),
      entry({ side: 'under' }),
      entry({ line: 28.5 }),
      entry({ eventId: 'ev3', gameDate: '2025-11-06', commenceTime: '2025-11-06T23:30:00.000Z' }),
    ]);
    expect(await pendingDates(store, 'nba', '2025-11-06T12:00:00.000Z', '2025-11-06')).toStrictEqual({
      due: ['2025-11-05'],
      notDue: { pending: 1, firstStart: '2025-11-06T23:30:00.000Z', lastGameDate: '2025-11-06' },
    });
    expect((await pendingOfDate(store, 'nba', '2025-11-05')).map((e) => e.id)).toStrictEqual([1, 2, 3]);
    expect(await writeSettlements(store, '2025-11-06T12:00:00.000Z', [])).toBe(0);
    const changed = await writeSettlements(store, '2025-11-06T12:00:00.000Z', [
      { id: 1, outcome: 'hit', actualValue: 31, clv: 0.0123, clvLine: 0.5, clvVerdict: 'beat', clvPct: 2.5 },
      { id: 2, outcome: 'miss', actualValue: 31, clv: null, clvLine: null, clvVerdict: null, clvPct: null },
      { id: 1, outcome: 'miss', actualValue: 0, clv: -1, clvLine: -1, clvVerdict: 'faded', clvPct: -1 },
      { id: 42, outcome: 'void', actualValue: null, clv: null, clvLine: null, clvVerdict: null, clvPct: null },
    ]);
    expect(changed).toBe(2);
    // A settled entry is never settled again.
    expect(await writeSettlements(store, '2025-11-07T12:00:00.000Z', [{ id: 2, outcome: 'push', actualValue: 27.5, clv: null, clvLine: null, clvVerdict: null, clvPct: null }])).toBe(0);
    const settled = (await listLedger(store, {})).filter((e) => e.outcome !== 'pending').sort((a, b) => a.id - b.id);
    expect(settled.map((e) => ({ id: e.id, o: e.outcome, v: e.actualValue, at: e.settledAt, clv: e.clv, cl: e.clvLine, cv: e.clvVerdict, cp: e.clvPct }))).toStrictEqual([
      { id: 1, o: 'hit', v: 31, at: '2025-11-06T12:00:00.000Z', clv: 0.0123, cl: 0.5, cv: 'beat', cp: 2.5 },
      { id: 2, o: 'miss', v: 31, at: '2025-11-06T12:00:00.000Z', clv: null, cl: null, cv: null, cp: null },
    ]);
    expect(await raw(store, 'select id, outcome, actual_value as v, settled_at as at from ledger_entries order by id')).toStrictEqual([
      { id: 1, outcome: 'hit', v: 31, at: '2025-11-06T12:00:00.000Z' },
      { id: 2, outcome: 'miss', v: 31, at: '2025-11-06T12:00:00.000Z' },
      { id: 3, outcome: 'pending', v: null, at: null },
      { id: 4, outcome: 'pending', v: null, at: null },
    ]);
    expect((await pendingOfDate(store, 'nba', '2025-11-05')).map((e) => e.id)).toStrictEqual([3]);
    seen.record(engine, 'settled', settled);
  });

  it('entered_at (issue 41 item 5): stored as written; as of a time an entry shows only once entered; entries from before the column take their lock time', async () => {
    const { store } = get();
    // Locked at 15:05 as a rung, entered at 17:05 when its line became main; another entered with its lock.
    expect(await insertLedgerEntries(store, [entry({ enteredAt: '2025-11-05T17:05:00.000Z' }), entry({ side: 'under', enteredAt: '2025-11-05T15:05:00.000Z' })])).toBe(2);
    // Written before the column existed (no entered_at), as migration 0013 / pg 0003 leaves it.
    expect(await insertLedgerEntries(store, [entry({ eventId: 'ev2', playerKey: 'josh-hart', player: 'Josh Hart', lockedAt: '2025-11-05T14:00:00.000Z' })])).toBe(1);
    expect(await raw(store, 'select id, locked_at as l, entered_at as e from ledger_entries order by id')).toStrictEqual([
      { id: 1, l: '2025-11-05T15:05:00.000Z', e: '2025-11-05T17:05:00.000Z' },
      { id: 2, l: '2025-11-05T15:05:00.000Z', e: '2025-11-05T15:05:00.000Z' },
      { id: 3, l: '2025-11-05T14:00:00.000Z', e: null },
    ]);
    await backfillEnteredAt(store);
    expect((await raw(store, 'select id, entered_at as e from ledger_entries order by id')).map((r) => r['e'])).toStrictEqual(['2025-11-05T17:05:00.000Z', '2025-11-05T15:05:00.000Z', '2025-11-05T14:00:00.000Z']);
    const asOf = async (at: string | undefined) => (await listLedger(store, at === undefined ? {} : { asOf: at })).map((e) => e.id).sort();
    expect(await asOf('2025-11-05T16:00:00.000Z')).toStrictEqual([2, 3]);
    expect(await asOf('2025-11-05T17:05:00.000Z')).toStrictEqual([1, 2, 3]);
    expect(await asOf(undefined)).toStrictEqual([1, 2, 3]);
    expect((await publicEntriesOfDate(store, 'nba', '2025-11-05', '2025-11-05T16:00:00.000Z')).map((e) => e.id)).toStrictEqual([2, 3]);
    seen.record(engine, 'entered_at', await listLedger(store, {}));
  });
});

describe('ledger writes: both engines read back the same', () => {
  it.each(['listLedger', 'ledger ids', 'closing_prices', 'settled', 'entered_at'])('%s', (name) => {
    const { sqlite, postgres } = seen.both(name);
    expect(sqlite).toBeDefined();
    expect(postgres).toStrictEqual(sqlite);
  });

  // A known engine difference (reported, issue 35): ids only, nothing refers to a closing price's id.
  it('closing_prices: the id after an in-call repeat differs (SQLite 4, PostgreSQL 3)', () => {
    expect(seen.both('closing_prices new id after an in-call repeat')).toStrictEqual({ sqlite: 4, postgres: 3 });
  });
});
