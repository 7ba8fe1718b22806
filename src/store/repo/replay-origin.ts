import { desc } from 'drizzle-orm';
import { isAbsolute, relative, resolve } from 'node:path';
import { PACKAGE_ROOT, type Db } from '../db.js';
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
  return { replayed: true, folder: typeof kept?.folder === 'string' ? resolve(PACKAGE_ROOT, kept.folder) : null };
}

/**
 * Called by a run that graded from `folder`; `at` is the run's data clock. A folder inside
 * propgrade's own tree (the bundled data/replay) is kept relative to it, so the same run stores the
 * same bytes in every checkout; any other folder absolute.
 */
export function rememberReplayFolder(db: Db, folder: string, at: Date): void {
  const abs = resolve(folder);
  const rel = relative(PACKAGE_ROOT, abs);
  kvSet(db, FOLDER_KEY, { folder: rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel }, at, null);
}
