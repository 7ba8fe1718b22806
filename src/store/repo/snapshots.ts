import { and, desc, eq, lt, lte } from 'drizzle-orm';
import type { FairSource } from '../../domain/model/market.js';
import { propKeyOf } from '../../domain/prop-ref.js';
import type { Db } from '../db.js';
import { gradedRows, gradeLocks, snapshots } from '../schema.js';
import { bindValues, clientOf, columnList, columnsOf, insertColumns, insertSql, JsonText, mapRow, prepared } from './_raw.js';

export type Snapshot = typeof snapshots.$inferSelect;
export type GradedRowRecord = typeof gradedRows.$inferSelect;
export type NewGradedRow = Omit<typeof gradedRows.$inferInsert, 'id' | 'snapshotId'>;
export type GradeLock = typeof gradeLocks.$inferSelect;
export type NewGradeLock = Omit<typeof gradeLocks.$inferInsert, 'id'>;
/** A graded row as the snapshot run holds it; `lockedFairSource` (the lock's fair rule) goes to the ledger, not the row. */
export type SlateRow = NewGradedRow & { isMainLine: boolean; lockedFairSource: FairSource | null };

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

/** The newest snapshot of each sport (its time and where it came from), newest first: what the read clock decides on. */
export function newestSnapshotPerSport(db: Db): Array<{ sport: string; takenAt: string; source: string | null }> {
  const sql = `SELECT s.sport, s.taken_at AS takenAt, s.source FROM snapshots s
     WHERE s.id = (SELECT id FROM snapshots t WHERE t.sport = s.sport ORDER BY t.taken_at DESC, t.id DESC LIMIT 1)
     ORDER BY s.taken_at DESC, s.id DESC`;
  return prepared(clientOf(db), sql).all() as Array<{ sport: string; takenAt: string; source: string | null }>;
}

export function latestSnapshot(db: Db, sport: string): Snapshot | null {
  return recentSnapshots(db, sport, 1)[0] ?? null;
}

/** The newest snapshot of a sport's slate for an ET date taken at or before `atIso`. */
export function slateSnapshotAsOf(db: Db, sport: string, slateDate: string, atIso: string): Snapshot | null {
  return (
    db
      .select()
      .from(snapshots)
      .where(and(eq(snapshots.sport, sport), eq(snapshots.slateDate, slateDate), lte(snapshots.takenAt, atIso)))
      .orderBy(desc(snapshots.takenAt), desc(snapshots.id))
      .limit(1)
      .get() ?? null
  );
}

/** Every row of a snapshot, in the order of the (snapshot, event, player, stat, line, side) index. */
export function snapshotRows(db: Db, snapshotId: number): GradedRowRecord[] {
  const cols = columnsOf(gradedRows);
  const stmt = prepared(clientOf(db), `select ${columnList(cols)} from "graded_rows" where "snapshot_id" = ?`);
  return (stmt.raw(true).all(snapshotId) as unknown[][]).map((r) => mapRow<GradedRowRecord>(cols, r));
}

/** What the slate sorts and groups rows by (compareRows, the card, the game title). */
export type SortKeys = Pick<GradedRowRecord, 'id' | 'eventId' | 'commenceTime' | 'homeTeam' | 'awayTeam' | 'player' | 'playerKey' | 'statType' | 'line' | 'side' | 'grade' | 'evPct' | 'evNowPct' | 'edgeNow'>;

/** The sort keys of a snapshot's rows, in snapshotRows' order (the same query and index). */
export function snapshotSortKeys(db: Db, snapshotId: number): SortKeys[] {
  const stmt = prepared(
    clientOf(db),
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

/** Whole rows by id (as snapshotRows returns them), keyed by id. */
export function snapshotRowsById(db: Db, ids: readonly number[]): Map<number, GradedRowRecord> {
  const out = new Map<number, GradedRowRecord>();
  const cols = columnsOf(gradedRows);
  const CHUNK = 500;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const stmt = prepared(clientOf(db), `select ${columnList(cols)} from "graded_rows" where "id" in (${part.map(() => '?').join(', ')})`).raw(true);
    for (const raw of stmt.all(...part) as unknown[][]) {
      const r = mapRow<GradedRowRecord>(cols, raw);
      out.set(r.id, r);
    }
  }
  return out;
}

/** (event, player key, stat, line) of every main-line row of a snapshot: what line movement compares against. */
export function mainLineRows(db: Db, snapshotId: number): Array<{ eventId: string; playerKey: string; statType: string; line: number }> {
  const stmt = prepared(clientOf(db), `select "event_id", "player_key", "stat_type", "line" from "graded_rows" where "snapshot_id" = ? and "is_main_line" = 1`).raw(true);
  return (stmt.all(snapshotId) as Array<[string, string, string, number]>).map(([eventId, playerKey, statType, line]) => ({ eventId, playerKey, statType, line }));
}

/**
 * Writes a snapshot and its rows; the caller wraps this in the run's transaction. One prepared
 * INSERT per table, reused for every row (rows keep their order, so their ids too).
 */
export function insertSnapshot(db: Db, snapshot: Omit<typeof snapshots.$inferInsert, 'id'>, rows: readonly NewGradedRow[]): number {
  const client = clientOf(db);
  const snapCols = insertColumns(snapshots);
  const id = Number(prepared(client, insertSql(snapshots, snapCols)).run(bindValues(snapCols, snapshot)).lastInsertRowid);
  const rowCols = insertColumns(gradedRows);
  const insert = prepared(client, insertSql(gradedRows, rowCols));
  const snapshotId = { snapshotId: id };
  for (const r of rows) insert.run(bindValues(rowCols, r, snapshotId));
  return id;
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
export function lockedGrades(db: Db, eventIds: readonly string[]): Map<string, LockedGrade> {
  const out = new Map<string, LockedGrade>();
  const client = clientOf(db);
  const CHUNK = 500;
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

/** First writer wins: a lock, once written, never changes. */
export function insertLocks(db: Db, locks: readonly NewGradeLock[]): void {
  const cols = insertColumns(gradeLocks);
  const insert = prepared(clientOf(db), insertSql(gradeLocks, cols, ' on conflict do nothing'));
  for (const l of locks) insert.run(bindValues(cols, l));
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
