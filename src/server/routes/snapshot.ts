import type { H3Event } from 'h3';
import { z } from 'zod';
import { gradeSchema } from '../../domain/grades.js';
import { normalizeName } from '../../domain/names.js';
import { GRADED_SPORTS, gradedSportSchema } from '../../domain/sports.js';
import { parseStat, statSpellings } from '../../domain/stats.js';
import type { Tier } from '../../domain/tiers.js';
import { lastSuccessfulRun } from '../../store/repo/runs.js';
import { latestSnapshot } from '../../store/repo/snapshots.js';
import type { ServerDeps } from '../context.js';
import { requestHeader } from '../input.js';
import type { Replays } from '../replay.js';
import { defineRoute, type Route } from '../route.js';
import { acceptsGzip, etagMatches, viewCoding } from '../negotiate.js';
import type { EncodedBody, SnapshotCache, SnapshotView } from '../snapshot-cache.js';
import { syncStatus } from '../../domain/sync-status.js';
import { snapshotAnswerSchema, snapshotSummarySchema } from '../wire/answers-core.js';

export const sportParamsSchema = z.object({ sport: gradedSportSchema });

/**
 * The snapshot route's optional views (docs in the route description). No parameter (or
 * `view=full` alone) is the full snapshot, byte for byte as before.
 */
export const snapshotQuerySchema = z.object({
  view: z.enum(['full', 'card']).optional().describe('full (default): every row; card: at most 6 graded props per game, one per player and stat, sorted A+ to F'),
  game: z.string().trim().min(1).max(200).optional().describe('an event id: that game only'),
  player: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine((p) => normalizeName(p).key !== '', 'not a player name')
    .optional()
    .describe('a player name, matched by its normalized key ("Jalen Brunson", "jalen brunson")'),
  stat: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined) return undefined;
      const stat = parseStat(s);
      if (stat === null) ctx.addIssue({ code: 'custom', message: `unknown stat '${s}'` });
      return stat ?? undefined;
    })
    .meta({ enum: statSpellings() })
    .describe('a stat (points, rebounds, threes, pra, ... or an Odds API market key; case, spaces and hyphens ignored)'),
  min_grade: z
    // A '+' in a query string reads as a space: "min_grade=A+" arrives as "A ".
    .preprocess((v) => (v === 'A ' ? 'A+' : v), gradeSchema)
    .optional()
    .describe('graded at least this letter (A+, A, B, C, F; write A+ as A%2B); refusals are left out'),
  main: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1')
    .describe('true: main lines only (no alternate rungs)'),
});
type SnapshotQuery = z.infer<typeof snapshotQuerySchema>;

/**
 * The view of each query object already seen. The route keeps its parsed query per URL
 * (inputPerUrl), so a polled URL hands the same frozen query back and its view, player key
 * included, is worked out once; the view object is then also what the cache keys its bytes by.
 */
const viewsByQuery = new WeakMap<SnapshotQuery, SnapshotView | null>();

function viewFor(q: SnapshotQuery): SnapshotView | null {
  let view = viewsByQuery.get(q);
  if (view === undefined) {
    view = viewOf(q);
    viewsByQuery.set(q, view && Object.freeze(view));
  }
  return view;
}

/** The view a query asks for, or null for the full snapshot (the seed route's answer). */
function viewOf(q: SnapshotQuery): SnapshotView | null {
  const filtered = q.game !== undefined || q.player !== undefined || q.stat !== undefined || q.min_grade !== undefined || q.main === true;
  if (!filtered && (q.view ?? 'full') === 'full') return null;
  return {
    view: q.view ?? 'full',
    ...(q.game !== undefined ? { game: q.game } : {}),
    ...(q.player !== undefined ? { player: q.player, playerKey: normalizeName(q.player).key } : {}),
    ...(q.stat !== undefined ? { stat: q.stat } : {}),
    ...(q.min_grade !== undefined ? { minGrade: q.min_grade } : {}),
    ...(q.main === true ? { mainOnly: true } : {}),
  };
}

/** Answers a view: brotli preferred where accepted, then gzip, then plain; each with its own strong ETag. */
async function sendView(event: H3Event, cache: SnapshotCache, replays: Replays, sport: string, tier: Tier, view: SnapshotView) {
  const entry = await cache.view(sport, tier, view);
  if (!entry) return { sport, available: false, tier };
  const res = event.node.res;
  res.appendHeader('vary', 'Accept-Encoding');
  const coding = viewCoding(requestHeader(event, 'accept-encoding'));
  const ifNoneMatch = requestHeader(event, 'if-none-match');
  const held =
    ifNoneMatch === undefined
      ? undefined
      : [entry.etags[coding === 'br' ? 'brotli' : coding === 'gzip' ? 'gzip' : 'identity'], entry.etags.identity, entry.etags.gzip, entry.etags.brotli].find((t) => etagMatches(ifNoneMatch, t));
  // The same answer again while the cache hands out this view (replay.ts): anonymous polls.
  const keep = replays.accepts(event.node.req);
  if (held) {
    res.setHeader('etag', held);
    res.statusCode = 304;
    res.end();
    if (keep) replays.offer(event, undefined, async () => (await cache.view(sport, tier, view)) === entry, entry);
    return;
  }
  const chosen: EncodedBody = coding === 'br' ? entry.brotli() : coding === 'gzip' ? entry.gzip() : entry.identity;
  res.statusCode = 200;
  res.setHeader('etag', chosen.etag);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  if (coding !== 'identity') res.setHeader('content-encoding', coding);
  res.setHeader('content-length', chosen.bytes.length);
  res.end(chosen.bytes);
  if (keep) replays.offer(event, chosen.bytes, async () => (await cache.view(sport, tier, view)) === entry, entry);
  return;
}

/** Clients poll the slate every 60 s (spec Limits). */
const SNAPSHOT_MAX_AGE = 60;

export function snapshotRoutes(deps: ServerDeps, cache: SnapshotCache, replays: Replays): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/snapshot/summary',
      tag: 'snapshot',
      access: 'public',
      response: snapshotSummarySchema,
      summary: 'Real graded count and last pipeline run, with sync status',
      description:
        'Reads the store only. sync_status compares the time since the last successful snapshot run with SNAPSHOT_EXPECTED_INTERVAL minutes: under 1.5x normal, 1.5x or more amber, 3x or more stale. Before any run: ran false, no time, no status.',
      maxAge: 30,
      handle: async () => {
        const now = deps.now();
        const [latest, run] = await Promise.all([Promise.all(GRADED_SPORTS.map((sport) => latestSnapshot(deps.store, sport))), lastSuccessfulRun(deps.store, 'snapshot')]);
        const sports = GRADED_SPORTS.map((sport, i) => {
          const s = latest[i];
          return s ? { sport, snapshotId: s.id, takenAt: s.takenAt, slateDate: s.slateDate, graded: s.gradedCount, rows: s.rowCount } : null;
        }).filter((s) => s !== null);
        const lastRunAt = run?.finishedAt ?? null;
        const interval = deps.config.SNAPSHOT_EXPECTED_INTERVAL;
        return {
          ran: lastRunAt !== null,
          lastRunAt,
          lastRunSport: run?.sport ?? null,
          expectedIntervalMinutes: interval,
          syncStatus: lastRunAt === null ? null : syncStatus(new Date(lastRunAt), now, interval),
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
      response: snapshotAnswerSchema,
      summary: 'The latest snapshot of graded rows for a sport',
      description:
        'Cache only, never a provider. Serialized and gzipped once per stored snapshot and tier; gzip when Accept-Encoding allows it (Vary: Accept-Encoding). Strong ETag per representation (the gzip one ends in -gz); If-None-Match with either gets a 304. Free callers get rows without the projection view (projection_prob, projection_odds, projection_ev_pct, projection_record) and with model_price_locked true. ' +
        'Views (optional query): view=card gives the slate card (at most 6 graded props per game, one per player and stat, A+ to F, with hidden = graded rows not shown); game, player, stat, min_grade and main=true keep only matching rows (any combination, with either view). A view answers in brotli when Accept-Encoding takes br at least as much as gzip, else gzip, else plain; its ETags end in -br / -gz; it carries view and filters in the body. Without parameters (or view=full alone) the answer is the full snapshot, unchanged.',
      params: sportParamsSchema,
      query: snapshotQuerySchema,
      maxAge: SNAPSHOT_MAX_AGE,
      errors: [304],
      // Clients poll a few URLs every 60 s; the schemas above are pure and the handler only reads.
      inputPerUrl: true,
      handle: async ({ event, caller, params, query }) => {
        const view = viewFor(query);
        if (view) return sendView(event, cache, replays, params.sport, caller.tier, view);
        const entry = await cache.get(params.sport, caller.tier);
        if (!entry) return { sport: params.sport, available: false, tier: caller.tier };
        const res = event.node.res;
        // Two representations live at this URL: every answer says so (304 too), or a shared
        // cache could hand gzip bytes to a client that never asked for them.
        res.appendHeader('vary', 'Accept-Encoding');
        const gzip = acceptsGzip(requestHeader(event, 'accept-encoding'));
        const chosen = gzip ? entry.gzip : entry.identity;
        const other = gzip ? entry.identity : entry.gzip;
        // Both decode to the same JSON, so either validator proves the client holds this
        // snapshot. The 304 names the one it holds, so its cache freshens that stored response.
        const ifNoneMatch = requestHeader(event, 'if-none-match');
        const held = ifNoneMatch === undefined ? undefined : [chosen, other].find((r) => etagMatches(ifNoneMatch, r.etag));
        // The same answer again while the cache hands out this entry (replay.ts): anonymous polls.
        const keep = replays.accepts(event.node.req);
        if (held) {
          res.setHeader('etag', held.etag);
          res.statusCode = 304;
          res.end();
          if (keep) replays.offer(event, undefined, async () => (await cache.get(params.sport, caller.tier)) === entry, entry);
          return;
        }
        res.statusCode = 200;
        res.setHeader('etag', chosen.etag);
        res.setHeader('content-type', 'application/json; charset=utf-8');
        if (gzip) res.setHeader('content-encoding', 'gzip');
        res.setHeader('content-length', chosen.bytes.length);
        res.end(chosen.bytes);
        if (keep) replays.offer(event, chosen.bytes, async () => (await cache.get(params.sport, caller.tier)) === entry, entry);
        return;
      },
    }),
  ];
}
