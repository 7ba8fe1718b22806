import type { Store } from '../store/db.js';
import { snapshotRows, type GradedRowRecord } from '../store/repo/snapshots.js';
import { storeMemo } from './memo.js';

/**
 * Every row of a stored snapshot, read once per process and snapshot (issue 40). A snapshot's rows
 * are written with it in one transaction and never change, so its id is their version: the
 * snapshot body, its views, the schedule routes, live tracking and a player's props all read the
 * same 4,808 rows of the bundled NBA slate, which cost 60-100 ms of event-loop CPU per read on
 * SQLite. The rows are shared: callers must not change them (each builds its own lists).
 * Bounded: the latest snapshot of each sport, and a few older ones (live tracking reads the slate
 * of the day asked for).
 */
const SNAPSHOTS_KEPT = 6;

const rows = storeMemo<readonly GradedRowRecord[]>(SNAPSHOTS_KEPT);

export function rowsOfSnapshot(store: Store, snapshotId: number): Promise<readonly GradedRowRecord[]> {
  return rows.get(store, String(snapshotId), () => snapshotRows(store, snapshotId));
}

/** Whether the rows of `snapshotId` are already held (a test checks that preparing a snapshot read them). */
export function snapshotRowsKept(store: Store, snapshotId: number): boolean {
  return rows.peek(store, String(snapshotId)) !== undefined;
}

/** How many snapshots' rows were read for `store` (a test checks each is read once). */
export const snapshotRowsReads = (store: Store): number => rows.stats(store).computed;
