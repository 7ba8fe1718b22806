import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordTally, type RecordTally } from '../../../src/domain/records.js';
import type { Store } from '../../../src/store/db.js';
import { closeContexts, countLedger, listLedger, pendingBeforeStart, publicEntriesForEvents, publicEntriesOfDate, type LedgerFilter } from '../../../src/store/repo/ledger.js';
import { cappedCounts, settledTotals, tallyRecordRows, type RecordRowScope } from '../../../src/store/repo/ledger-record.js';
import { eventTeamsOf, pendingDates, pendingOfDate } from '../../../src/store/repo/ledger-settle.js';
import { loopPair, rawColumn, rawValue, same, SETUP_TIMEOUT, type LoopPair } from './_pair.js';

/**
 * The store contract for the ledger reads (ledger.ts, ledger-settle.ts, ledger-record.ts): each
 * asked of SQLite and PostgreSQL holding the same README-loop rows, settled and (for the settle's
 * own reads) before the settle, must answer alike, and agree with figures from the raw SQLite rows.
 */

let P: LoopPair;
let PRE: NonNullable<LoopPair['pre']>;
let events: string[];
let star: string;

beforeAll(async () => {
  P = await loopPair({ presettle: true });
  PRE = P.pre as NonNullable<LoopPair['pre']>;
  events = rawColumn(P.raw, 'select distinct event_id from ledger_entries order by event_id');
  star = rawValue<string>(P.raw, 'select player_key from ledger_entries group by player_key order by count(*) desc, player_key limit 1');
}, SETUP_TIMEOUT);

afterAll(async () => P?.cleanup(), SETUP_TIMEOUT);

const ids = (xs: Array<{ id: number }>) => xs.map((x) => x.id);

describe('ledger.ts', () => {
  it('publicEntriesForEvents: the games’ public entries by lock time, then id', async () => {
    const some = events.slice(0, 3);
    const got = await same(P, (s) => publicEntriesForEvents(s, some));
    expect(ids(got)).toEqual(rawColumn<number>(P.raw, `select id from ledger_entries where user_id is null and event_id in (?, ?, ?) order by locked_at, id`, ...some));
    expect((await same(P, (s) => publicEntriesForEvents(s, events))).length).toBe(rawValue(P.raw, 'select count(*) from ledger_entries where user_id is null'));
    expect(await same(P, (s) => publicEntriesForEvents(s, []))).toEqual([]);
    expect(await same(P, (s) => publicEntriesForEvents(s, ['no-such-event']))).toEqual([]);
  });

  it('publicEntriesOfDate: locked and entered at or before the instant, in id order (at 16:00: 82, not the 3 locked at 15:05 and entered at 17:05)', async () => {
    for (const at of ['2025-11-05T15:04:59.000Z', '2025-11-05T16:00:00.000Z', '2025-11-06T12:00:00.000Z']) {
      const got = await same(P, (s) => publicEntriesOfDate(s, 'nba', '2025-11-05', at));
      expect(ids(got)).toEqual(rawColumn<number>(P.raw, `select id from ledger_entries where user_id is null and sport = 'nba' and game_date = '2025-11-05' and locked_at <= ? and entered_at <= ? order by id`, at, at));
      if (at === '2025-11-05T16:00:00.000Z') expect(got).toHaveLength(82);
    }
    expect(await same(P, (s) => publicEntriesOfDate(s, 'nba', '2025-11-04', '2025-11-06T12:00:00.000Z'))).toEqual([]);
  });

  it('pendingBeforeStart: pending entries not yet started (before the settle)', async () => {
    for (const now of ['2025-11-05T18:00:00.000Z', '2025-11-06T01:00:00.000Z', '2025-11-06T04:00:00.000Z']) {
      const got = await same(PRE, (s) => pendingBeforeStart(s, 'nba', new Date(now)));
      expect(ids(got)).toEqual(rawColumn<number>(PRE.raw, `select id from ledger_entries where sport = 'nba' and outcome = 'pending' and commence_time > ? order by game_date, id`, now));
    }
    expect(await same(P, (s) => pendingBeforeStart(s, 'nba', new Date('2025-11-05T18:00:00.000Z')))).toEqual([]);
  });

  it('listLedger and countLedger under several filters', async () => {
    const filters: Array<[LedgerFilter, string, unknown[]]> = [
      [{}, '1 = 1', []],
      [{ sport: 'nba' }, `sport = 'nba'`, []],
      [{ sport: 'mlb' }, `sport = 'mlb'`, []],
      [{ date: '2025-11-05' }, `game_date = '2025-11-05'`, []],
      [{ from: '2025-11-01', to: '2025-11-05' }, `game_date >= '2025-11-01' and game_date <= '2025-11-05'`, []],
      [{ from: '2025-11-06' }, `game_date >= '2025-11-06'`, []],
      [{ team: 'BOS' }, `team = 'BOS'`, []],
      [{ playerKey: star }, 'player_key = ?', [star]],
      [{ sport: 'nba', team: 'CLE', publicOnly: true }, `sport = 'nba' and team = 'CLE' and user_id is null`, []],
      [{ pending: true }, `outcome = 'pending'`, []],
      [{ userId: 1 }, 'user_id = 1', []],
    ];
    for (const [filter, where, args] of filters) {
      const all = await same(P, (s) => listLedger(s, filter));
      const want = rawColumn<number>(P.raw, `select id from ledger_entries where ${where} order by game_date desc, player, id`, ...args);
      expect(ids(all)).toEqual(want);
      expect(await same(P, (s) => countLedger(s, filter))).toBe(want.length);
      expect(ids(await same(P, (s) => listLedger(s, filter, 10)))).toEqual(want.slice(0, 10));
    }
    // Before the settle: every entry is pending.
    expect(await same(PRE, (s) => countLedger(s, { pending: true }))).toBe(rawValue(PRE.raw, `select count(*) from ledger_entries where outcome = 'pending'`));
  });

  it('closeContexts: snapshots between lock and start, and whether one carried the game', async () => {
    const entries = await listLedger(P.sqlite, { sport: 'nba' });
    const ask = (s: Store) => closeContexts(s, entries, new Date('2025-11-06T12:00:00.000Z'));
    const got = await same(P, ask);
    expect(got.size).toBe(rawValue(P.raw, 'select count(*) from ledger_entries where closing_captured_at is null and book is not null'));
    // The same entries as if no close had been captured: the early locks now have a snapshot between lock and start.
    const uncaptured = entries.map((e) => ({ ...e, closingCapturedAt: null }));
    const all = await same(P, (s) => closeContexts(s, uncaptured, new Date('2025-11-06T12:00:00.000Z')));
    expect(all.size).toBe(rawValue(P.raw, 'select count(*) from ledger_entries where book is not null'));
    const snaps = P.raw.prepare('select id, taken_at as at from snapshots').all() as Array<{ id: number; at: string }>;
    const carries = P.raw.prepare('select count(*) from graded_rows where snapshot_id = ? and event_id = ?').pluck();
    for (const e of entries) {
      const between = snaps.filter((s) => Date.parse(s.at) > Date.parse(e.lockedAt) && Date.parse(s.at) < Date.parse(e.commenceTime));
      const want = { snapshotsAfterLock: between.length, carriedGame: between.some((s) => (carries.get(s.id, e.eventId) as number) > 0) };
      expect(all.get(e.id)).toEqual(want);
      if (got.has(e.id)) expect(got.get(e.id)).toEqual(want);
    }
    expect([...all.values()].filter((c) => c.carriedGame).length).toBeGreaterThan(0);
    // Before the settle, at a clock before any start, no entry needs a context; a per-sport clock after every start, all do.
    const pre = await listLedger(PRE.sqlite, {});
    expect(await same(PRE, (s) => closeContexts(s, pre, new Date('2025-11-05T18:00:00.000Z')))).toEqual(new Map());
    const late = await same(PRE, (s) => closeContexts(s, pre, () => new Date('2025-11-06T06:00:00.000Z')));
    expect(late.size).toBe(rawValue(PRE.raw, 'select count(*) from ledger_entries where closing_captured_at is null and book is not null'));
  });
});

describe('ledger-settle.ts (before the settle)', () => {
  it('pendingDates: due dates and the not-due totals at several clocks', async () => {
    const all = rawValue(PRE.raw, `select count(*) from ledger_entries where outcome = 'pending'`);
    expect(await same(PRE, (s) => pendingDates(s, 'nba', '2025-11-05T18:00:00.000Z', '2025-11-05'))).toEqual({
      due: [],
      notDue: { pending: all, firstStart: rawValue<string>(PRE.raw, 'select min(commence_time) from ledger_entries'), lastGameDate: '2025-11-05' },
    });
    const mid = '2025-11-06T01:00:00Z';
    const late = rawValue(PRE.raw, `select count(*) from ledger_entries where outcome = 'pending' and commence_time > ?`, mid);
    expect(late).toBeGreaterThan(0);
    expect(await same(PRE, (s) => pendingDates(s, 'nba', mid, '2025-11-05'))).toEqual({
      due: ['2025-11-05'],
      notDue: { pending: late, firstStart: rawValue<string>(PRE.raw, 'select min(commence_time) from ledger_entries where commence_time > ?', mid), lastGameDate: '2025-11-05' },
    });
    expect(await same(PRE, (s) => pendingDates(s, 'nba', '2025-11-06T12:00:00.000Z', '2025-11-06'))).toEqual({ due: ['2025-11-05'], notDue: null });
    // A clock whose ET date is before the game date: nothing due, all not due.
    expect((await same(PRE, (s) => pendingDates(s, 'nba', '2025-11-06T12:00:00.000Z', '2025-11-04'))).notDue?.pending).toBe(all);
    expect(await same(P, (s) => pendingDates(s, 'nba', '2025-11-06T12:00:00.000Z', '2025-11-06'))).toEqual({ due: [], notDue: null });
  });

  it('pendingOfDate: the date’s pending entries in id order', async () => {
    const got = await same(PRE, (s) => pendingOfDate(s, 'nba', '2025-11-05'));
    expect(ids(got)).toEqual(rawColumn<number>(PRE.raw, `select id from ledger_entries where outcome = 'pending' and sport = 'nba' and game_date = '2025-11-05' order by id`));
    expect(got.filter((e) => e.closingCapturedAt !== null).length).toBe(rawValue(PRE.raw, 'select count(*) from ledger_entries where closing_captured_at is not null'));
    expect(await same(PRE, (s) => pendingOfDate(s, 'nba', '2025-11-04'))).toEqual([]);
    expect(await same(P, (s) => pendingOfDate(s, 'nba', '2025-11-05'))).toEqual([]);
    // Each entry carries its event: the settle finds a player booked to a team not in it by the event's teams.
    expect(got.map((e) => e.eventId)).toEqual(rawColumn<string>(PRE.raw, `select event_id from ledger_entries where outcome = 'pending' and sport = 'nba' and game_date = '2025-11-05' order by id`));
  });

  it('eventTeamsOf: each asked event\u2019s home and away teams as the snapshots recorded them; an unknown event is absent', async () => {
    const some = events.slice(0, 3);
    const got = await same(P, (s) => eventTeamsOf(s, 'nba', [...some, some[0]!, 'no-such-event']));
    const raw = P.raw.prepare(`select distinct event_id, home_team, away_team from graded_rows where sport = 'nba' and event_id in (?, ?, ?) order by event_id`).all(...some) as Array<{ event_id: string; home_team: string; away_team: string }>;
    expect(raw.length).toBe(3);
    expect([...got].sort(([a], [b]) => a.localeCompare(b))).toEqual(raw.map((r) => [r.event_id, { homeTeam: r.home_team, awayTeam: r.away_team }]));
    expect(await same(P, (s) => eventTeamsOf(s, 'wnba', some))).toEqual(new Map());
    expect(await same(P, (s) => eventTeamsOf(s, 'nba', []))).toEqual(new Map());
  });
});

/** A tally that records every row it is handed, in order. */
function recording(): RecordTally & { rows: unknown[][] } {
  const rows: unknown[][] = [];
  return { rows, add: (...args: unknown[]) => void rows.push(args), aggregate: () => { throw new Error('not used'); }, tiers: () => [] } as RecordTally & { rows: unknown[][] };
}

describe('ledger-record.ts', () => {
  const window = { from: '2025-10-07', to: '2025-11-05' };
  const scopes: Array<[RecordRowScope, string, unknown[]]> = [
    [{}, '1 = 1', []],
    [{ sport: 'nba' }, `sport = 'nba'`, []],
    [{ sport: 'nba', team: 'BOS' }, `sport = 'nba' and upper(team) = 'BOS'`, []],
  ];

  it('tallyRecordRows: the same coded rows in the same order, and the same record', async () => {
    for (const [scope, where] of [...scopes, [{ playerKey: '' }, 'player_key = ?', []] as const]) {
      const sc = 'playerKey' in scope ? { playerKey: star } : scope;
      const args = 'playerKey' in scope ? [star] : [];
      const a = recording();
      const b = recording();
      await tallyRecordRows(P.sqlite, sc, window, a);
      await tallyRecordRows(P.pg, sc, window, b);
      expect(b.rows).toStrictEqual(a.rows);
      expect(a.rows.length).toBe(rawValue(P.raw, `select count(*) from ledger_entries where user_id is null and ${where} and game_date between ? and ?`, ...args, window.from, window.to));
      const [hits] = [rawValue(P.raw, `select count(*) from ledger_entries where user_id is null and ${where} and outcome = 'hit' and game_date between ? and ?`, ...args, window.from, window.to)];
      expect(a.rows.filter((r) => r[1] === 0).length).toBe(hits);
      const real = { sqlite: createRecordTally(), pg: createRecordTally() };
      await tallyRecordRows(P.sqlite, sc, window, real.sqlite);
      await tallyRecordRows(P.pg, sc, window, real.pg);
      const shown = { team: null, player: null, sport: null };
      expect(real.pg.aggregate(window, shown)).toStrictEqual(real.sqlite.aggregate(window, shown));
      expect(real.pg.tiers()).toStrictEqual(real.sqlite.tiers());
      expect(real.sqlite.aggregate(window, shown).counts.hits).toBe(hits);
    }
    const none = recording();
    await tallyRecordRows(P.pg, { sport: 'nba' }, { from: '2025-11-06', to: '2025-12-01' }, none);
    expect(none.rows).toEqual([]);
  });

  it('settledTotals: how many, the latest date and its latest settle', async () => {
    for (const [scope, where] of scopes) {
      const got = await same(P, (s) => settledTotals(s, scope));
      const n = rawValue(P.raw, `select count(*) from ledger_entries where user_id is null and ${where} and outcome in ('hit', 'miss', 'push', 'void')`);
      expect(got).toEqual({
        settled: n,
        latestGameDate: rawValue(P.raw, `select max(game_date) from ledger_entries where user_id is null and ${where} and outcome != 'pending'`),
        latestSettledAt: rawValue(P.raw, `select max(settled_at) from ledger_entries where user_id is null and ${where} and outcome != 'pending'`),
      });
    }
    expect(await same(P, (s) => settledTotals(s, { sport: 'mlb' }))).toBeNull();
    expect(await same(PRE, (s) => settledTotals(s, { sport: 'nba' }))).toBeNull();
  });

  it('cappedCounts: capped entries per letter, uncapped letter and reason', async () => {
    for (const [scope, where] of scopes) {
      const got = await same(P, (s) => cappedCounts(s, scope, window));
      const raw = P.raw
        .prepare(`select grade, grade_uncapped as gradeUncapped, cap_reason as capReason, count(*) as n from ledger_entries where user_id is null and ${where} and cap_reason is not null and grade is not null and game_date between ? and ? group by 1, 2, 3 order by 1, 2, 3`)
        .all(window.from, window.to);
      expect(got).toEqual(raw);
    }
    expect((await same(P, (s) => cappedCounts(s, {}, window))).length).toBeGreaterThan(0);
  });
});
