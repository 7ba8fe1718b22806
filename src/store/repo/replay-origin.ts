import { desc } from 'drizzle-orm';
import type { Db } from '../db.js';
import { snapshots } from '../schema.js';
import { kvGet, kvSet } from './kv.js';

/**
 * Where a replayed store's data came from, so its context reads (news, live, stats, ...) answer
 * from the same recording instead of calling a provider (issue 33: a replayed store makes no
 * outbound request). A store is replayed when its newest snapshot was taken from a replay folder
 * (snapshots.source); the folder is remembered by the snapshot job that read it.
 */
export interface ReplayOrigin {
  /** The newest snapshot came from a replay folder. */
  replayed: boolean;
  /** The absolute folder the replayed snapshots were read from, when the job remembered it. */
  folder: string | null;
}

const FOLDER_KEY = 'meta:replay-folder';

export function replayOrigin(db: Db): ReplayOrigin {
  const row = db.select({ source: snapshots.source }).from(snapshots).orderBy(desc(snapshots.takenAt), desc(snapshots.id)).limit(1).get();
  if (row?.source !== 'replay') return { replayed: false, folder: null };
  const kept = kvGet<{ folder?: unknown }>(db, FOLDER_KEY, new Date(0));
  return { replayed: true, folder: typeof kept?.folder === 'string' ? kept.folder : null };
}

/** Called by a run that graded from `folder` (absolute); `at` is the run's data clock. */
export function rememberReplayFolder(db: Db, folder: string, at: Date): void {
  kvSet(db, FOLDER_KEY, { folder }, at, null);
}
