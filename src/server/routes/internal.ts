import { AppError } from '../../errors.js';
import { GRADED_SPORTS } from '../../domain/sports.js';
import type { ServerDeps } from '../context.js';
import { INTERNAL_KEY_HEADER } from '../internal-key.js';
import { defineRoute, type Route } from '../route.js';
import { sportParamsSchema } from './snapshot.js';
import { snapshotRunsSchema } from '../wire/answers-core.js';

export function internalRoutes(deps: ServerDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/internal/snapshot/all',
      tag: 'internal',
      access: 'internal',
      response: snapshotRunsSchema,
      summary: 'Run the snapshot pipeline for every graded sport',
      description: `Needs the ${INTERNAL_KEY_HEADER} header (INTERNAL_API_KEY); wrong, missing or unconfigured: 401 and nothing runs. Same pipeline and per-sport lock as \`propgrade snapshot all\`.`,
      errors: [401],
      handle: async () => ({ runs: await deps.runSnapshots(GRADED_SPORTS) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/internal/snapshot/:sport',
      tag: 'internal',
      access: 'internal',
      response: snapshotRunsSchema,
      summary: 'Run the snapshot pipeline for one sport',
      description: `Needs the ${INTERNAL_KEY_HEADER} header. 409 when another run holds the sport's lock; a failed run answers 200 with status failed (the last snapshot is kept).`,
      params: sportParamsSchema,
      errors: [401, 409],
      handle: async ({ params }) => {
        const [run] = await deps.runSnapshots([params.sport]);
        if (run?.status === 'locked') throw new AppError('CONFLICT', run.message ?? `a ${params.sport} snapshot run holds the lock`);
        return { runs: run ? [run] : [] };
      },
    }),
  ];
}
