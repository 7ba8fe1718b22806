import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';

/** What the snapshot route's envelope says of a snapshot (GET /api/snapshot/{sport}). */
export interface SnapshotHead {
  id: number;
  takenAt: string;
  slateDate: string;
  gradedCount: number;
  rowCount: number;
}

/** A snapshot's head by id, or null when there is none. */
export async function snapshotHeadById(store: Store, id: number): Promise<SnapshotHead | null> {
  return opsOf(store).snapshots.snapshotHeadById(id);
}

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
  return opsOf(store).snapshots.latestSnapshotWatcher();
}
