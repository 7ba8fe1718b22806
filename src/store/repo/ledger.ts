import { clockAt, type DataClock } from '../../domain/data-clock.js';
import { and, count, desc, eq, gt, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { LedgerEntry as DomainLedgerEntry } from '../../domain/ledger.js';
import type { CloseContext } from '../../domain/settlement.js';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import type { closingPrices, ledgerEntries } from '../schema.js';
import type { Handle } from './handle.js';
import { write } from './tx.js';
import { on, onWrite } from './handle.js';

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
  return write(store, (tx) => opsOf(tx).ledger.insertLedgerEntries(entries));
}

/**
 * Entries written before entered_at existed (migration 0013 / pg 0003) take their lock time as when
 * they were entered: the best bound known, never later than the truth for an entry locked when
 * entered, and never invented. Run once, as data migration
 * ledger-entered-at.
 */
export async function backfillEnteredAt(store: Store): Promise<void> {
  return onWrite(store, async ({ db, t }) => {
    const l = t.ledgerEntries;
    await db.update(l).set({ enteredAt: sql`${l.lockedAt}` }).where(isNull(l.enteredAt));
  });
}

/**
 * Entered at or before `iso` (issue 41 item 5), beside a `locked_at <= iso` bound: an entry whose
 * entered_at is not filled yet (written before the column, the backfill not run) counts as entered
 * when locked, as the backfill would fill it.
 */
export function enteredBy(l: Handle['t']['ledgerEntries'], iso: string): SQL {
  return or(isNull(l.enteredAt), lte(l.enteredAt, iso))!;
}

/** Public entries already written for a game's props: the history a line move revises. */
export async function publicEntriesForEvents(store: Store, eventIds: readonly string[]): Promise<LedgerEntry[]> {
  if (eventIds.length === 0) return [];
  return opsOf(store).ledger.publicEntriesForEvents(eventIds);
}

/** Public entries of a sport's ET game date locked and entered at or before `atIso`, in id order (what live tracking follows). */
export async function publicEntriesOfDate(store: Store, sport: string, gameDate: string, atIso: string): Promise<LedgerEntry[]> {
  const { db, t } = await on(store);
  const l = t.ledgerEntries;
  return db
    .select()
    .from(l)
    .where(and(isNull(l.userId), eq(l.sport, sport), eq(l.gameDate, gameDate), lte(l.lockedAt, atIso), enteredBy(l, atIso)))
    .orderBy(l.id);
}

/** Pending entries (public and users') whose game has not started at `now`: closing capture targets. */
export async function pendingBeforeStart(store: Store, sport: string, now: Date): Promise<LedgerEntry[]> {
  return opsOf(store).ledger.pendingBeforeStart(sport, now);
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
  /** The books whose prices formed the close, sorted and comma-joined (domain/close-lead.ts closeBooksOf). */
  closeBooks: string | null;
}

/** Pinnacle's own no-vig close at an entry's locked line, and the entry's CLV against it (issue 43). */
export interface PinnacleCapture {
  entryId: number;
  fairProb: number;
  leadMinutes: number | null;
  clv: number | null;
  clvPct: number | null;
  verdict: 'beat' | 'faded' | 'flat' | null;
}

/**
 * Each capture replaces the entry's close; every capture written now is read on the one yardstick.
 * A Pinnacle capture replaces the entry's Pinnacle close; a snapshot without Pinnacle at the line
 * leaves the previous one standing (Pinnacle's close is its last price before the start).
 */
export async function writeClosings(store: Store, captures: readonly ClosingCapture[], pinnacle: readonly PinnacleCapture[] = []): Promise<void> {
  return write(store, (tx) => opsOf(tx).ledger.writeClosings(captures, pinnacle));
}

export type NewClosingPrice = Omit<typeof closingPrices.$inferInsert, 'id'>;

/** The last write before start is the close: each capture overwrites the previous one. */
export async function upsertClosingPrices(store: Store, rows: readonly NewClosingPrice[]): Promise<void> {
  return write(store, (tx) => opsOf(tx).ledger.upsertClosingPrices(rows));
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
  /** As of this instant (ISO, docs/ledger.md "As of a time"): only entries locked and entered by then, and pending means not settled by then. */
  asOf?: string;
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
  if (filter.asOf !== undefined) where.push(lte(ledgerEntries.lockedAt, filter.asOf), enteredBy(ledgerEntries, filter.asOf));
  if (filter.pending) where.push(filter.asOf === undefined ? eq(ledgerEntries.outcome, 'pending') : or(eq(ledgerEntries.outcome, 'pending'), gt(ledgerEntries.settledAt, filter.asOf))!);
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
    .orderBy(desc(l.gameDate), opsOf(store).byBytes(l.player), l.id)
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
  return opsOf(store).ledger.closeContexts(need, sports);
}
