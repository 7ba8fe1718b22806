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
 * changed since the last answer. On SQLite each call reads two counters:
 * - `total_changes()`: rows this connection has inserted, updated or deleted since it opened
 *   (the server's own snapshot runs, and any other write through this store). It reads no table,
 *   so it costs no read transaction.
 * - `PRAGMA data_version`: changes only when ANOTHER connection has committed (the cron in its
 *   own process, the CLI, another Store on the same file), never for this connection's commits.
 * If either moved, every remembered id is dropped and the query runs again; otherwise the
 * remembered id is the query's answer, since nothing has written to the file. The pragma takes
 * one read transaction like the query did, but no statement over the table: it halves the cost
 * of the lookup on each request (measured in docs/performance.md), and a snapshot committed by
 * any writer is seen by the very next request, as before. A transaction on this connection now
 * spans awaits, so the counters are read only once none is open (sqliteOf waits for the store's
 * writer): another caller's write, and the counter it moved, are seen after its commit, never
 * before, so no id read inside a transaction that then rolls back is remembered.
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
  const latest = store.sqlite.prepare(LATEST_ID).pluck();
  const ownChanges = store.sqlite.prepare('select total_changes()').pluck();
  const dataVersion = store.sqlite.prepare('pragma data_version').pluck();
  const known = new Map<string, number | undefined>();
  let seenChanges: unknown = null;
  let seenVersion: unknown = null;
  const s = store;
  return async (sport) => {
    // Waits only while another caller's transaction holds the connection (the common case awaits nothing).
    if (!s.inTransaction && s.writer.busy) await sqliteOf(s);
    // A transaction begun between the writer going idle and this line: wait for it to end too.
    while (!s.inTransaction && s.sqlite.inTransaction && s.writer.busy) await s.writer.idle();
    const changes = ownChanges.get();
    const version = dataVersion.get();
    if (changes !== seenChanges || version !== seenVersion) {
      known.clear();
      seenChanges = changes;
      seenVersion = version;
    } else if (known.has(sport)) {
      return known.get(sport);
    }
    const id = latest.get(sport) as number | undefined;
    known.set(sport, id);
    return id;
  };
}
