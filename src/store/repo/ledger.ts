import { clockAt, type DataClock } from '../../domain/data-clock.js';
import { and, count, desc, eq, gt, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { LedgerEntry as DomainLedgerEntry } from '../../domain/ledger.js';
import type { CloseContext } from '../../domain/settlement.js';
import type { Store } from '../db.js';
import { closingPrices, gradedRows, ledgerEntries, snapshots } from '../schema.js';
import type { Handle } from './handle.js';
import { bindValues, clientOf, columnList, columnsOf, insertColumns, insertSql, mapRow, prepared } from './_raw.js';
import { byBytes, chunks, dedupe, pgRun } from './_pg-raw.js';
import { write } from './tx.js';
import { on, sqliteOf } from './handle.js';

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
export async function insertLedgerEntries(store: Store, entries: readonly NewLedgerEntry[]): Promise<number> {
  return write(store, async (store) => {
    if (store.engine === 'sqlite') {
      const { db } = await sqliteOf(store);
      const cols = insertColumns(ledgerEntries);
      const insert = prepared(clientOf(db), insertSql(ledgerEntries, cols, ' on conflict do nothing'));
      let inserted = 0;
      for (const e of entries) inserted += insert.run(bindValues(cols, e)).changes;
      return inserted;
    }
    // PostgreSQL: multi-row inserts in the entries' order; a repeat within one is skipped as on SQLite.
    const { db, t } = await on(store);
    let inserted = 0;
    for (const slice of chunks(entries, 500)) {
      inserted += (await db.insert(t.ledgerEntries).values(slice.map((e) => ({ ...e }))).onConflictDoNothing().returning({ id: t.ledgerEntries.id })).length;
    }
    return inserted;
  });
}

/** Public entries already written for a game's props: the history a line move revises. */
export async function publicEntriesForEvents(store: Store, eventIds: readonly string[]): Promise<LedgerEntry[]> {
  if (eventIds.length === 0) return [];
  if (store.engine === 'postgres') {
    const { db, t } = await on(store);
    const l = t.ledgerEntries;
    const out: LedgerEntry[] = [];
    for (const ids of chunks(eventIds, 5000)) {
      out.push(...(await db.select().from(l).where(and(isNull(l.userId), inArray(l.eventId, ids))).orderBy(byBytes(store, l.lockedAt), l.id)));
    }
    if (eventIds.length > 5000) out.sort((a, b) => (a.lockedAt < b.lockedAt ? -1 : a.lockedAt > b.lockedAt ? 1 : a.id - b.id));
    return out;
  }
  const { db } = await sqliteOf(store);
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
export async function publicEntriesOfDate(store: Store, sport: string, gameDate: string, atIso: string): Promise<LedgerEntry[]> {
  const { db, t } = await on(store);
  const l = t.ledgerEntries;
  return db
    .select()
    .from(l)
    .where(and(isNull(l.userId), eq(l.sport, sport), eq(l.gameDate, gameDate), lte(l.lockedAt, atIso)))
    .orderBy(l.id);
}

/** Pending entries (public and users') whose game has not started at `now`: closing capture targets. */
export async function pendingBeforeStart(store: Store, sport: string, now: Date): Promise<LedgerEntry[]> {
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    const cols = columnsOf(ledgerEntries);
    const stmt = prepared(clientOf(db), `select ${columnList(cols)} from "ledger_entries" where ("sport" = ? and "outcome" = ? and "commence_time" > ?)`).raw(true);
    return (stmt.all(sport, 'pending', now.toISOString()) as unknown[][]).map((r) => mapRow<LedgerEntry>(cols, r));
  }
  // PostgreSQL: in the order SQLite's pending index (outcome, sport, game date) hands the rows over.
  const { db, t } = await on(store);
  const l = t.ledgerEntries;
  return db
    .select()
    .from(l)
    .where(and(eq(l.sport, sport), eq(l.outcome, 'pending'), gt(l.commenceTime, now.toISOString())))
    .orderBy(byBytes(store, l.gameDate), l.id);
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
export async function writeClosings(store: Store, captures: readonly ClosingCapture[]): Promise<void> {
  return write(store, async (store) => {
    if (store.engine === 'sqlite') {
      const { db } = await sqliteOf(store);
      const update = prepared(
        clientOf(db),
        'update "ledger_entries" set "closing_line" = ?, "closing_price" = ?, "closing_fair_prob" = ?, "closing_book" = ?, "closing_fair_source" = ?, "close_method" = \'one_yardstick\', "closing_captured_at" = ?, "close_lead_minutes" = ? where "id" = ?',
      );
      for (const c of captures) update.run(c.closingLine, c.closingPrice, c.closingFairProb, c.closingBook, c.closingFairSource, c.capturedAt, c.closeLeadMinutes, c.entryId);
      return;
    }
    if (captures.length === 0) return;
    // PostgreSQL: one UPDATE over the captures as arrays; an entry captured twice keeps the last, as on SQLite.
    const rows = dedupe(captures, (c) => String(c.entryId), 'last');
    const col = <K extends keyof ClosingCapture>(k: K) => rows.map((c) => c[k] ?? null);
    await pgRun(
      store,
      'update "ledger_entries" as l set "closing_line" = v.closing_line, "closing_price" = v.closing_price, "closing_fair_prob" = v.closing_fair_prob, "closing_book" = v.closing_book, ' +
        `"closing_fair_source" = v.closing_fair_source, "close_method" = 'one_yardstick', "closing_captured_at" = v.captured_at, "close_lead_minutes" = v.close_lead_minutes ` +
        'from unnest($1::bigint[], $2::float8[], $3::float8[], $4::float8[], $5::text[], $6::text[], $7::text[], $8::float8[]) ' +
        'as v(id, closing_line, closing_price, closing_fair_prob, closing_book, closing_fair_source, captured_at, close_lead_minutes) where l."id" = v.id',
      [col('entryId'), col('closingLine'), col('closingPrice'), col('closingFairProb'), col('closingBook'), col('closingFairSource'), col('capturedAt'), col('closeLeadMinutes')],
    );
  });
}

export type NewClosingPrice = Omit<typeof closingPrices.$inferInsert, 'id'>;

/** The last write before start is the close: each capture overwrites the previous one. */
export async function upsertClosingPrices(store: Store, rows: readonly NewClosingPrice[]): Promise<void> {
  return write(store, async (store) => {
    if (store.engine === 'postgres') return pgUpsertClosingPrices(store, rows);
    const { db } = await sqliteOf(store);
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
  });
}

/** Multi-row upserts; a price repeated within one keeps its first place and last values, as SQLite's one-by-one upserts leave it. */
async function pgUpsertClosingPrices(store: Store, rows: readonly NewClosingPrice[]): Promise<void> {
  const { db, t } = await on(store);
  const c = t.closingPrices;
  const unique = dedupe(rows, (r) => JSON.stringify([r.eventId, r.playerKey, r.statType, r.side, r.line]), 'last');
  for (const slice of chunks(unique, 1000)) {
    await db
      .insert(c)
      .values(slice.map((r) => ({ ...r })))
      .onConflictDoUpdate({
        target: [c.eventId, c.playerKey, c.statType, c.side, c.line],
        set: { price: sql`excluded.price`, fairProb: sql`excluded.fair_prob`, book: sql`excluded.book`, capturedAt: sql`excluded.captured_at`, commenceTime: sql`excluded.commence_time`, closeLeadMinutes: sql`excluded.close_lead_minutes` },
      });
  }
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

function ledgerWhere(t: Handle['t'], filter: LedgerFilter): SQL | undefined {
  const ledgerEntries = t.ledgerEntries;
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

export async function listLedger(store: Store, filter: LedgerFilter, limit = 1000): Promise<LedgerEntry[]> {
  const { db, t } = await on(store);
  const l = t.ledgerEntries;
  return db
    .select()
    .from(l)
    .where(ledgerWhere(t, filter))
    .orderBy(desc(l.gameDate), byBytes(store, l.player), l.id)
    .limit(limit);
}

/** How many entries the filter matches, whatever the listing limit: the total a cut listing states. */
export async function countLedger(store: Store, filter: LedgerFilter): Promise<number> {
  const { db, t } = await on(store);
  const [row] = await db.select({ n: count() }).from(t.ledgerEntries).where(ledgerWhere(t, filter));
  return row?.n ?? 0;
}

/**
 * For entries with no captured close whose game has started (or is settled): how many snapshots of their sport
 * were taken strictly between the lock and the start, and whether any of those carried their game
 * (graded rows for the event). That is all the store can say about why no close was captured.
 */
export async function closeContexts(store: Store, entries: readonly LedgerEntry[], now: DataClock): Promise<Map<number, CloseContext>> {
  const need = entries.filter((e) => e.closingCapturedAt === null && e.book !== null && (e.outcome !== 'pending' || Date.parse(e.commenceTime) <= clockAt(now, e.sport).getTime()));
  if (need.length === 0) return new Map();
  const sports = [...new Set(need.map((e) => e.sport))];
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    const bySport = snapshotTimes(db.select({ id: snapshots.id, sport: snapshots.sport, takenAt: snapshots.takenAt }).from(snapshots).where(inArray(snapshots.sport, sports)).all());
    const carried = new Map<string, boolean>();
    const carriesStmt = db
      .select({ id: gradedRows.id })
      .from(gradedRows)
      .where(and(eq(gradedRows.snapshotId, sql.placeholder('snapshotId')), eq(gradedRows.eventId, sql.placeholder('eventId'))))
      .limit(1)
      .prepare();
    return contextsOf(need, bySport, (snapshotId, eventId) => {
      const key = `${snapshotId}|${eventId}`;
      let hit = carried.get(key);
      if (hit === undefined) {
        hit = carriesStmt.get({ snapshotId, eventId }) !== undefined;
        carried.set(key, hit);
      }
      return hit;
    });
  }
  // PostgreSQL: the (snapshot, event) pairs that can be asked about, read in one query up front.
  const { db, t } = await on(store);
  const bySport = snapshotTimes(await db.select({ id: t.snapshots.id, sport: t.snapshots.sport, takenAt: t.snapshots.takenAt }).from(t.snapshots).where(inArray(t.snapshots.sport, sports)));
  const asked = new Set<number>();
  contextsOf(need, bySport, (snapshotId) => {
    asked.add(snapshotId);
    return false;
  });
  const pairs = new Set<string>();
  const eventIds = [...new Set(need.map((e) => e.eventId))];
  for (const ids of chunks([...asked], 5000)) {
    const g = t.gradedRows;
    const rows = await db.selectDistinct({ snapshotId: g.snapshotId, eventId: g.eventId }).from(g).where(and(inArray(g.snapshotId, ids), inArray(g.eventId, eventIds)));
    for (const r of rows) pairs.add(`${r.snapshotId}|${r.eventId}`);
  }
  return contextsOf(need, bySport, (snapshotId, eventId) => pairs.has(`${snapshotId}|${eventId}`));
}

/** The snapshots' times by sport, each list in time order. */
function snapshotTimes(rows: ReadonlyArray<{ id: number; sport: string; takenAt: string }>): Map<string, Array<{ id: number; at: number }>> {
  const bySport = new Map<string, Array<{ id: number; at: number }>>();
  for (const s of rows) {
    const list = bySport.get(s.sport) ?? [];
    list.push({ id: s.id, at: Date.parse(s.takenAt) });
    bySport.set(s.sport, list);
  }
  for (const list of bySport.values()) list.sort((a, b) => a.at - b.at);
  return bySport;
}

/** Each entry's snapshots strictly between its lock and its start, and whether one carried its game. */
function contextsOf(need: readonly LedgerEntry[], bySport: Map<string, Array<{ id: number; at: number }>>, carries: (snapshotId: number, eventId: string) => boolean): Map<number, CloseContext> {
  const out = new Map<number, CloseContext>();
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
