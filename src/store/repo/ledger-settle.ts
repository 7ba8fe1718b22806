import { and, eq } from 'drizzle-orm';
import type { PendingEntry, SettledEntry } from '../../domain/settle-entries.js';
import type { Db, Store } from '../db.js';
import { clientOf, prepared } from './_raw.js';
import { dedupe, numbered, pgRows, pgRun } from './_pg-raw.js';
import { write } from './tx.js';
import { on, sqliteOf } from './handle.js';

/**
 * The settle run's reads and writes of the ledger (docs/performance.md, "Settle"): the due dates,
 * each date's pending entries in bulk, and the settled entries written by prepared statements.
 * Settling itself is the domain's (src/domain/settle-entries.ts); nothing here decides anything.
 * The run's one write transaction is `transaction(store, fn, { exclusive: false })` (repo/tx.ts).
 */

/**
 * The sport's pending entries in one pass over the pending index, one row per game date: whether
 * any of the date's entries is due (its game has started by `at` and the date is not after
 * `today`), and over the entries that are not due (game not started, or dated after today) their
 * count, first start and latest date, totalled across dates by SQLite (window aggregates over the
 * groups). The game date is the group's own, so it is compared once per date, not per row: a date
 * after today is all not due; on an earlier date an entry is due when its game has started, so the
 * date is due when its first start has passed, and its not-due entries are those starting after `at`.
 */
const PENDING_BY_DATE_SQL =
  'select "game_date", "due", sum("late") over (), min("first_late") over (), max(case when "late" > 0 then "game_date" end) over () from (' +
  'select "game_date", "game_date" <= ? and min("commence_time") <= ? as "due", ' +
  'case when "game_date" > ? then count(*) else count(*) filter (where "commence_time" > ?) end as "late", ' +
  'case when "game_date" > ? then min("commence_time") else min("commence_time") filter (where "commence_time" > ?) end as "first_late" ' +
  'from "ledger_entries" where ("sport" = ? and "outcome" = ?) group by "game_date")';
type PendingDateRow = [gameDate: string, due: 0 | 1, pending: number, firstStart: string | null, lastGameDate: string | null];

/**
 * The same read on PostgreSQL: `due` is a boolean there and counts are bigint (cast to int); text
 * min / max compare by bytes (collate "C") as SQLite's do.
 */
const PG_PENDING_BY_DATE_SQL = numbered(
  'select "game_date", "due", (sum("late") over ())::int, min("first_late" collate "C") over (), max(case when "late" > 0 then "game_date" end collate "C") over () from (' +
    'select "game_date", "game_date" collate "C" <= ? and min("commence_time" collate "C") <= ? as "due", ' +
    'case when "game_date" collate "C" > ? then count(*)::int else (count(*) filter (where "commence_time" collate "C" > ?))::int end as "late", ' +
    'case when "game_date" collate "C" > ? then min("commence_time" collate "C") else min("commence_time" collate "C") filter (where "commence_time" collate "C" > ?) end as "first_late" ' +
    'from "ledger_entries" where ("sport" = ? and "outcome" = ?) group by "game_date") as "dates"',
);

export interface PendingDates {
  /** ET dates with an entry whose game has started, ascending. */
  due: string[];
  /** The pending entries that are not due; null when there are none. */
  notDue: { pending: number; firstStart: string; lastGameDate: string } | null;
}

/** Due dates and not-due totals of the sport's pending entries at `at` (an ISO instant) on the ET date `today`. */
export async function pendingDates(store: Store, sport: string, at: string, today: string): Promise<PendingDates> {
  let rows: PendingDateRow[];
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    rows = prepared(clientOf(db), PENDING_BY_DATE_SQL).raw(true).all(today, at, today, at, today, at, sport, 'pending') as PendingDateRow[];
  } else {
    const pg = await pgRows<[string, boolean, number, string | null, string | null]>(store, PG_PENDING_BY_DATE_SQL, [today, at, today, at, today, at, sport, 'pending']);
    rows = pg.map(([date, due, pending, first, last]) => [date, due ? 1 : 0, pending, first, last]);
  }
  const due = rows.filter((r) => r[1] === 1).map((r) => r[0]).sort();
  const [, , pending = 0, firstStart = null, lastGameDate = null] = rows[0] ?? [];
  return { due, notDue: pending === 0 || firstStart === null || lastGameDate === null ? null : { pending, firstStart, lastGameDate } };
}

/**
 * A date's pending entries, read whole from the date's range of the pending index: in id order, as
 * the index keeps equal keys (test/store/hot-queries.test.ts pins the index). SQLite hands each row
 * to an aggregate function that collects it: better-sqlite3 passes a row's values to a JS function
 * about twice as fast as it builds the row for `all()` (read that way, a settle took ~11% more CPU). The
 * function only collects; each statement names its own list by a token, so no list is shared.
 */
const COLLECT = 'propgrade_pending_entries';
const PENDING_OF_DATE_SQL =
  `select ${COLLECT}(?, "id", "team", "player_key", "stat_type", "line", "side", "locked_price", "locked_fair_prob", "closing_line", "closing_fair_prob", "closing_captured_at", "commence_time") ` +
  'from "ledger_entries" where ("outcome" = ? and "sport" = ? and "game_date" = ?)';

type Collecting = { next: number; lists: Map<number, PendingEntry[]> };
const byConnection = new WeakMap<object, Collecting>();

/** The connection's running reads, with the collecting aggregate registered on it the first time. */
function collecting(db: Db): Collecting {
  const client = clientOf(db);
  const known = byConnection.get(client);
  if (known) return known;
  const made: Collecting = { next: 0, lists: new Map() };
  const step = (
    acc: PendingEntry[] | null, token: number, id: number, team: string | null, playerKey: string, statType: string, line: number, side: 'over' | 'under',
    lockedPrice: number | null, lockedFairProb: number | null, closingLine: number | null, closingFairProb: number | null, closingCapturedAt: string | null, commenceTime: string,
  ) => {
    const list = acc ?? made.lists.get(token);
    if (!list) throw new Error(`pending read ${token} is not running`);
    list.push({ id, team, playerKey, statType, line, side, lockedPrice, lockedFairProb, closingLine, closingFairProb, closingCapturedAt, commenceTime });
    return list;
  };
  // The typings know one-argument steps only; better-sqlite3 passes every SQL argument (arity from step.length).
  client.aggregate(COLLECT, { start: null, step: step as unknown as (acc: unknown, next: unknown) => unknown, result: () => 0, deterministic: false, directOnly: true });
  byConnection.set(client, made);
  return made;
}

export async function pendingOfDate(store: Store, sport: string, date: string): Promise<PendingEntry[]> {
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    const run = collecting(db);
    const stmt = prepared(clientOf(db), PENDING_OF_DATE_SQL);
    const token = run.next++;
    const entries: PendingEntry[] = [];
    run.lists.set(token, entries);
    try {
      stmt.get(token, 'pending', sport, date);
    } finally {
      run.lists.delete(token);
    }
    return entries;
  }
  // PostgreSQL: the same columns in id order (the order SQLite's pending index hands them over).
  const { db, t } = await on(store);
  const l = t.ledgerEntries;
  return db
    .select({
      id: l.id, team: l.team, playerKey: l.playerKey, statType: l.statType, line: l.line, side: l.side, lockedPrice: l.lockedPrice, lockedFairProb: l.lockedFairProb,
      closingLine: l.closingLine, closingFairProb: l.closingFairProb, closingCapturedAt: l.closingCapturedAt, commenceTime: l.commenceTime,
    })
    .from(l)
    .where(and(eq(l.outcome, 'pending'), eq(l.sport, sport), eq(l.gameDate, date)))
    .orderBy(l.id);
}

/** Only a pending entry is settled: a second write of the same entry changes nothing. */
const SETTLE_SQL =
  'update "ledger_entries" set "outcome" = ?, "actual_value" = ?, "settled_at" = ?, "clv" = ?, "clv_line" = ?, "clv_verdict" = ?, "clv_pct" = ? ' +
  `where "id" = ? and "outcome" = 'pending'`;

/**
 * Writes settled entries by id with one prepared UPDATE, inside the caller's transaction; returns
 * how many rows changed. (Grouping entries with the same fields into one UPDATE over a json_each
 * id list was slower: SQLite collects the ids of such an UPDATE before it writes.)
 */
export async function writeSettlements(store: Store, settledAt: string, entries: readonly SettledEntry[]): Promise<number> {
  return write(store, async (store) => {
    if (store.engine === 'sqlite') {
      const { db } = await sqliteOf(store);
      const update = prepared(clientOf(db), SETTLE_SQL);
      let changed = 0;
      for (const e of entries) changed += update.run(e.outcome, e.actualValue, settledAt, e.clv, e.clvLine, e.clvVerdict, e.clvPct, e.id).changes;
      return changed;
    }
    if (entries.length === 0) return 0;
    // PostgreSQL: one UPDATE over the entries as arrays. An id given twice counts once with its first
    // values, as on SQLite, where the second write finds the entry no longer pending.
    const rows = dedupe(entries, (e) => String(e.id), 'first');
    const col = <K extends keyof SettledEntry>(k: K) => rows.map((e) => e[k] ?? null);
    return pgRun(
      store,
      'update "ledger_entries" as l set "outcome" = v.outcome, "actual_value" = v.actual_value, "settled_at" = $1, "clv" = v.clv, "clv_line" = v.clv_line, "clv_verdict" = v.clv_verdict, "clv_pct" = v.clv_pct ' +
        'from unnest($2::bigint[], $3::text[], $4::float8[], $5::float8[], $6::float8[], $7::text[], $8::float8[]) as v(id, outcome, actual_value, clv, clv_line, clv_verdict, clv_pct) ' +
        `where l."id" = v.id and l."outcome" = 'pending'`,
      [settledAt, col('id'), col('outcome'), col('actualValue'), col('clv'), col('clvLine'), col('clvVerdict'), col('clvPct')],
    );
  });
}
