import type { Grade } from '../../domain/grades.js';
import type { CapReason } from '../../domain/model/grading.js';
import { TIER_GRADES, type OutcomeCode, type RecordTally } from '../../domain/records.js';
import type { Db, Store } from '../db.js';
import { clientOf, prepared } from './_raw.js';
import { numbered, pgRows } from './_pg-raw.js';
import { sqliteOf } from './handle.js';

/**
 * The public record's reads of the ledger (docs/ledger.md, "Records"; docs/performance.md, "Record
 * aggregate"). The store filters the rows and hands each one, coded, to the domain's tally; the
 * domain decides what counts.
 */

/** Which public rows a record reads: already normalized (team upper-cased, player as its key). */
export interface RecordRowScope {
  sport?: string;
  team?: string;
  playerKey?: string;
}

function scopeWhere(scope: RecordRowScope): { where: string[]; args: unknown[] } {
  const where = ['"user_id" is null'];
  const args: unknown[] = [];
  if (scope.sport !== undefined) {
    where.push('"sport" = ?');
    args.push(scope.sport);
  }
  if (scope.team !== undefined) {
    where.push('upper("team") = ?');
    args.push(scope.team);
  }
  if (scope.playerKey !== undefined) {
    where.push('"player_key" = ?');
    args.push(scope.playerKey);
  }
  return { where, args };
}

/**
 * The record's columns as tally codes, computed by SQLite: the tier index (-1 for no tier), the
 * outcome code (4 for anything but hit, miss, push, void), the verdict on the one yardstick, p_win,
 * the locked price and the close's lead time. No row object and no string is built for a row in the normal case.
 */
const TIER_CASE = `case "grade" ${TIER_GRADES.map((g, i) => `when '${g}' then ${i}`).join(' ')} else -1 end`;
const OUTCOME_CASE = `case "outcome" when 'hit' then 0 when 'miss' then 1 when 'push' then 2 when 'void' then 3 else 4 end`;
const VERDICT = `case when "close_method" = 'own_book_devig' then null else "clv_verdict" end`;
const AGGREGATE = 'propgrade_record_tally';

/**
 * The tallies of the statements running on a connection, by a token each statement passes as its
 * aggregate's first argument: two tallies never share one, whichever store or order they run in.
 * The aggregate keeps its tally as its accumulator after the first row, so the token is looked up
 * once per statement.
 */
type Running = { next: number; tallies: Map<number, RecordTally> };
const byConnection = new WeakMap<object, Running>();

/** The connection's running tallies, with the aggregate registered on it the first time. */
function running(db: Db): Running {
  const client = clientOf(db);
  const known = byConnection.get(client);
  if (known) return known;
  const made = { next: 0, tallies: new Map<number, RecordTally>() };
  const step = (acc: RecordTally | null, token: number, tier: number, outcome: OutcomeCode, verdict: string | null, pWin: number | null, lockedPrice: number | null, leadMinutes: number | null) => {
    const tally = acc ?? made.tallies.get(token);
    if (!tally) throw new Error(`record tally ${token} is not running`);
    tally.add(tier, outcome, verdict, pWin, lockedPrice, leadMinutes);
    return tally;
  };
  // The typings know one-argument steps only; better-sqlite3 passes every SQL argument (arity from step.length).
  client.aggregate(AGGREGATE, { start: null, step: step as unknown as (acc: unknown, next: unknown) => unknown, result: () => 0, deterministic: false, directOnly: true });
  byConnection.set(client, made);
  return made;
}

/**
 * Adds the window's public rows of the scope to `tally`, aggregated inside SQLite: the store filters
 * the rows (by the game-date index, so in the same order each time, and the same float sums), codes
 * each one, and the aggregate adds it. No row is ever built or held.
 */
export async function tallyRecordRows(store: Store, scope: RecordRowScope, window: { from: string; to: string }, tally: RecordTally): Promise<void> {
  const { where, args } = scopeWhere(scope);
  where.push('"game_date" >= ?', '"game_date" <= ?');
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    const run = running(db);
    const stmt = prepared(clientOf(db), `select ${AGGREGATE}(?, ${TIER_CASE}, ${OUTCOME_CASE}, ${VERDICT}, "p_win", "locked_price", "close_lead_minutes") from "ledger_entries" where (${where.join(' and ')})`);
    const token = run.next++;
    run.tallies.set(token, tally);
    try {
      stmt.get(token, ...args, window.from, window.to);
    } finally {
      run.tallies.delete(token);
    }
    return;
  }
  // PostgreSQL: the same coded columns, read in the game-date index's order (date, then id) as
  // SQLite hands them to the aggregate, so the float sums add in the same order.
  const rows = await pgRows<[number, OutcomeCode, string | null, number | null, number | null, number | null]>(
    store,
    numbered(`select ${TIER_CASE}, ${OUTCOME_CASE}, ${VERDICT}, "p_win", "locked_price", "close_lead_minutes" from "ledger_entries" where (${where.join(' and ')}) order by "game_date" collate "C", "id"`),
    [...args, window.from, window.to],
  );
  for (const [tier, outcome, verdict, pWin, lockedPrice, leadMinutes] of rows) tally.add(tier, outcome, verdict, pWin, lockedPrice, leadMinutes);
}

export interface SettledTotals {
  settled: number;
  latestGameDate: string;
  /** When the latest of that date's entries was settled. */
  latestSettledAt: string | null;
}

/** The scope's settled public entries anywhere: how many, the latest game date and its latest settle time; null when none. */
export async function settledTotals(store: Store, scope: RecordRowScope): Promise<SettledTotals | null> {
  const { where, args } = scopeWhere(scope);
  where.push(`"outcome" in ('hit', 'miss', 'push', 'void')`);
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    const client = clientOf(db);
    const [settled, latestGameDate] = prepared(client, `select count(*), max("game_date") from "ledger_entries" where (${where.join(' and ')})`).raw(true).get(...args) as [number, string | null];
    if (settled === 0 || latestGameDate === null) return null;
    const latestSettledAt = prepared(client, `select max("settled_at") from "ledger_entries" where (${where.join(' and ')} and "game_date" = ?)`).pluck().get(...args, latestGameDate) as string | null;
    return { settled, latestGameDate, latestSettledAt };
  }
  const [[settled, latestGameDate] = [0, null]] = await pgRows<[number, string | null]>(store, numbered(`select count(*)::int, max("game_date" collate "C") from "ledger_entries" where (${where.join(' and ')})`), args);
  if (settled === 0 || latestGameDate === null) return null;
  const [[latestSettledAt] = [null]] = await pgRows<[string | null]>(store, numbered(`select max("settled_at" collate "C") from "ledger_entries" where (${where.join(' and ')} and "game_date" = ?)`), [...args, latestGameDate]);
  return { settled, latestGameDate, latestSettledAt };
}

/** Capped public entries of the window and scope, per letter, uncapped letter and cap reason (the record counts them with their reason). */
export interface CappedCount {
  grade: Grade;
  gradeUncapped: Grade | null;
  capReason: CapReason;
  n: number;
}

export async function cappedCounts(store: Store, scope: RecordRowScope, window: { from: string; to: string }): Promise<CappedCount[]> {
  const { where, args } = scopeWhere(scope);
  where.push('"game_date" >= ?', '"game_date" <= ?', '"cap_reason" is not null', '"grade" is not null');
  let rows: Array<[Grade, Grade | null, CapReason, number]>;
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    rows = prepared(
      clientOf(db),
      `select "grade", "grade_uncapped", "cap_reason", count(*) from "ledger_entries" where (${where.join(' and ')}) group by "grade", "grade_uncapped", "cap_reason" order by "grade", "grade_uncapped", "cap_reason"`,
    )
      .raw(true)
      .all(...args, window.from, window.to) as Array<[Grade, Grade | null, CapReason, number]>;
  } else {
    // SQLite's order: text by bytes ('A' < 'A+' < 'A-'), a null uncapped letter first.
    rows = await pgRows<[Grade, Grade | null, CapReason, number]>(
      store,
      numbered(
        `select "grade", "grade_uncapped", "cap_reason", count(*)::int from "ledger_entries" where (${where.join(' and ')}) group by "grade", "grade_uncapped", "cap_reason" ` +
          `order by "grade" collate "C", "grade_uncapped" collate "C" nulls first, "cap_reason" collate "C"`,
      ),
      [...args, window.from, window.to],
    );
  }
  return rows.map(([grade, gradeUncapped, capReason, n]) => ({ grade, gradeUncapped, capReason, n }));
}
