import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db.js';
import { pipelineRuns } from '../schema.js';

export type PipelineRun = typeof pipelineRuns.$inferSelect;
type RunPatch = Partial<Omit<typeof pipelineRuns.$inferInsert, 'id' | 'kind' | 'sport' | 'startedAt'>>;

export function startRun(db: Db, kind: PipelineRun['kind'], sport: string, startedAt: string): number {
  const row = db.insert(pipelineRuns).values({ kind, sport, startedAt, status: 'running' }).returning({ id: pipelineRuns.id }).get();
  return row.id;
}

export function finishRun(db: Db, id: number, patch: RunPatch): void {
  db.update(pipelineRuns).set(patch).where(eq(pipelineRuns.id, id)).run();
}

export function lastRun(db: Db, kind: PipelineRun['kind'], sport?: string): PipelineRun | null {
  const where = sport ? and(eq(pipelineRuns.kind, kind), eq(pipelineRuns.sport, sport)) : eq(pipelineRuns.kind, kind);
  return db.select().from(pipelineRuns).where(where).orderBy(desc(pipelineRuns.startedAt), desc(pipelineRuns.id)).limit(1).get() ?? null;
}

/** The newest successful run of a kind: what "last pipeline run" means to readers. */
export function lastSuccessfulRun(db: Db, kind: PipelineRun['kind']): PipelineRun | null {
  return (
    db
      .select()
      .from(pipelineRuns)
      .where(and(eq(pipelineRuns.kind, kind), eq(pipelineRuns.status, 'ok')))
      .orderBy(desc(pipelineRuns.finishedAt), desc(pipelineRuns.id))
      .limit(1)
      .get() ?? null
  );
}

export function recentRuns(db: Db, limit = 20): PipelineRun[] {
  return db.select().from(pipelineRuns).orderBy(desc(pipelineRuns.id)).limit(limit).all();
}
