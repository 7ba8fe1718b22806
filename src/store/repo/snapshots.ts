import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../db.js';
import { gradedRows, gradeLocks, snapshots } from '../schema.js';

export type Snapshot = typeof snapshots.$inferSelect;
export type GradedRowRecord = typeof gradedRows.$inferSelect;
export type NewGradedRow = Omit<typeof gradedRows.$inferInsert, 'id' | 'snapshotId'>;
export type GradeLock = typeof gradeLocks.$inferSelect;
export type NewGradeLock = Omit<typeof gradeLocks.$inferInsert, 'id'>;

/** The newest snapshots of a sport, newest first: [latest, previous]. */
export function recentSnapshots(db: Db, sport: string, limit = 2): Snapshot[] {
  return db.select().from(snapshots).where(eq(snapshots.sport, sport)).orderBy(desc(snapshots.takenAt), desc(snapshots.id)).limit(limit).all();
}

/** The newest snapshot of a sport taken strictly before `takenAt`. */
export function snapshotBefore(db: Db, sport: string, takenAt: string): Snapshot | null {
  return (
    db
      .select()
      .from(snapshots)
      .where(and(eq(snapshots.sport, sport), lt(snapshots.takenAt, takenAt)))
      .orderBy(desc(snapshots.takenAt), desc(snapshots.id))
      .limit(1)
      .get() ?? null
  );
}

export function latestSnapshot(db: Db, sport: string): Snapshot | null {
  return recentSnapshots(db, sport, 1)[0] ?? null;
}

export function snapshotRows(db: Db, snapshotId: number): GradedRowRecord[] {
  return db.select().from(gradedRows).where(eq(gradedRows.snapshotId, snapshotId)).all();
}

/** Writes a snapshot and its rows; the caller wraps this in the run's transaction. */
export function insertSnapshot(db: Db, snapshot: Omit<typeof snapshots.$inferInsert, 'id'>, rows: readonly NewGradedRow[]): number {
  const { id } = db.insert(snapshots).values(snapshot).returning({ id: snapshots.id }).get();
  // Chunked: SQLite caps bound parameters per statement.
  const CHUNK = 200;
  for (let i = 0; i < rows.length; i += CHUNK) {
    db.insert(gradedRows)
      .values(rows.slice(i, i + CHUNK).map((r) => ({ ...r, snapshotId: id })))
      .run();
  }
  return id;
}

export const lockKey = (eventId: string, playerKey: string, stat: string, line: number, side: string) => `${eventId}|${playerKey}|${stat}|${line}|${side}`;

/** Existing grade locks for a game, keyed by lockKey. */
export function locksForEvents(db: Db, eventIds: readonly string[]): Map<string, GradeLock> {
  const out = new Map<string, GradeLock>();
  if (eventIds.length === 0) return out;
  const rows = db.select().from(gradeLocks).where(inArray(gradeLocks.eventId, [...eventIds])).all();
  for (const r of rows) out.set(lockKey(r.eventId, r.playerKey, r.statType, r.line, r.side), r);
  return out;
}

/** First writer wins: a lock, once written, never changes. */
export function insertLocks(db: Db, locks: readonly NewGradeLock[]): void {
  const CHUNK = 200;
  for (let i = 0; i < locks.length; i += CHUNK) db.insert(gradeLocks).values(locks.slice(i, i + CHUNK)).onConflictDoNothing().run();
}

/** Snapshots whose rows a given sport's latest graded row came from, for "latest real graded read" fallbacks. */
export function latestGradedSnapshot(db: Db, sport: string): Snapshot | null {
  return (
    db
      .select()
      .from(snapshots)
      .where(and(eq(snapshots.sport, sport)))
      .orderBy(desc(snapshots.takenAt), desc(snapshots.id))
      .all()
      .find((s) => s.gradedCount > 0) ?? null
  );
}
