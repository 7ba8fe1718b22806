import { and, desc, eq } from 'drizzle-orm';
import type { SportRunFacts } from '../../domain/readiness.js';
import type { Store } from '../db.js';
import { pipelineRuns, runLocks } from '../schema.js';
import { latestSnapshot } from './snapshots.js';

/** What readiness is decided on, read from the store in a few indexed look-ups per sport. */

function lastRunOf(store: Store, kind: 'snapshot' | 'settle', sport: string): SportRunFacts['lastSnapshotRun'] {
  const row = store.db
    .select({ startedAt: pipelineRuns.startedAt, finishedAt: pipelineRuns.finishedAt, status: pipelineRuns.status })
    .from(pipelineRuns)
    .where(and(eq(pipelineRuns.kind, kind), eq(pipelineRuns.sport, sport)))
    .orderBy(desc(pipelineRuns.startedAt), desc(pipelineRuns.id))
    .limit(1)
    .get();
  return row ?? null;
}

export function sportRunFacts(store: Store, sport: string): SportRunFacts {
  const snap = latestSnapshot(store.db, sport);
  return {
    sport,
    newestSnapshot: snap ? { takenAt: snap.takenAt, source: snap.source } : null,
    lastSnapshotRun: lastRunOf(store, 'snapshot', sport),
    lastSettleRun: lastRunOf(store, 'settle', sport),
  };
}

export function heldRunLocks(store: Store): Array<{ name: string; owner: string; acquiredAt: string; leaseUntil: string }> {
  return store.db.select().from(runLocks).orderBy(runLocks.name).all();
}
