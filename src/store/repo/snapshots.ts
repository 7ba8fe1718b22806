import { and, desc, eq, gt, lt, lte } from 'drizzle-orm';
import type { FairSource } from '../../domain/model/market.js';
import { propKeyOf } from '../../domain/prop-ref.js';
import type { JsonText } from '../_columns.js';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import type { gradedRows, gradeLocks, snapshots } from '../schema.js';
import { write } from './tx.js';
import { on } from './handle.js';

// A locked grade's model detail is carried as its stored text (LockedGrade).
export { JsonText } from '../_columns.js';

export type Snapshot = typeof snapshots.$inferSelect;
export type NewSnapshot = Omit<typeof snapshots.$inferInsert, 'id'>;
export type GradedRowRecord = typeof gradedRows.$inferSelect;
export type NewGradedRow = Omit<typeof gradedRows.$inferInsert, 'id' | 'snapshotId'>;
export type GradeLock = typeof gradeLocks.$inferSelect;
export type NewGradeLock = Omit<typeof gradeLocks.$inferInsert, 'id'>;
/** A graded row as the snapshot run holds it; `lockedFairSource` (the lock's fair rule) goes to the ledger, not the row. */
export type SlateRow = NewGradedRow & { isMainLine: boolean; lockedFairSource: FairSource | null };

/** The newest snapshots of a sport, newest first: [latest, previous]; only those taken at or before `asOf` when given. */
export async function recentSnapshots(store: Store, sport: string, limit = 2, asOf: Date | null = null): Promise<Snapshot[]> {
  const { db, t } = await on(store);
  const where = asOf === null ? eq(t.snapshots.sport, sport) : and(eq(t.snapshots.sport, sport), lte(t.snapshots.takenAt, asOf.toISOString()));
  return db.select().from(t.snapshots).where(where).orderBy(desc(t.snapshots.takenAt), desc(t.snapshots.id)).limit(limit);
}

/** The newest snapshot of a sport taken strictly before `takenAt`. */
export async function snapshotBefore(store: Store, sport: string, takenAt: string): Promise<Snapshot | null> {
  const { db, t } = await on(store);
  const [row] = await db
    .select()
    .from(t.snapshots)
    .where(and(eq(t.snapshots.sport, sport), lt(t.snapshots.takenAt, takenAt)))
    .orderBy(desc(t.snapshots.takenAt), desc(t.snapshots.id))
    .limit(1);
  return row ?? null;
}

/** The newest snapshot of each sport (its time and where it came from), newest first: what the read clock decides on. */
export async function newestSnapshotPerSport(store: Store): Promise<Array<{ sport: string; takenAt: string; source: string | null }>> {
  return opsOf(store).snapshots.newestSnapshotPerSport();
}

/**
 * The newest snapshot of a sport; as of a time (`asOf`, issue 41 item 5) the newest taken at or
 * before it, never one taken after (null: none by then). Without `asOf`, the newest stored.
 */
export async function latestSnapshot(store: Store, sport: string, asOf: Date | null = null): Promise<Snapshot | null> {
  return (await recentSnapshots(store, sport, 1, asOf))[0] ?? null;
}

/** The newest snapshot of a sport's slate for an ET date taken at or before `atIso`. */
export async function slateSnapshotAsOf(store: Store, sport: string, slateDate: string, atIso: string): Promise<Snapshot | null> {
  const { db, t } = await on(store);
  const [row] = await db
    .select()
    .from(t.snapshots)
    .where(and(eq(t.snapshots.sport, sport), eq(t.snapshots.slateDate, slateDate), lte(t.snapshots.takenAt, atIso)))
    .orderBy(desc(t.snapshots.takenAt), desc(t.snapshots.id))
    .limit(1);
  return row ?? null;
}

/** Every row of a snapshot, in the order of the (snapshot, event, player, stat, line, side) index. */
export async function snapshotRows(store: Store, snapshotId: number): Promise<GradedRowRecord[]> {
  return opsOf(store).snapshots.snapshotRows(snapshotId);
}

/** What the slate sorts and groups rows by (compareRows, the card, the game title). */
export type SortKeys = Pick<GradedRowRecord, 'id' | 'eventId' | 'commenceTime' | 'homeTeam' | 'awayTeam' | 'player' | 'playerKey' | 'statType' | 'line' | 'side' | 'grade' | 'evPct' | 'evNowPct' | 'edgeNow'>;

/** The sort keys of a snapshot's rows, in snapshotRows' order (the same query and index). */
export async function snapshotSortKeys(store: Store, snapshotId: number): Promise<SortKeys[]> {
  return opsOf(store).snapshots.snapshotSortKeys(snapshotId);
}

/** Whole rows by id (as snapshotRows returns them), keyed by id. */
export async function snapshotRowsById(store: Store, ids: readonly number[]): Promise<Map<number, GradedRowRecord>> {
  return opsOf(store).snapshots.snapshotRowsById(ids);
}

/** (event, player key, stat, line) of every main-line row of a snapshot: what line movement compares against. */
export async function mainLineRows(store: Store, snapshotId: number): Promise<Array<{ eventId: string; playerKey: string; statType: string; line: number }>> {
  return opsOf(store).snapshots.mainLineRows(snapshotId);
}

/** Writes a snapshot and its rows, which keep their order (so their ids too); the caller wraps this in the run's transaction. */
export async function insertSnapshot(store: Store, snapshot: NewSnapshot, rows: readonly NewGradedRow[]): Promise<number> {
  return write(store, (tx) => opsOf(tx).snapshots.insertSnapshot(snapshot, rows));
}

/** A grade lock's key: the prop's identity as one string (domain/prop-ref.ts). */
export const lockKey = propKeyOf;

/**
 * A stored lock as the snapshot run uses it: the model detail stays its stored JSON text (written
 * into the new row as is), and the detail fields the row reads are what parsing the whole detail
 * would give for each key (undefined where the key is absent); SQLite reads each one as the JSON
 * text of its value (`->`, the literal as stored) instead of parsing the whole detail.
 */
export interface LockedGrade extends Pick<GradeLock, 'grade' | 'gradeUncapped' | 'capReason' | 'projection' | 'pWin' | 'modelOdds' | 'gradedAt' | 'archetype' | 'lockedBook' | 'lockedOdds' | 'lockedFairProb'> {
  modelDetail: JsonText | null;
  detail: { evPct: unknown; value: unknown; takeable: unknown; refusal: unknown; nudgeWeight: unknown; pModel: unknown; fairSource: unknown };
}

/** Existing grade locks for the events, keyed by lockKey, their model detail unparsed (see LockedGrade). */
export async function lockedGrades(store: Store, eventIds: readonly string[]): Promise<Map<string, LockedGrade>> {
  return opsOf(store).snapshots.lockedGrades(eventIds);
}

/** First writer wins: a lock, once written, never changes. */
export async function insertLocks(store: Store, locks: readonly NewGradeLock[]): Promise<void> {
  return write(store, (tx) => opsOf(tx).snapshots.insertLocks(locks));
}

/** Snapshots whose rows a given sport's latest graded row came from, for "latest real graded read" fallbacks. */
export async function latestGradedSnapshot(store: Store, sport: string): Promise<Snapshot | null> {
  const { db, t } = await on(store);
  // The newest snapshot of the sport that graded anything (the first such one in newest-first order).
  const [row] = await db
    .select()
    .from(t.snapshots)
    .where(and(eq(t.snapshots.sport, sport), gt(t.snapshots.gradedCount, 0)))
    .orderBy(desc(t.snapshots.takenAt), desc(t.snapshots.id))
    .limit(1);
  return row ?? null;
}
