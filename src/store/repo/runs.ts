import { and, desc, eq } from 'drizzle-orm';
import type { Store } from '../db.js';
import type { pipelineRuns } from '../schema.js';
import { on, onWrite } from './handle.js';

export type PipelineRun = typeof pipelineRuns.$inferSelect;
type RunPatch = Partial<Omit<typeof pipelineRuns.$inferInsert, 'id' | 'kind' | 'sport' | 'startedAt'>>;

export async function startRun(store: Store, kind: PipelineRun['kind'], sport: string, startedAt: string): Promise<number> {
  return onWrite(store, async ({ db, t }) => {
    const [row] = await db.insert(t.pipelineRuns).values({ kind, sport, startedAt, status: 'running' }).returning({ id: t.pipelineRuns.id });
    return (row as { id: number }).id;
  });
}

export async function finishRun(store: Store, id: number, patch: RunPatch): Promise<void> {
  return onWrite(store, async ({ db, t }) => {
    await db.update(t.pipelineRuns).set(patch).where(eq(t.pipelineRuns.id, id));
  });
}

export async function lastRun(store: Store, kind: PipelineRun['kind'], sport?: string): Promise<PipelineRun | null> {
  const { db, t } = await on(store);
  const p = t.pipelineRuns;
  const where = sport ? and(eq(p.kind, kind), eq(p.sport, sport)) : eq(p.kind, kind);
  const [row] = await db.select().from(p).where(where).orderBy(desc(p.startedAt), desc(p.id)).limit(1);
  return row ?? null;
}

/** The newest successful run of a kind: what "last pipeline run" means to readers. */
export async function lastSuccessfulRun(store: Store, kind: PipelineRun['kind']): Promise<PipelineRun | null> {
  const { db, t } = await on(store);
  const p = t.pipelineRuns;
  const [row] = await db
    .select()
    .from(p)
    .where(and(eq(p.kind, kind), eq(p.status, 'ok')))
    .orderBy(desc(p.finishedAt), desc(p.id))
    .limit(1);
  return row ?? null;
}

export async function recentRuns(store: Store, limit = 20): Promise<PipelineRun[]> {
  const { db, t } = await on(store);
  return db.select().from(t.pipelineRuns).orderBy(desc(t.pipelineRuns.id)).limit(limit);
}
