import { propKeyOf as lockKey } from '../../../domain/prop-ref.js';
import { bindValues, columnList, columnsOf, insertColumns, JsonText, mapRow } from '../../_columns.js';
import type { SnapshotOps } from '../../engine-ops.js';
import type { SnapshotHead } from '../../repo/snapshot-watch.js';
import type { GradedRowRecord, GradeLock, LockedGrade, NewGradedRow, NewGradeLock, NewSnapshot, SortKeys } from '../../repo/snapshots.js';
import * as sqliteSchema from '../../schema.js';
import type { SqliteStore } from '../../store.js';
import { insertSql, prepared } from '../_raw.js';

/** Ids or event ids per IN list (SQLite caps bound parameters). */
const CHUNK = 500;

const fieldOf = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

const HEAD_BY_ID = 'select id, taken_at as takenAt, slate_date as slateDate, graded_count as gradedCount, row_count as rowCount from snapshots where id = ?';
const LATEST_ID = 'select id from snapshots where sport = ? order by taken_at desc, id desc limit 1';

/** Snapshot rows and grade locks through prepared statements; rows come back in index order without a sort. */
export class SqliteSnapshotOps implements SnapshotOps {
  constructor(private readonly store: SqliteStore) {}

  async newestSnapshotPerSport(): Promise<Array<{ sport: string; takenAt: string; source: string | null }>> {
    const s = this.store.conn;
    const text = `SELECT s.sport, s.taken_at AS takenAt, s.source FROM snapshots s
     WHERE s.id = (SELECT id FROM snapshots t WHERE t.sport = s.sport ORDER BY t.taken_at DESC, t.id DESC LIMIT 1)
     ORDER BY s.taken_at DESC, s.id DESC`;
    return prepared(s.sqlite, text).all() as Array<{ sport: string; takenAt: string; source: string | null }>;
  }

  async snapshotRows(snapshotId: number): Promise<GradedRowRecord[]> {
    const s = this.store.conn;
    const cols = columnsOf(sqliteSchema.gradedRows);
    const stmt = prepared(s.sqlite, `select ${columnList(cols)} from "graded_rows" where "snapshot_id" = ?`);
    return (stmt.raw(true).all(snapshotId) as unknown[][]).map((r) => mapRow<GradedRowRecord>(cols, r));
  }

  async snapshotSortKeys(snapshotId: number): Promise<SortKeys[]> {
    const s = this.store.conn;
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

  async snapshotRowsById(ids: readonly number[]): Promise<Map<number, GradedRowRecord>> {
    const out = new Map<number, GradedRowRecord>();
    const s = this.store.conn;
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

  async mainLineRows(snapshotId: number): Promise<Array<{ eventId: string; playerKey: string; statType: string; line: number }>> {
    const s = this.store.conn;
    const stmt = prepared(s.sqlite, `select "event_id", "player_key", "stat_type", "line" from "graded_rows" where "snapshot_id" = ? and "is_main_line" = 1`).raw(true);
    return (stmt.all(snapshotId) as Array<[string, string, string, number]>).map(([eventId, playerKey, statType, line]) => ({ eventId, playerKey, statType, line }));
  }

  /** One prepared INSERT per table, reused for every row (rows keep their order, so their ids too). */
  async insertSnapshot(snapshot: NewSnapshot, rows: readonly NewGradedRow[]): Promise<number> {
    const { sqlite: client } = this.store.conn;
    const snapCols = insertColumns(sqliteSchema.snapshots);
    const id = Number(prepared(client, insertSql(sqliteSchema.snapshots, snapCols)).run(bindValues(snapCols, snapshot)).lastInsertRowid);
    const rowCols = insertColumns(sqliteSchema.gradedRows);
    const insert = prepared(client, insertSql(sqliteSchema.gradedRows, rowCols));
    const snapshotId = { snapshotId: id };
    for (const r of rows) insert.run(bindValues(rowCols, r, snapshotId));
    return id;
  }

  /** The detail fields are read by SQLite, each as the JSON text of its value (`->`, the literal as stored), parsed here. */
  async lockedGrades(eventIds: readonly string[]): Promise<Map<string, LockedGrade>> {
    const out = new Map<string, LockedGrade>();
    const { sqlite: client } = this.store.conn;
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

  async insertLocks(locks: readonly NewGradeLock[]): Promise<void> {
    const s = this.store.conn;
    const cols = insertColumns(sqliteSchema.gradeLocks);
    const insert = prepared(s.sqlite, insertSql(sqliteSchema.gradeLocks, cols, ' on conflict do nothing'));
    for (const l of locks) insert.run(bindValues(cols, l));
  }

  async snapshotHeadById(id: number): Promise<SnapshotHead | null> {
    return (prepared(this.store.conn.sqlite, HEAD_BY_ID).get(id) as SnapshotHead | undefined) ?? null;
  }

  /**
   * On the read-only connection, whose `PRAGMA data_version` moves whenever any other connection
   * commits (repo/snapshot-watch.ts says why that is enough).
   */
  latestSnapshotWatcher(): (sport: string) => Promise<number | undefined> {
    const reader = this.store.conn.sqlite;
    const latest = reader.prepare(LATEST_ID).pluck();
    const dataVersion = reader.prepare('pragma data_version').pluck();
    const known = new Map<string, number | undefined>();
    let seenVersion: unknown = null;
    return async (sport) => {
      const version = dataVersion.get();
      if (version !== seenVersion) {
        known.clear();
        seenVersion = version;
      } else if (known.has(sport)) {
        return known.get(sport);
      }
      const id = latest.get(sport) as number | undefined;
      known.set(sport, id);
      return id;
    };
  }
}
