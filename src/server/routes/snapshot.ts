import { getRequestHeader } from 'h3';
import { z } from 'zod';
import { GRADED_SPORTS, gradedSportSchema } from '../../domain/sports.js';
import { lastSuccessfulRun } from '../../store/repo/runs.js';
import { latestSnapshot } from '../../store/repo/snapshots.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { acceptsGzip, etagMatches, type SnapshotCache } from '../snapshot-cache.js';
import { syncStatus } from '../../domain/sync-status.js';

export const sportParamsSchema = z.object({ sport: gradedSportSchema });

/** Clients poll the slate every 60 s (spec Limits). */
const SNAPSHOT_MAX_AGE = 60;

export function snapshotRoutes(deps: ServerDeps, cache: SnapshotCache): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/snapshot/summary',
      tag: 'snapshot',
      access: 'public',
      summary: 'Real graded count and last pipeline run, with sync status',
      description:
        'Reads the store only. sync_status compares the time since the last successful snapshot run with SNAPSHOT_EXPECTED_INTERVAL minutes: under 1.5x normal, 1.5x or more amber, 3x or more stale. Before any run: ran false, no time, no status.',
      maxAge: 30,
      handle: () => {
        const now = deps.now();
        const sports = GRADED_SPORTS.map((sport) => {
          const s = latestSnapshot(deps.store.db, sport);
          return s ? { sport, snapshot_id: s.id, taken_at: s.takenAt, slate_date: s.slateDate, graded: s.gradedCount, rows: s.rowCount } : null;
        }).filter((s) => s !== null);
        const run = lastSuccessfulRun(deps.store.db, 'snapshot');
        const lastRunAt = run?.finishedAt ?? null;
        const interval = deps.config.SNAPSHOT_EXPECTED_INTERVAL;
        return {
          ran: lastRunAt !== null,
          last_run_at: lastRunAt,
          last_run_sport: run?.sport ?? null,
          expected_interval_minutes: interval,
          sync_status: lastRunAt === null ? null : syncStatus(new Date(lastRunAt), now, interval),
          graded: sports.reduce((n, s) => n + s.graded, 0),
          sports,
          ...(lastRunAt === null ? { message: 'no snapshot run has completed yet' } : {}),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/snapshot/:sport',
      tag: 'snapshot',
      access: 'tier-shaped',
      summary: 'The latest snapshot of graded rows for a sport',
      description:
        'Cache only, never a provider. Serialized and gzipped once per stored snapshot and tier; gzip when Accept-Encoding allows it (Vary: Accept-Encoding). Strong ETag per representation (the gzip one ends in -gz); If-None-Match with either gets a 304. Free callers get rows without model_odds, p_win, ev_pct, value, takeable and with model_price_locked true.',
      params: sportParamsSchema,
      maxAge: SNAPSHOT_MAX_AGE,
      errors: [304],
      handle: ({ event, caller, params }) => {
        const entry = cache.get(params.sport, caller.tier);
        if (!entry) return { sport: params.sport, available: false, tier: caller.tier };
        const res = event.node.res;
        // Two representations live at this URL: every answer says so (304 too), or a shared
        // cache could hand gzip bytes to a client that never asked for them.
        res.appendHeader('vary', 'Accept-Encoding');
        const gzip = acceptsGzip(getRequestHeader(event, 'accept-encoding'));
        const chosen = gzip ? entry.gzip : entry.identity;
        const other = gzip ? entry.identity : entry.gzip;
        // Both decode to the same JSON, so either validator proves the client holds this
        // snapshot. The 304 names the one it holds, so its cache freshens that stored response.
        const ifNoneMatch = getRequestHeader(event, 'if-none-match');
        const held = [chosen, other].find((r) => etagMatches(ifNoneMatch, r.etag));
        if (held) {
          res.setHeader('etag', held.etag);
          res.statusCode = 304;
          res.end();
          return;
        }
        res.statusCode = 200;
        res.setHeader('etag', chosen.etag);
        res.setHeader('content-type', 'application/json; charset=utf-8');
        if (gzip) res.setHeader('content-encoding', 'gzip');
        res.setHeader('content-length', chosen.bytes.length);
        res.end(chosen.bytes);
        return;
      },
    }),
  ];
}
