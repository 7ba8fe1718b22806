import { AppError } from '../../errors.js';
import { GRADED_SPORTS } from '../../domain/sports.js';
import type { ServerDeps } from '../context.js';
import { INTERNAL_KEY_HEADER } from '../internal-key.js';
import { defineRoute, type Route } from '../route.js';
import { sportParamsSchema } from './snapshot.js';
import { snapshotRunsSchema } from '../wire/answers-core.js';

/** What both routes say about a replayed store (snapshot-runner.ts). */
const ON_REPLAY =
  'On a replayed store (its newest snapshot came from a replay) without a replay folder (`serve --replay`, PROPGRADE_REPLAY): 503 UNAVAILABLE_ON_REPLAY, nothing runs and no provider is called, even with ODDS_API_KEY set.';

export function internalRoutes(deps: ServerDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/internal/snapshot/all',
      tag: 'internal',
      access: 'internal',
      response: snapshotRunsSchema,
      summary: 'Run the snapshot pipeline for every graded sport',
      description: `Needs the ${INTERNAL_KEY_HEADER} header (INTERNAL_API_KEY); wrong, missing or unconfigured: 401 and nothing runs. Same pipeline and per-sport lock as \`propgrade snapshot all\`. ${ON_REPLAY}`,
      errors: [401, 503],
      handle: async () => ({ runs: await deps.runSnapshots(GRADED_SPORTS) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/internal/snapshot/:sport',
      tag: 'internal',
      access: 'internal',
      response: snapshotRunsSchema,
      summary: 'Run the snapshot pipeline for one sport',
      description: `Needs the ${INTERNAL_KEY_HEADER} header. 409 when another run holds the sport's lock; a failed run answers 200 with status failed (the last snapshot is kept). ${ON_REPLAY}`,
      params: sportParamsSchema,
      errors: [401, 409, 503],
      handle: async ({ params }) => {
        const [run] = await deps.runSnapshots([params.sport]);
        if (run?.status === 'locked') throw new AppError('CONFLICT', run.message ?? `a ${params.sport} snapshot run holds the lock`);
        return { runs: run ? [run] : [] };
      },
    }),
  ];
}
