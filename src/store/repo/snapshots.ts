import { and, desc, eq, gt, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { FairSource } from '../../domain/model/market.js';
import { propKeyOf } from '../../domain/prop-ref.js';
import type { Store } from '../db.js';
import type { gradedRows, gradeLocks, snapshots } from '../schema.js';
// The SQLite tables themselves, for the raw fast paths' column mappings only (SQLite-only code).
import * as sqliteSchema from '../schema.js';
import { bindValues, columnList, columnsOf, insertColumns, insertSql, JsonText, mapRow, prepared } from './_raw.js';
import { pgInsertRows } from './_pg-raw.js';
import { write } from './tx.js';
import { on, sqliteOf, type Handle } from './handle.js';

export type Snapshot = typeof snapshots.$inferSelect;
export type GradedRowRecord = typeof gradedRows.$inferSelect;
export type NewGradedRow = Omit<typeof gradedRows.$inferInsert, 'id' | 'snapshotId'>;
export type GradeLock = typeof gradeLocks.$inferSelect;
export type NewGradeLock = Omit<typeof gradeLocks.$inferInsert, 'id'>;
/** A graded row as the snapshot run holds it; `lockedFairSource` (the lock's fair rule) goes to the ledger, not the row. */
export type SlateRow = NewGradedRow & { isMainLine: boolean; lockedFairSource: FairSource | null };

/** Rows per multi-row statement on PostgreSQL (well under its 65,535 bound parameters). */
const CHUNK = 500;

/** The newest snapshots of a sport, newest first: [latest, previous]. */
export async function recentSnapshots(store: Store, sport: string, limit = 2): Promise<Snapshot[]> {
  const { db, t } = await on(store);
  return db.select().from(t.snapshots).where(eq(t.snapshots.sport, sport)).orderBy(desc(t.snapshots.takenAt), desc(t.snapshots.id)).limit(limit);
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
  if (store.engine === 'sqlite') {
    const s = await sqliteOf(store);
    const text = `SELECT s.sport, s.taken_at AS takenAt, s.source FROM snapshots s
     WHERE s.id = (SELECT id FROM snapshots t WHERE t.sport = s.sport ORDER BY t.taken_at DESC, t.id DESC LIMIT 1)
     ORDER BY s.taken_at DESC, s.id DESC`;
    return prepared(s.sqlite, text).all() as Array<{ sport: string; takenAt: string; source: string | null }>;
  }
  const { db, t } = await on(store);
  const s = t.snapshots;
  return db
    .select({ sport: s.sport, takenAt: s.takenAt, source: s.source })
    .from(s)
    .where(sql`${s.id} = (select x.id from snapshots x where x.sport = ${s.sport} order by x.taken_at desc, x.id desc limit 1)`)
    .orderBy(desc(s.takenAt), desc(s.id));
}

export async function latestSnapshot(store: Store, sport: string): Promise<Snapshot | null> {
  return (await recentSnapshots(store, sport, 1))[0] ?? null;
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

/**
 * SQLite returns a snapshot's rows in the order of its (snapshot, event, player, stat, line, side)
 * index; PostgreSQL promises no order without ORDER BY, so its side sorts by those columns, text in
 * byte order (collate "C") as SQLite compares it.
 */
function indexOrder(t: Handle['t']): SQL[] {
  const g = t.gradedRows;
  return [sql`${g.eventId} collate "C"`, sql`${g.playerKey} collate "C"`, sql`${g.statType} collate "C"`, sql`${g.line}`, sql`${g.side} collate "C"`];
}

/** Every row of a snapshot, in the order of the (snapshot, event, player, stat, line, side) index. */
export async function snapshotRows(store: Store, snapshotId: number): Promise<GradedRowRecord[]> {
  if (store.engine === 'sqlite') {
    const s = await sqliteOf(store);
    const cols = columnsOf(sqliteSchema.gradedRows);
    const stmt = prepared(s.sqlite, `select ${columnList(cols)} from "graded_rows" where "snapshot_id" = ?`);
    return (stmt.raw(true).all(snapshotId) as unknown[][]).map((r) => mapRow<GradedRowRecord>(cols, r));
  }
  const { db, t } = await on(store);
  return db.select().from(t.gradedRows).where(eq(t.gradedRows.snapshotId, snapshotId)).orderBy(...indexOrder(t));
}

/** What the slate sorts and groups rows by (compareRows, the card, the game title). */
export type SortKeys = Pick<GradedRowRecord, 'id' | 'eventId' | 'commenceTime' | 'homeTeam' | 'awayTeam' | 'player' | 'playerKey' | 'statType' | 'line' | 'side' | 'grade' | 'evPct' | 'evNowPct' | 'edgeNow'>;

/** The sort keys of a snapshot's rows, in snapshotRows' order (the same query and index). */
export async function snapshotSortKeys(store: Store, snapshotId: number): Promise<SortKeys[]> {
  if (store.engine === 'sqlite') {
    const s = await sqliteOf(store);
    const stmt = prepared(
      s.sqlite,
      `select "id", "event_id", "commence_time", "home_team", "away_team", "player", "player_key", "stat_type", "line", "side", "grade", "ev_pct", "ev_now_pct", "edge_now" from "graded_rows" where "snapshot_id" = ?`,
    ).raw(true);
    return (stmt.all(snapshotId) as unknown[][]).map(([id, eventId, commenceTime, homeTeam, awayTeam, player, playerKey, statType, line, side, grade, evPct, evNowPct, edgeNow]) => ({
      id,
      eventId,
      commenceTime,
      homeTeam,
      awayTeam,
      player,
      playerKey,
      statType,
      line,
      side,
      grade,
      evPct,
      evNowPct,
      edgeNow,
    })) as SortKeys[];
  }
  const { db, t } = await on(store);
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

/** Whole rows by id (as snapshotRows returns them), keyed by id. */
export async function snapshotRowsById(store: Store, ids: readonly number[]): Promise<Map<number, GradedRowRecord>> {
  const out = new Map<number, GradedRowRecord>();
  if (store.engine === 'sqlite') {
    const s = await sqliteOf(store);
    const cols = columnsOf(sqliteSchema.gradedRows);
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = ids.slice(i, i + CHUNK);
      const stmt = prepared(s.sqlite, `select ${columnList(cols)} from "graded_rows" where "id" in (${part.map(() => '?').join(', ')})`).raw(true);
      for (const raw of stmt.all(...part) as unknown[][]) {
        const r = mapRow<GradedRowRecord>(cols, raw);
        out.set(r.id, r);
      }
    }
    return out;
  }
  const { db, t } = await on(store);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    for (const r of await db.select().from(t.gradedRows).where(inArray(t.gradedRows.id, part)).orderBy(t.gradedRows.id)) out.set(r.id, r);
  }
  return out;
}

/** (event, player key, stat, line) of every main-line row of a snapshot: what line movement compares against. */
export async function mainLineRows(store: Store, snapshotId: number): Promise<Array<{ eventId: string; playerKey: string; statType: string; line: number }>> {
  if (store.engine === 'sqlite') {
    const s = await sqliteOf(store);
    const stmt = prepared(s.sqlite, `select "event_id", "player_key", "stat_type", "line" from "graded_rows" where "snapshot_id" = ? and "is_main_line" = 1`).raw(true);
    return (stmt.all(snapshotId) as Array<[string, string, string, number]>).map(([eventId, playerKey, statType, line]) => ({ eventId, playerKey, statType, line }));
  }
  const { db, t } = await on(store);
  const g = t.gradedRows;
  return db
    .select({ eventId: g.eventId, playerKey: g.playerKey, statType: g.statType, line: g.line })
    .from(g)
    .where(and(eq(g.snapshotId, snapshotId), eq(g.isMainLine, true)))
    .orderBy(...indexOrder(t));
}

/**
 * Writes a snapshot and its rows; the caller wraps this in the run's transaction. One prepared
 * INSERT per table, reused for every row (rows keep their order, so their ids too).
 */
export async function insertSnapshot(store: Store, snapshot: Omit<typeof snapshots.$inferInsert, 'id'>, rows: readonly NewGradedRow[]): Promise<number> {
  return write(store, async (store) => {
    if (store.engine === 'sqlite') {
      const { sqlite: client } = await sqliteOf(store);
      const snapCols = insertColumns(sqliteSchema.snapshots);
      const id = Number(prepared(client, insertSql(sqliteSchema.snapshots, snapCols)).run(bindValues(snapCols, snapshot)).lastInsertRowid);
      const rowCols = insertColumns(sqliteSchema.gradedRows);
      const insert = prepared(client, insertSql(sqliteSchema.gradedRows, rowCols));
      const snapshotId = { snapshotId: id };
      for (const r of rows) insert.run(bindValues(rowCols, r, snapshotId));
      return id;
    }
    const { db, t } = await on(store);
    const [head] = await db.insert(t.snapshots).values(snapshot).returning({ id: t.snapshots.id });
    const id = (head as { id: number }).id;
    // Multi-row VALUES in the rows' order: their ids follow that order, as on SQLite.
    await pgInsertRows(store, sqliteSchema.gradedRows, rows, { override: { snapshotId: id } });
    return id;
  });
}

/** A grade lock's key: the prop's identity as one string (domain/prop-ref.ts). */
export const lockKey = propKeyOf;

/**
 * A stored lock as the snapshot run uses it: the model detail stays its stored JSON text (written
 * into the new row as is), and the four detail fields the row reads are read by SQLite, each as the
 * JSON text of its value (`->`, the literal as stored) parsed here: what parsing the whole detail
 * would give for that key (undefined where the key is absent).
 */
export interface LockedGrade extends Pick<GradeLock, 'grade' | 'gradeUncapped' | 'capReason' | 'projection' | 'pWin' | 'modelOdds' | 'gradedAt' | 'archetype' | 'lockedBook' | 'lockedOdds' | 'lockedFairProb'> {
  modelDetail: JsonText | null;
  detail: { evPct: unknown; value: unknown; takeable: unknown; refusal: unknown; nudgeWeight: unknown; pModel: unknown; fairSource: unknown };
}

const fieldOf = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

/** Existing grade locks for the events, keyed by lockKey, their model detail unparsed (see LockedGrade). */
export async function lockedGrades(store: Store, eventIds: readonly string[]): Promise<Map<string, LockedGrade>> {
  const out = new Map<string, LockedGrade>();
  if (store.engine === 'sqlite') {
    const { sqlite: client } = await sqliteOf(store);
    for (let i = 0; i < eventIds.length; i += CHUNK) {
      const ids = eventIds.slice(i, i + CHUNK);
      const stmt = prepared(
        client,
        `select "event_id", "player_key", "stat_type", "line", "side", "grade", "projection", "p_win", "model_odds", "graded_at", "archetype", "model_detail", ` +
          `"model_detail" -> '$.evPct', "model_detail" -> '$.value', "model_detail" -> '$.takeable', "model_detail" -> '$.refusal', ` +
          `"model_detail" -> '$.nudgeWeight', "model_detail" -> '$.pModel', "model_detail" -> '$.fairSource', "locked_book", "locked_odds", "locked_fair_prob", "grade_uncapped", "cap_reason" ` +
          `from "grade_locks" where "event_id" in (${ids.map(() => '?').join(', ')})`,
      ).raw(true);
      for (const r of stmt.iterate(...ids) as IterableIterator<unknown[]>) {
        const [eventId, playerKey, statType, line, side, grade, projection, pWin, modelOdds, gradedAt, archetype, detail, evPct, value, takeable, refusal, nudgeWeight, pModel, fairSource, lockedBook, lockedOdds, lockedFairProb, gradeUncapped, capReason] = r as [
          string, string, string, number, string, string | null, number | null, number | null, number | null, string, string | null, string | null, string | null, string | null, string | null, string | null,
          string | null, string | null, string | null, string | null, number | null, number | null, string | null, GradeLock['capReason'],
        ];
        out.set(lockKey(eventId, playerKey, statType, line, side), {
          grade,
          gradeUncapped,
          capReason,
          projection,
          pWin,
          modelOdds,
          gradedAt,
          archetype,
          // Stored 'null' is what drizzle writes for no detail: it reads back as null, and is written as null.
          modelDetail: detail === null || detail === 'null' ? null : new JsonText(detail),
          detail: { evPct: fieldOf(evPct), value: fieldOf(value), takeable: fieldOf(takeable), refusal: fieldOf(refusal), nudgeWeight: fieldOf(nudgeWeight), pModel: fieldOf(pModel), fairSource: fieldOf(fairSource) },
          lockedBook,
          lockedOdds,
          lockedFairProb,
        });
      }
    }
    return out;
  }
  // PostgreSQL: the whole detail arrives parsed; each field is that object's key (undefined where absent), as above.
  const { db, t } = await on(store);
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

/** First writer wins: a lock, once written, never changes. */
export async function insertLocks(store: Store, locks: readonly NewGradeLock[]): Promise<void> {
  return write(store, async (store) => {
    if (store.engine === 'sqlite') {
      const s = await sqliteOf(store);
      const cols = insertColumns(sqliteSchema.gradeLocks);
      const insert = prepared(s.sqlite, insertSql(sqliteSchema.gradeLocks, cols, ' on conflict do nothing'));
      for (const l of locks) insert.run(bindValues(cols, l));
      return;
    }
    await pgInsertRows(store, sqliteSchema.gradeLocks, locks, { suffix: ' on conflict do nothing' });
  });
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
