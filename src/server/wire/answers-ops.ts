import { z } from 'zod';
import { int, wireInstant, wireSchema } from './registry.js';

/** The operator's answers: liveness and readiness (docs/operations.md). */

export const healthAnswerSchema = wireSchema('Health', z.object({ status: z.literal('ok') }));

const lastRun = z.object({ at: wireInstant(), status: z.string() }).nullable();

export const readinessAnswerSchema = wireSchema(
  'Readiness',
  z.object({
    ready: z.boolean(),
    reasons: z.array(z.string()).describe('why not ready; empty when ready'),
    warnings: z.array(z.string()),
    migrations: z.object({ current: z.boolean(), pending: z.array(z.string()) }),
    sports: z.array(
      z.object({
        sport: z.string(),
        state: z.enum(['normal', 'amber', 'stale', 'replayed', 'never_run']),
        newest_snapshot_at: wireInstant().nullable(),
        age_minutes: int().nullable().describe('minutes since the newest snapshot on the clock the sport is read by (0 for a replayed sport)'),
        clock: z.enum(['replay_snapshot', 'wall']).nullable(),
        last_run: lastRun,
        last_settle: lastRun,
        last_close: lastRun.describe('the newest close-capture run (propgrade close), at its data clock; null where none ran'),
      }),
    ),
    locks: z.array(z.object({ name: z.string(), owner: z.string().describe('the holder; its host only with the internal key'), since: wireInstant(), lease_until: wireInstant(), expired: z.boolean() })),
    credits: z
      .object({ spent_today: int(), daily_budget: int().nullable(), left_today: int().nullable() })
      .optional()
      .describe('Odds API credits of the wall-clock ET day; only with the internal key'),
  }),
);
