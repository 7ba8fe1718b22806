import { inArray, sql } from 'drizzle-orm';
import type { Store } from '../db.js';
import { prepared } from './_raw.js';
import { on, sqliteOf } from './handle.js';

/** The runs' own figures as the cron processes recorded them (pipeline_runs), for GET /metrics. */
export interface RunFigures {
  kind: 'snapshot' | 'settle';
  sport: string;
  status: string;
  startedAt: string;
  finishedAt: string | null;
  eventsCount: number | null;
  gradedCount: number | null;
  refusedCount: number | null;
  droppedCount: number | null;
  settledCount: number | null;
  /** Rows of the snapshot the run wrote, when it wrote one. */
  rowCount: number | null;
}

const NEWEST_PER_JOB = `
  select p.kind, p.sport, p.status, p.started_at as startedAt, p.finished_at as finishedAt,
         p.events_count as eventsCount, p.graded_count as gradedCount, p.refused_count as refusedCount,
         p.dropped_count as droppedCount, p.settled_count as settledCount,
         (select s.row_count from snapshots s where s.run_id = p.id order by s.id desc limit 1) as rowCount
  from pipeline_runs p
  where p.id = (select q.id from pipeline_runs q where q.kind = p.kind and q.sport = p.sport order by q.started_at desc, q.id desc limit 1)
  order by p.kind, p.sport`;

const LAST_SUCCESS = `
  select kind, sport, max(coalesce(finished_at, started_at)) as at
  from pipeline_runs where status in ('ok', 'empty') group by kind, sport order by kind, sport`;

/** The newest run of each job (kind and sport), whatever its outcome. */
export async function newestRunPerJob(store: Store): Promise<RunFigures[]> {
  if (store.engine === 'sqlite') return prepared((await sqliteOf(store)).sqlite, NEWEST_PER_JOB).all() as RunFigures[];
  // The same query through the builder (PostgreSQL folds unquoted aliases to lower case).
  const { db, t } = await on(store);
  const p = t.pipelineRuns;
  return db
    .select({
      kind: p.kind,
      sport: p.sport,
      status: p.status,
      startedAt: p.startedAt,
      finishedAt: p.finishedAt,
      eventsCount: p.eventsCount,
      gradedCount: p.gradedCount,
      refusedCount: p.refusedCount,
      droppedCount: p.droppedCount,
      settledCount: p.settledCount,
      rowCount: sql<number | null>`(select s.row_count from snapshots s where s.run_id = "pipeline_runs"."id" order by s.id desc limit 1)`.mapWith(Number),
    })
    .from(p)
    .where(sql`${p.id} = (select q.id from pipeline_runs q where q.kind = ${p.kind} and q.sport = ${p.sport} order by q.started_at desc, q.id desc limit 1)`)
    .orderBy(sql`${p.kind} collate "C"`, sql`${p.sport} collate "C"`);
}

/** When each job last succeeded (a run that graded, or found nothing to grade). */
export async function lastSuccessPerJob(store: Store): Promise<Array<{ kind: string; sport: string; at: string }>> {
  if (store.engine === 'sqlite') return prepared((await sqliteOf(store)).sqlite, LAST_SUCCESS).all() as Array<{ kind: string; sport: string; at: string }>;
  const { db, t } = await on(store);
  const p = t.pipelineRuns;
  return db
    .select({ kind: p.kind, sport: p.sport, at: sql<string>`max(coalesce(${p.finishedAt}, ${p.startedAt}))` })
    .from(p)
    .where(inArray(p.status, ['ok', 'empty']))
    .groupBy(p.kind, p.sport)
    .orderBy(sql`${p.kind} collate "C"`, sql`${p.sport} collate "C"`);
}
