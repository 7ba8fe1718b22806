import { getRequestHeader } from 'h3';
import { AppError } from '../../errors.js';
import type { Readiness } from '../../domain/readiness.js';
import { readReadiness } from '../../reads/health.js';
import type { ServerDeps } from '../context.js';
import { INTERNAL_KEY_HEADER, internalKeyMatches } from '../internal-key.js';
import { defineRoute, type Route } from '../route.js';
import { healthAnswerSchema, readinessAnswerSchema } from '../wire/answers-ops.js';

/** A lock holder without its host (`pid:12@host` -> `pid:12`): host names stay off public answers. */
const withoutHost = (owner: string) => owner.replace(/@.*$/, '');

/** Readiness as a caller may see it: the credits and the holders' hosts only with the internal key. */
export function publicReadiness(r: Readiness, operator: boolean): Omit<Readiness, 'credits'> & { credits?: Readiness['credits'] } {
  if (operator) return r;
  const { credits: _credits, ...rest } = r;
  return { ...rest, locks: r.locks.map((l) => ({ ...l, owner: withoutHost(l.owner) })) };
}

/** A driver's error code worth naming (ECONNREFUSED, 57P01, SQLITE_CANTOPEN): letters, digits and `_` only, never a host or a URL. */
const ERROR_CODE = /^[A-Z0-9_]{2,40}$/;

/**
 * The store did not answer the readiness read (a PostgreSQL server down or unreachable, a file
 * gone): 503 with the reason, not 500. The reason names the error's code only; the driver's own
 * message (which may name the host and port) goes to the server log, never into the body.
 */
function unreachable(error: unknown, deps: ServerDeps): never {
  const code = (error as { code?: unknown } | null)?.code;
  const named = typeof code === 'string' && ERROR_CODE.test(code) ? ` (${code})` : '';
  deps.log?.warn(`readyz: the store did not answer: ${error instanceof Error ? error.message : String(error)}`);
  const reason = `the store is unreachable${named}`;
  throw new AppError('UNAVAILABLE', `not ready: ${reason}`, { details: { ready: false, reasons: [reason] } });
}

export function healthRoutes(deps: ServerDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      tag: 'operations',
      access: 'public',
      response: healthAnswerSchema,
      summary: 'Liveness: the process answers',
      description: 'No store work: 200 whenever the process can answer a request. For a load balancer or systemd watchdog.',
      handle: () => ({ status: 'ok' as const }),
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      tag: 'operations',
      access: 'public',
      response: readinessAnswerSchema,
      summary: 'Readiness: the store, its migrations and each sport’s freshness',
      description:
        `200 when ready: the store opens with its migrations current, some sport has a snapshot, and no live sport's newest snapshot is older than 3x SNAPSHOT_EXPECTED_INTERVAL on the wall clock (a replayed sport is ready as of its own snapshot). 503 in the error envelope otherwise, the reasons in \`details\`; a store that does not answer (a PostgreSQL server down) is a 503 too, \`details\` then \`{ready: false, reasons}\`. Also the last snapshot run and settle per sport and any run lock; with the ${INTERNAL_KEY_HEADER} header, the day's Odds API credits and the lock holders' hosts. Never cached.`,
      errors: [503],
      handle: async ({ event }) => {
        const operator = internalKeyMatches(deps.config.INTERNAL_API_KEY, getRequestHeader(event, INTERNAL_KEY_HEADER));
        const r = publicReadiness(await readReadiness(deps.store, deps.config, deps.wallNow()).catch((e: unknown) => unreachable(e, deps)), operator);
        if (!r.ready) throw new AppError('UNAVAILABLE', `not ready: ${r.reasons.join('; ')}`, { details: r });
        return r;
      },
    }),
  ];
}
