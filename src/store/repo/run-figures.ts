import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';

/** The runs' own figures as the cron processes recorded them (pipeline_runs), for GET /metrics. */
export interface RunFigures {
  kind: 'snapshot' | 'settle' | 'close';
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

/** The newest run of each job (kind and sport), whatever its outcome, by kind and sport. */
export async function newestRunPerJob(store: Store): Promise<RunFigures[]> {
  return opsOf(store).runs.newestRunPerJob();
}

/** When each job last succeeded (a run that graded, or found nothing to grade), by kind and sport. */
export async function lastSuccessPerJob(store: Store): Promise<Array<{ kind: string; sport: string; at: string }>> {
  return opsOf(store).runs.lastSuccessPerJob();
}
