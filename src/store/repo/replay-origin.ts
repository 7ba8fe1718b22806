import { desc } from 'drizzle-orm';
import { isAbsolute, relative, resolve } from 'node:path';
import { PACKAGE_ROOT, type Store } from '../db.js';
import { on } from './handle.js';
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

export async function replayOrigin(store: Store): Promise<ReplayOrigin> {
  const { db, t } = await on(store);
  const [row] = await db.select({ source: t.snapshots.source }).from(t.snapshots).orderBy(desc(t.snapshots.takenAt), desc(t.snapshots.id)).limit(1);
  if (row?.source !== 'replay') return { replayed: false, folder: null };
  const kept = await kvGet<{ folder?: unknown }>(store, FOLDER_KEY, new Date(0));
  return { replayed: true, folder: typeof kept?.folder === 'string' ? resolve(PACKAGE_ROOT, kept.folder) : null };
}

/**
 * Called by a run that graded from `folder`; `at` is the run's data clock. A folder inside
 * propgrade's own tree (the bundled data/replay) is kept relative to it, so the same run stores the
 * same bytes in every checkout; any other folder absolute.
 */
export async function rememberReplayFolder(store: Store, folder: string, at: Date): Promise<void> {
  const abs = resolve(folder);
  const rel = relative(PACKAGE_ROOT, abs);
  await kvSet(store, FOLDER_KEY, { folder: rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel }, at, null);
}
