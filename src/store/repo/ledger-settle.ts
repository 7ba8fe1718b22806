import type { EventTeams, PendingEntry, SettledEntry } from '../../domain/settle-entries.js';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import { write } from './tx.js';

/**
 * The settle run's reads and writes of the ledger (docs/performance.md, "Settle"): the due dates,
 * each date's pending entries in bulk, and the settled entries written by id (on SQLite through
 * prepared statements and a collecting aggregate, sqlite/ops/settle.ts; on PostgreSQL in one
 * statement each, pg/ops/settle.ts). Settling itself is the domain's (src/domain/settle-entries.ts);
 * nothing here decides anything. The run's one write transaction is
 * `transaction(store, fn, { exclusive: false })` (repo/tx.ts).
 */

/**
 * One row per game date of the sport's pending entries: whether the date is due, then, totalled
 * across dates (the same in every row), how many of the entries are not due, their first start and
 * their latest date.
 */
export type PendingDateRow = [gameDate: string, due: 0 | 1, pending: number, firstStart: string | null, lastGameDate: string | null];

export interface PendingDates {
  /** ET dates with an entry whose game has started, ascending. */
  due: string[];
  /** The pending entries that are not due; null when there are none. */
  notDue: { pending: number; firstStart: string; lastGameDate: string } | null;
}

/**
 * Due dates and not-due totals of the sport's pending entries at `at` (an ISO instant) on the ET date
 * `today`: an entry is due when its game has started by `at` and its date is not after `today`.
 */
export async function pendingDates(store: Store, sport: string, at: string, today: string): Promise<PendingDates> {
  const rows = await opsOf(store).settle.pendingDates(sport, at, today);
  const due = rows.filter((r) => r[1] === 1).map((r) => r[0]).sort();
  const [, , pending = 0, firstStart = null, lastGameDate = null] = rows[0] ?? [];
  return { due, notDue: pending === 0 || firstStart === null || lastGameDate === null ? null : { pending, firstStart, lastGameDate } };
}

/** A date's pending entries, in id order. */
export async function pendingOfDate(store: Store, sport: string, date: string): Promise<PendingEntry[]> {
  return opsOf(store).settle.pendingOfDate(sport, date);
}

/**
 * The home and away teams of the asked events as the sport's snapshots recorded them (graded rows),
 * by event id: how settlement finds the game of an entry whose booked team is not in it. An event
 * no snapshot recorded is absent.
 */
export async function eventTeamsOf(store: Store, sport: string, eventIds: readonly string[]): Promise<Map<string, EventTeams>> {
  const rows = await opsOf(store).settle.eventTeams(sport, [...new Set(eventIds)]);
  return new Map(rows.map(([id, homeTeam, awayTeam]) => [id, { homeTeam, awayTeam }]));
}

/**
 * Writes settled entries by id, inside the caller's transaction; returns how many rows changed. Only
 * a pending entry is settled: a second write of the same entry changes nothing.
 */
export async function writeSettlements(store: Store, settledAt: string, entries: readonly SettledEntry[]): Promise<number> {
  return write(store, (tx) => opsOf(tx).settle.writeSettlements(settledAt, entries));
}
