import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { propKeyOf as lockKey } from '../../../domain/prop-ref.js';
import { JsonText } from '../../_columns.js';
import type { SnapshotOps } from '../../engine-ops.js';
import type { SnapshotHead } from '../../repo/snapshot-watch.js';
import type { GradedRowRecord, LockedGrade, NewGradedRow, NewGradeLock, NewSnapshot, SortKeys } from '../../repo/snapshots.js';
// The SQLite tables, for the raw inserts' column mappings only (the values drizzle binds).
import * as sqliteSchema from '../../schema.js';
import type { Handle } from '../../shared-db.js';
import type { PgStore } from '../../store.js';
import { pgBulkInsert } from '../bulk-insert.js';

/** Rows per multi-row statement (well under PostgreSQL's 65,535 bound parameters). */
const CHUNK = 500;

/**
 * SQLite returns a snapshot's rows in the order of its (snapshot, event, player, stat, line, side)
 * index; PostgreSQL promises no order without ORDER BY, so it sorts by those columns, text in
 * byte order (collate "C") as SQLite compares it.
 */
function indexOrder(t: Handle['t']): SQL[] {
  const g = t.gradedRows;
  return [sql`${g.eventId} collate "C"`, sql`${g.playerKey} collate "C"`, sql`${g.statType} collate "C"`, sql`${g.line}`, sql`${g.side} collate "C"`];
}

/** Snapshot rows and grade locks in plain queries and multi-row inserts, in the order SQLite gives them. */
export class PgSnapshotOps implements SnapshotOps {
  constructor(
    private readonly store: PgStore,
    private readonly handle: Handle,
  ) {}

  async newestSnapshotPerSport(): Promise<Array<{ sport: string; takenAt: string; source: string | null }>> {
    const { db, t } = this.handle;
    const s = t.snapshots;
    return db
      .select({ sport: s.sport, takenAt: s.takenAt, source: s.source })
      .from(s)
      .where(sql`${s.id} = (select x.id from snapshots x where x.sport = ${s.sport} order by x.taken_at desc, x.id desc limit 1)`)
      .orderBy(desc(s.takenAt), desc(s.id));
  }

  async snapshotRows(snapshotId: number): Promise<GradedRowRecord[]> {
    const { db, t } = this.handle;
    return db.select().from(t.gradedRows).where(eq(t.gradedRows.snapshotId, snapshotId)).orderBy(...indexOrder(t));
  }

  async snapshotSortKeys(snapshotId: number): Promise<SortKeys[]> {
    const { db, t } = this.handle;
    const g = t.gradedRows;
    return db
      .select({
        id: g.id,
        eventId: g.eventId,
        commenceTime: g.commenceTime,
        homeTeam: g.homeTeam,
        awayTeam: g.awayTeam,
        player: g.player,
        playerKey: g.playerKey,
        statType: g.statType,
        line: g.line,
        side: g.side,
        grade: g.grade,
        evPct: g.evPct,
        evNowPct: g.evNowPct,
        edgeNow: g.edgeNow,
      })
      .from(g)
      .where(eq(g.snapshotId, snapshotId))
      .orderBy(...indexOrder(t));
  }

  async snapshotRowsById(ids: readonly number[]): Promise<Map<number, GradedRowRecord>> {
    const out = new Map<number, GradedRowRecord>();
    const { db, t } = this.handle;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = ids.slice(i, i + CHUNK);
      for (const r of await db.select().from(t.gradedRows).where(inArray(t.gradedRows.id, part)).orderBy(t.gradedRows.id)) out.set(r.id, r);
    }
    return out;
  }

  async mainLineRows(snapshotId: number): Promise<Array<{ eventId: string; playerKey: string; statType: string; line: number }>> {
    const { db, t } = this.handle;
    const g = t.gradedRows;
    return db
      .select({ eventId: g.eventId, playerKey: g.playerKey, statType: g.statType, line: g.line })
      .from(g)
      .where(and(eq(g.snapshotId, snapshotId), eq(g.isMainLine, true)))
      .orderBy(...indexOrder(t));
  }

  async insertSnapshot(snapshot: NewSnapshot, rows: readonly NewGradedRow[]): Promise<number> {
    const { db, t } = this.handle;
    const [head] = await db.insert(t.snapshots).values(snapshot).returning({ id: t.snapshots.id });
    const id = (head as { id: number }).id;
    // Multi-row VALUES in the rows' order: their ids follow that order, as on SQLite.
    await pgBulkInsert(this.store, sqliteSchema.gradedRows, rows, { override: { snapshotId: id } });
    return id;
  }

  /** The whole detail arrives parsed; each field is that object's key (undefined where absent). */
  async lockedGrades(eventIds: readonly string[]): Promise<Map<string, LockedGrade>> {
    const out = new Map<string, LockedGrade>();
    const { db, t } = this.handle;
    for (let i = 0; i < eventIds.length; i += CHUNK) {
      for (const l of await db.select().from(t.gradeLocks).where(inArray(t.gradeLocks.eventId, eventIds.slice(i, i + CHUNK)))) {
        const d = (l.modelDetail ?? null) as Record<string, unknown> | null;
        const f = d ?? {};
        out.set(lockKey(l.eventId, l.playerKey, l.statType, l.line, l.side), {
          grade: l.grade,
          gradeUncapped: l.gradeUncapped,
          capReason: l.capReason,
          projection: l.projection,
          pWin: l.pWin,
          modelOdds: l.modelOdds,
          gradedAt: l.gradedAt,
          archetype: l.archetype,
          modelDetail: d === null ? null : new JsonText(JSON.stringify(d)),
          detail: { evPct: f.evPct, value: f.value, takeable: f.takeable, refusal: f.refusal, nudgeWeight: f.nudgeWeight, pModel: f.pModel, fairSource: f.fairSource },
          lockedBook: l.lockedBook,
          lockedOdds: l.lockedOdds,
          lockedFairProb: l.lockedFairProb,
        });
      }
    }
    return out;
  }

  async insertLocks(locks: readonly NewGradeLock[]): Promise<void> {
    await pgBulkInsert(this.store, sqliteSchema.gradeLocks, locks, { suffix: ' on conflict do nothing' });
  }

  async snapshotHeadById(id: number): Promise<SnapshotHead | null> {
    const { db, t } = this.handle;
    const s = t.snapshots;
    const [row] = await db
      .select({ id: s.id, takenAt: s.takenAt, slateDate: s.slateDate, gradedCount: s.gradedCount, rowCount: s.rowCount })
      .from(s)
      .where(eq(s.id, id))
      .limit(1);
    return (row as SnapshotHead | undefined) ?? null;
  }

  /** No data_version here, nor a cheap counter of other sessions' commits: each call asks (one index probe). */
  latestSnapshotWatcher(): (sport: string) => Promise<number | undefined> {
    return async (sport) => {
      const { db, t } = this.handle;
      const [row] = await db.select({ id: t.snapshots.id }).from(t.snapshots).where(eq(t.snapshots.sport, sport)).orderBy(desc(t.snapshots.takenAt), desc(t.snapshots.id)).limit(1);
      return row?.id;
    };
  }
}
