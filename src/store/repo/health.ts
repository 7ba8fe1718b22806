import { and, desc, eq } from 'drizzle-orm';
import type { SportRunFacts } from '../../domain/readiness.js';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import { on } from './handle.js';
import { latestSnapshot } from './snapshots.js';

/** What readiness is decided on, read from the store in a few indexed look-ups per sport. */

async function lastRunOf(store: Store, kind: 'snapshot' | 'settle' | 'close', sport: string): Promise<SportRunFacts['lastSnapshotRun']> {
  const { db, t } = await on(store);
  const p = t.pipelineRuns;
  const [row] = await db
    .select({ startedAt: p.startedAt, finishedAt: p.finishedAt, status: p.status })
    .from(p)
    .where(and(eq(p.kind, kind), eq(p.sport, sport)))
    .orderBy(desc(p.startedAt), desc(p.id))
    .limit(1);
  return row ?? null;
}

export async function sportRunFacts(store: Store, sport: string): Promise<SportRunFacts> {
  const snap = await latestSnapshot(store, sport);
  return {
    sport,
    newestSnapshot: snap ? { takenAt: snap.takenAt, source: snap.source } : null,
    lastSnapshotRun: await lastRunOf(store, 'snapshot', sport),
    lastSettleRun: await lastRunOf(store, 'settle', sport),
    lastCloseRun: await lastRunOf(store, 'close', sport),
  };
}

/** A run lock and its holder, as run_locks names them. */
export interface HeldRunLock {
  name: string;
  owner: string;
  acquiredAt: string;
  leaseUntil: string;
}

/** The run locks held now (on PostgreSQL, only those whose advisory lock the server shows granted; repo/run-lock.ts). */
export async function heldRunLocks(store: Store): Promise<HeldRunLock[]> {
  return opsOf(store).runs.heldRunLocks();
}
