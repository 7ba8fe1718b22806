import { clockAt, type DataClock } from '../../domain/data-clock.js';
import { and, count, desc, eq, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { LedgerEntry as DomainLedgerEntry } from '../../domain/ledger.js';
import type { CloseContext } from '../../domain/settlement.js';
import type { Db } from '../db.js';
import { closingPrices, gradedRows, ledgerEntries, snapshots } from '../schema.js';
import { bindValues, clientOf, columnList, columnsOf, insertColumns, insertSql, mapRow, prepared } from './_raw.js';

export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/**
 * The domain declares the ledger entry it reads (src/domain/ledger.ts); the table's row must be
 * exactly that shape, both ways, so a column added or retyped on one side fails the typecheck.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rowIsDomainEntry: Same<LedgerEntry, DomainLedgerEntry> = true;
void rowIsDomainEntry;
export type NewLedgerEntry = Omit<typeof ledgerEntries.$inferInsert, 'id'>;

/**
 * Idempotent insert: the unique key (user or public, event, player, stat, line, side) means a
 * second run writes nothing new and the locked price and grade of the first write stand.
 */
export function insertLedgerEntries(db: Db, entries: readonly NewLedgerEntry[]): number {
  const cols = insertColumns(ledgerEntries);
  const insert = prepared(clientOf(db), insertSql(ledgerEntries, cols, ' on conflict do nothing'));
  let inserted = 0;
  for (const e of entries) inserted += insert.run(bindValues(cols, e)).changes;
  return inserted;
}

/** Public entries already written for a game's props: the history a line move revises. */
export function publicEntriesForEvents(db: Db, eventIds: readonly string[]): LedgerEntry[] {
  if (eventIds.length === 0) return [];
  const cols = columnsOf(ledgerEntries);
  const client = clientOf(db);
  // In chunks (SQLite caps bound parameters), then in the one order the caller reads them by.
  const CHUNK = 500;
  const out: LedgerEntry[] = [];
  for (let i = 0; i < eventIds.length; i += CHUNK) {
    const ids = eventIds.slice(i, i + CHUNK);
    // coalesce(user_id, 0) = 0 says nothing user_id is null does not, but lets SQLite seek the
    // (coalesce(user_id, 0), event_id, ...) unique index instead of scanning the whole ledger.
    const stmt = prepared(
      client,
      `select ${columnList(cols)} from "ledger_entries" where (coalesce("user_id", 0) = 0 and "user_id" is null and "event_id" in (${ids.map(() => '?').join(', ')})) order by "locked_at", "id"`,
    ).raw(true);
    for (const r of stmt.all(...ids) as unknown[][]) out.push(mapRow<LedgerEntry>(cols, r));
  }
  if (eventIds.length > CHUNK) out.sort((a, b) => (a.lockedAt < b.lockedAt ? -1 : a.lockedAt > b.lockedAt ? 1 : a.id - b.id));
  return out;
}

/** Public entries of a sport's ET game date locked at or before `atIso`, in id order (what live tracking follows). */
export function publicEntriesOfDate(db: Db, sport: string, gameDate: string, atIso: string): LedgerEntry[] {
  return db
    .select()
    .from(ledgerEntries)
    .where(and(isNull(ledgerEntries.userId), eq(ledgerEntries.sport, sport), eq(ledgerEntries.gameDate, gameDate), lte(ledgerEntries.lockedAt, atIso)))
    .orderBy(ledgerEntries.id)
    .all();
}

/** Pending entries (public and users') whose game has not started at `now`: closing capture targets. */
export function pendingBeforeStart(db: Db, sport: string, now: Date): LedgerEntry[] {
  const cols = columnsOf(ledgerEntries);
  const stmt = prepared(clientOf(db), `select ${columnList(cols)} from "ledger_entries" where ("sport" = ? and "outcome" = ? and "commence_time" > ?)`).raw(true);
  return (stmt.all(sport, 'pending', now.toISOString()) as unknown[][]).map((r) => mapRow<LedgerEntry>(cols, r));
}

export interface ClosingCapture {
  entryId: number;
  closingLine: number;
  closingPrice: number | null;
  closingFairProb: number | null;
  closingBook: string | null;
  closingFairSource: 'consensus' | 'market_implied' | 'book' | null;
  capturedAt: string;
  /** Minutes from the capture to the entry's start (domain/close-lead.ts). */
  closeLeadMinutes: number | null;
}

/** Each capture replaces the entry's close; every capture written now is read on the one yardstick. */
export function writeClosings(db: Db, captures: readonly ClosingCapture[]): void {
  const update = prepared(
    clientOf(db),
    'update "ledger_entries" set "closing_line" = ?, "closing_price" = ?, "closing_fair_prob" = ?, "closing_book" = ?, "closing_fair_source" = ?, "close_method" = \'one_yardstick\', "closing_captured_at" = ?, "close_lead_minutes" = ? where "id" = ?',
  );
  for (const c of captures) update.run(c.closingLine, c.closingPrice, c.closingFairProb, c.closingBook, c.closingFairSource, c.capturedAt, c.closeLeadMinutes, c.entryId);
}

export type NewClosingPrice = Omit<typeof closingPrices.$inferInsert, 'id'>;

/** The last write before start is the close: each capture overwrites the previous one. */
export function upsertClosingPrices(db: Db, rows: readonly NewClosingPrice[]): void {
  // One prepared upsert reused for every price (a 4k-row slate is 4k cheap runs, not 4k query builds).
  const cols = insertColumns(closingPrices);
  const upsert = prepared(
    clientOf(db),
    insertSql(
      closingPrices,
      cols,
      ' on conflict ("event_id", "player_key", "stat_type", "side", "line") do update set "price" = excluded.price, "fair_prob" = excluded.fair_prob, "book" = excluded.book, "captured_at" = excluded.captured_at, "commence_time" = excluded.commence_time, "close_lead_minutes" = excluded.close_lead_minutes',
    ),
  );
  for (const r of rows) upsert.run(bindValues(cols, r));
}

export interface LedgerFilter {
  sport?: string;
  date?: string;
  from?: string;
  to?: string;
  team?: string;
  playerKey?: string;
  pending?: boolean;
  publicOnly?: boolean;
  userId?: number;
}

function ledgerWhere(filter: LedgerFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.sport) where.push(eq(ledgerEntries.sport, filter.sport));
  if (filter.date) where.push(eq(ledgerEntries.gameDate, filter.date));
  if (filter.from) where.push(gte(ledgerEntries.gameDate, filter.from));
  if (filter.to) where.push(lte(ledgerEntries.gameDate, filter.to));
  if (filter.team) where.push(eq(ledgerEntries.team, filter.team));
  if (filter.playerKey) where.push(eq(ledgerEntries.playerKey, filter.playerKey));
  if (filter.pending) where.push(eq(ledgerEntries.outcome, 'pending'));
  if (filter.publicOnly) where.push(isNull(ledgerEntries.userId));
  if (filter.userId !== undefined) where.push(eq(ledgerEntries.userId, filter.userId));
  return where.length ? and(...where) : undefined;
}

export function listLedger(db: Db, filter: LedgerFilter, limit = 1000): LedgerEntry[] {
  return db
    .select()
    .from(ledgerEntries)
    .where(ledgerWhere(filter))
    .orderBy(desc(ledgerEntries.gameDate), ledgerEntries.player, ledgerEntries.id)
    .limit(limit)
    .all();
}

/** How many entries the filter matches, whatever the listing limit: the total a cut listing states. */
export function countLedger(db: Db, filter: LedgerFilter): number {
  return db.select({ n: count() }).from(ledgerEntries).where(ledgerWhere(filter)).get()?.n ?? 0;
}

/**
 * For entries with no captured close whose game has started (or is settled): how many snapshots of their sport
 * were taken strictly between the lock and the start, and whether any of those carried their game
 * (graded rows for the event). That is all the store can say about why no close was captured.
 */
export function closeContexts(db: Db, entries: readonly LedgerEntry[], now: DataClock): Map<number, CloseContext> {
  const out = new Map<number, CloseContext>();
  const need = entries.filter((e) => e.closingCapturedAt === null && e.book !== null && (e.outcome !== 'pending' || Date.parse(e.commenceTime) <= clockAt(now, e.sport).getTime()));
  if (need.length === 0) return out;
  const sports = [...new Set(need.map((e) => e.sport))];
  const bySport = new Map<string, Array<{ id: number; at: number }>>();
  for (const s of db.select({ id: snapshots.id, sport: snapshots.sport, takenAt: snapshots.takenAt }).from(snapshots).where(inArray(snapshots.sport, sports)).all()) {
    const list = bySport.get(s.sport) ?? [];
    list.push({ id: s.id, at: Date.parse(s.takenAt) });
    bySport.set(s.sport, list);
  }
  for (const list of bySport.values()) list.sort((a, b) => a.at - b.at);
  const carried = new Map<string, boolean>();
  const carriesStmt = db
    .select({ id: gradedRows.id })
    .from(gradedRows)
    .where(and(eq(gradedRows.snapshotId, sql.placeholder('snapshotId')), eq(gradedRows.eventId, sql.placeholder('eventId'))))
    .limit(1)
    .prepare();
  const carries = (snapshotId: number, eventId: string): boolean => {
    const key = `${snapshotId}|${eventId}`;
    let hit = carried.get(key);
    if (hit === undefined) {
      hit = carriesStmt.get({ snapshotId, eventId }) !== undefined;
      carried.set(key, hit);
    }
    return hit;
  };
  for (const e of need) {
    const list = bySport.get(e.sport) ?? [];
    const start = Date.parse(e.commenceTime);
    let after = 0;
    let carriedGame = false;
    for (let i = firstAfter(list, Date.parse(e.lockedAt)); i < list.length; i++) {
      const s = list[i];
      if (s === undefined || s.at >= start) break;
      after++;
      // One carrying snapshot settles the question; the unique (snapshot, event, ...) index answers it.
      if (!carriedGame && carries(s.id, e.eventId)) carriedGame = true;
    }
    out.set(e.id, { snapshotsAfterLock: after, carriedGame });
  }
  return out;
}

/** Index of the first snapshot taken strictly after `t` (the list is sorted by time). */
function firstAfter(list: ReadonlyArray<{ at: number }>, t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid]?.at ?? Infinity) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
