import { and, desc, eq } from 'drizzle-orm';
import type { SportRunFacts } from '../../domain/readiness.js';
import type { Store } from '../db.js';
import { on } from './handle.js';
import { latestSnapshot } from './snapshots.js';

/** What readiness is decided on, read from the store in a few indexed look-ups per sport. */

async function lastRunOf(store: Store, kind: 'snapshot' | 'settle', sport: string): Promise<SportRunFacts['lastSnapshotRun']> {
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
  };
}

/**
 * On PostgreSQL a run lock is the advisory lock (repo/run-lock.ts); the run_locks row only names
 * its holder and stays behind a holder that crashed. So a row counts as held only while the server
 * shows that advisory lock granted (pg_locks shows a bigint key as classid = high half, objid = low).
 */
const HELD_ON_PG = `select l.name, l.owner, l.acquired_at as "acquiredAt", l.lease_until as "leaseUntil" from run_locks l
  where exists (select 1 from pg_locks k where k.locktype = 'advisory' and k.granted and k.objsubid = 1
    and k.database = (select oid from pg_database where datname = current_database())
    and k.classid = (case when hashtext('propgrade:run:' || l.name) < 0 then 4294967295 else 0 end)::oid
    and k.objid = (hashtext('propgrade:run:' || l.name)::bigint & 4294967295)::oid)
  order by l.name collate "C"`;

export async function heldRunLocks(store: Store): Promise<Array<{ name: string; owner: string; acquiredAt: string; leaseUntil: string }>> {
  if (store.engine === 'postgres') return (await (store.pg.client ?? store.pg.pool).query<{ name: string; owner: string; acquiredAt: string; leaseUntil: string }>(HELD_ON_PG)).rows;
  const { db, t } = await on(store);
  return db.select().from(t.runLocks).orderBy(t.runLocks.name);
}
