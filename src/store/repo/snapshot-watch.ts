import { desc, eq } from 'drizzle-orm';
import type { Store } from '../db.js';
import { prepared } from './_raw.js';
import { on, sqliteOf } from './handle.js';

/** What the snapshot route's envelope says of a snapshot (GET /api/snapshot/{sport}). */
export interface SnapshotHead {
  id: number;
  takenAt: string;
  slateDate: string;
  gradedCount: number;
  rowCount: number;
}

const HEAD_BY_ID = 'select id, taken_at as takenAt, slate_date as slateDate, graded_count as gradedCount, row_count as rowCount from snapshots where id = ?';

/** A snapshot's head by id, or null when there is none. */
export async function snapshotHeadById(store: Store, id: number): Promise<SnapshotHead | null> {
  if (store.engine === 'sqlite') return (prepared((await sqliteOf(store)).sqlite, HEAD_BY_ID).get(id) as SnapshotHead | undefined) ?? null;
  const { db, t } = await on(store);
  const s = t.snapshots;
  const [row] = await db
    .select({ id: s.id, takenAt: s.takenAt, slateDate: s.slateDate, gradedCount: s.gradedCount, rowCount: s.rowCount })
    .from(s)
    .where(eq(s.id, id))
    .limit(1);
  return (row as SnapshotHead | undefined) ?? null;
}

const LATEST_ID = 'select id from snapshots where sport = ? order by taken_at desc, id desc limit 1';

/**
 * The latest snapshot id of a sport, as `select id from snapshots where sport = ? order by
 * taken_at desc, id desc limit 1` answers it, asked of the store only when the store may have
 * changed since the last answer. On SQLite it runs on the read-only connection, whose
 * `PRAGMA data_version` moves whenever any other connection commits: this store's own writer (the
 * server's in-process runs), the cron in its own process, the CLI. If it moved, every remembered id
 * is dropped and the query runs again; otherwise the remembered id is the query's answer, since
 * nothing has been committed to the file. The pragma takes one read transaction like the query did,
 * but no statement over the table: it halves the cost of the lookup on each request (measured in
 * docs/performance.md). A transaction still open on the writer moves nothing, so no id it wrote is
 * seen, or remembered, before it commits.
 *
 * PostgreSQL has no data_version, nor a cheap counter of other sessions' commits, so there each call
 * runs the latest-id query itself (one index probe on snapshots_sport_taken).
 */
export function latestSnapshotWatcher(store: Store): (sport: string) => Promise<number | undefined> {
  if (store.engine !== 'sqlite') {
    return async (sport) => {
      const { db, t } = await on(store);
      const [row] = await db.select({ id: t.snapshots.id }).from(t.snapshots).where(eq(t.snapshots.sport, sport)).orderBy(desc(t.snapshots.takenAt), desc(t.snapshots.id)).limit(1);
      return row?.id;
    };
  }
  const reader = store.conn.sqlite;
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
