import { integer, json, text } from './column.js';
import { index, table } from './table.js';

/** The run log, the cross-process run lock and the key-value cache: the pipeline's own bookkeeping. */

/** One row per scheduled or manual run of a pipeline (snapshot, settle, close), the run log. */
export const pipelineRuns = table(
  'pipeline_runs',
  {
    id: integer('id').identity(),
    // A TypeScript type only (no CHECK on either engine): 'close' needed no migration.
    kind: text('kind', { enum: ['snapshot', 'settle', 'close'] }).notNull(),
    sport: text('sport').notNull(),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
    status: text('status', { enum: ['running', 'ok', 'empty', 'failed'] }).notNull(),
    /** Slate date (ET) the run was pinned to. */
    slateDate: text('slate_date'),
    eventsCount: integer('events_count'),
    gradedCount: integer('graded_count'),
    refusedCount: integer('refused_count'),
    droppedCount: integer('dropped_count'),
    settledCount: integer('settled_count'),
    creditsUsed: integer('credits_used'),
    creditsRemaining: integer('credits_remaining'),
    message: text('message'),
    details: json('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('pipeline_runs_kind_sport_started').on(t.kind, t.sport, t.startedAt)],
);

/** Key-value cache with expiry, for the TTL caches of the spec's Limits table and for meta. */
export const kvCache = table('kv_cache', {
  key: text('key').primaryKey(),
  value: json('value').notNull(),
  updatedAt: text('updated_at').notNull(),
  expiresAt: text('expires_at'),
});

/** Cross-process run lock: one snapshot/settle run per sport at a time. Leases expire. */
export const runLocks = table('run_locks', {
  name: text('name').primaryKey(),
  owner: text('owner').notNull(),
  acquiredAt: text('acquired_at').notNull(),
  leaseUntil: text('lease_until').notNull(),
});
