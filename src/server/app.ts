import { createApp as createH3App, createRouter, eventHandler, type App, type AppOptions, type EventHandler, type H3Event } from 'h3';
import type { RequestListener } from 'node:http';
import type { Env } from '../config.js';
import type { Transport } from '../feeds/transport/types.js';
import type { SlipReaderOptions } from '../slips/ocr.js';
import type { Store } from '../store/db.js';
import { DEFAULT_LIMITS, type ServerDeps, type ServerLimits, type SnapshotRunner } from './context.js';
import { corsFor } from './cors.js';
import { proxySettingsWarning } from './client-address.js';
import { syncDispatch } from './dispatch.js';
import { isPlainPath, loggedPath } from './paths.js';
import { sendErrorReply, toErrorReply } from './envelope.js';
import { allowOf, optionsAllow, unmatched } from './allow.js';
import { encodedOnce, sendNegotiated } from './compress.js';
import { buildOpenApi, describeMetricsRoute } from './openapi.js';
import { createMetrics, type Metrics } from './metrics.js';
import { metricsHandler } from './metrics-route.js';
import { createRateLimiter, createSharedRateLimiter } from './rate-limit.js';
import { sharedAcrossServers } from '../store/repo/rate-windows.js';
import { Replays } from './replay.js';
import type { Route } from './route.js';
import { accountRoutes } from './routes/accounts.js';
import { boardRoutes } from './routes/board.js';
import { contentRoutes } from './routes/content.js';
import { contextRoutes } from './routes/context.js';
import { healthRoutes } from './routes/health.js';
import { internalRoutes } from './routes/internal.js';
import { ledgerRoutes } from './routes/ledger.js';
import { playerRoutes } from './routes/players.js';
import { readRoutes } from './routes/reads.js';
import { scheduleRoutes } from './routes/schedule.js';
import { describeSlipRoute, SharedSlipReader, slipRoutes } from './routes/slips.js';
import { snapshotRoutes } from './routes/snapshot.js';
import { statsRoutes } from './routes/stats.js';
import { teamRoutes } from './routes/team.js';
import { createSnapshotCache, type SnapshotCache } from './snapshot-cache.js';
import { registerStaticPaths, staticPathsOf } from './static-paths.js';
import { createSnapshotRunner, snapshotRunClock } from './snapshot-runner.js';

export const API_VERSION = '0.1.0';

export interface CreateAppOptions {
  store: Store;
  config: Env;
  /** The data clock: what the data says (--now, PROPGRADE_NOW, a replayed store's newest snapshot). Tests pin it. */
  now?: (sport?: string) => Date;
  /** The wall clock: limits, accounts, money, security (context.ts ServerDeps). Defaults to the system clock; tests inject it. */
  wallClock?: () => Date;
  /**
   * The data clock of the snapshot runs the internal routes and the cron make: an explicit --now /
   * PROPGRADE_NOW when given. Otherwise a run over a recording (PROPGRADE_REPLAY) runs at `now`, and
   * a live run at the wall clock: a store read as of its newest replayed snapshot must not stamp a
   * new live run with that recorded time.
   */
  runNow?: () => Date;
  /** Runs snapshots for the internal routes and the cron; defaults to the CLI's pipeline. */
  runSnapshot?: SnapshotRunner;
  limits?: Partial<ServerLimits>;
  log?: { info(message: string): void; warn(message: string): void };
  /** Options of the one OCR worker behind POST /api/slips/parse (started on the first image). */
  slipReader?: SlipReaderOptions;
  /**
   * The transport the context routes' live reads go through (tests inject one that fails on any
   * call); default undici over the network. A replayed store never reaches it (feeds/context.ts).
   */
  transport?: Transport;
}

export interface ServerApp {
  app: App;
  /** node:http listener (listhen or http.createServer). */
  listener: RequestListener;
  routes: readonly Route[];
  snapshotCache: SnapshotCache;
  /** Answers kept for replay (the snapshot route's), and how many requests they answered. */
  replays: Replays;
  runSnapshot: SnapshotRunner;
  openapi: Record<string, unknown>;
  /** GET /metrics's registry and the request instrumentation. */
  metrics: Metrics;
  /** The route template a request URL belongs to (`unmatched` for none): what logs and metrics label. */
  routeOf(url: string): string;
  /** The slip route's OCR worker holder (`starts` counts worker starts). */
  slipReader: SharedSlipReader;
  /** Releases what the app holds beyond the socket: the OCR worker. The caller closes the store. */
  close(): Promise<void>;
}

/**
 * The HTTP API (docs/api.md): h3 v1 over the store. Every route reads what the snapshot runs
 * stored and never calls a provider, but for the context routes (through their cache, and never on a
 * replayed store: server/context-reads.ts); the internal routes run the snapshot pipeline itself.
 * Every failure answers in one envelope, unknown routes included.
 */
export function createApp(options: CreateAppOptions): ServerApp {
  const now = options.now ?? (() => new Date());
  const wallNow = options.wallClock ?? (() => new Date());
  const log = options.log ?? { info() {}, warn() {} };
  const proxyWarning = proxySettingsWarning(options.config);
  if (proxyWarning) log.warn(proxyWarning);
  const runNow = snapshotRunClock(options.config, now, wallNow, options.runNow);
  const runOnly = options.runSnapshot ?? createSnapshotRunner(options.store, options.config, runNow, log, wallNow);
  let metrics: Metrics | null = null;
  const snapshotCache = createSnapshotCache(options.store, (hit) => metrics?.cacheHit('snapshot', hit));
  // A snapshot this server ran is prepared before the run answers: every tier's body built off any
  // request's path, so the first read after a run does not pay for it (issue 40).
  const runSnapshot: SnapshotRunner = async (sports) => {
    const runs = await runOnly(sports);
    await snapshotCache.prepare(sports).catch((e: unknown) => log.warn(`preparing the snapshot bodies failed: ${e instanceof Error ? e.message : String(e)}`));
    return runs;
  };
  const deps: ServerDeps = {
    store: options.store,
    config: options.config,
    now,
    wallNow,
    // An explicit data clock (runNow) or the system's is an as-of time; a replayed store's own clock reads the recording whole.
    outcomesAsOfClock: options.runNow !== undefined || options.now === undefined,
    runSnapshots: runSnapshot,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    // Servers sharing one PostgreSQL count their callers' requests in it: N servers, one limit (docs/api.md "Limits").
    limiter: sharedAcrossServers(options.store) ? createSharedRateLimiter(options.store, (e) => log.warn(`rate limit not counted in the store: ${e instanceof Error ? e.message : String(e)}`)) : createRateLimiter(),
    log,
    ...(options.transport ? { liveTransport: options.transport } : {}),
  };
  const replays = new Replays();
  const recycleMb = options.config.OCR_RECYCLE_RSS_MB;
  const slipReader = new SharedSlipReader({ recycleRssBytes: recycleMb === 0 ? null : recycleMb * 1024 * 1024, ...options.slipReader });
  const routes: Route[] = [
    ...snapshotRoutes(deps, snapshotCache, replays),
    ...boardRoutes(deps),
    ...ledgerRoutes(deps),
    ...scheduleRoutes(deps),
    ...teamRoutes(deps),
    ...playerRoutes(deps),
    ...readRoutes(deps),
    ...slipRoutes(deps, slipReader),
    ...internalRoutes(deps),
    ...contentRoutes(deps),
    ...accountRoutes(deps),
    ...contextRoutes(deps),
    ...statsRoutes(deps),
    ...healthRoutes(deps),
  ];
  metrics = createMetrics(options.store, options.config, routes, wallNow, () => replays.hits());
  const openapi = buildOpenApi(routes, API_VERSION);
  describeSlipRoute(openapi);
  describeMetricsRoute(openapi);
  const openapiBytes = Buffer.from(JSON.stringify(openapi), 'utf8');

  const h3Options: AppOptions = {
    onError: (error, event) => {
      const reply = toErrorReply(error);
      // The path without its query values: a token in a query string never reaches the log.
      if (reply.status >= 500) log.warn(`${event.method} ${loggedPath(event.path)}: ${error.cause instanceof Error ? error.cause.message : error.message}`);
      sendErrorReply(event, reply);
    },
  };
  const app = createH3App(h3Options);
  // Preemptive: an unmatched path or method throws, so it answers in the envelope like any error.
  const router = createRouter({ preemptive: true });
  // GET handlers at plain paths, as the router holds them: the synchronous dispatch's table (dispatch.ts).
  const gets = new Map<string, EventHandler>();
  const table = {
    get(path: string, handler: EventHandler) {
      // HEAD is GET without the body (RFC 9110 9.3.2): the same handler, and node:http sends no
      // body for a HEAD request. It takes h3's full path (the dispatch's table is GETs only).
      router.add(path, handler, ['get', 'head']);
      if (isPlainPath(path)) gets.set(path, handler);
    },
    post(path: string, handler: EventHandler) {
      router.post(path, handler);
    },
  };
  const handlers = new Map(routes.map((route) => [route, route.handler(deps)]));
  for (const route of routes) table[route.method === 'GET' ? 'get' : 'post'](route.path, handlers.get(route)!);
  // Routes with enum parameters are also found at their concrete paths (static-paths.ts).
  registerStaticPaths(table, staticPathsOf(routes, ['/openapi.json']), (route) => handlers.get(route)!);
  // Compressed once per coding, on the first request that takes it (compress.ts).
  const openapiEncodings = encodedOnce(openapiBytes);
  table.get(
    '/openapi.json',
    eventHandler((event) => {
      const res = event.node.res;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.setHeader('cache-control', 'public, max-age=3600');
      if (!sendNegotiated(event, openapiBytes, 'application/json; charset=utf-8', openapiEncodings)) res.end(openapiBytes);
    }),
  );
  table.get('/metrics', metricsHandler(metrics, options.config.INTERNAL_API_KEY));
  // Whatever no route answers: 405 with Allow on a known path, else 404 (allow.ts).
  const allow = allowOf([...routes, { method: 'GET', path: '/openapi.json' }, { method: 'GET', path: '/metrics' }]);
  router.use('/**', unmatched(allow));
  // One middleware, not two: h3 awaits each layer on every request. Security headers on every
  // answer, errors included (an HTML route adds its own strict CSP), then CORS, which answers a
  // preflight itself.
  const cors = corsFor(options.config.CORS_ORIGIN);
  const middleware = (event: H3Event): void => {
    const res = event.node.res;
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('cross-origin-resource-policy', 'same-site');
    if (event.method === 'OPTIONS') optionsAllow(event, allow);
    cors(event);
  };
  app.use(eventHandler(middleware));
  app.use(router);
  // The app's listener: kept answers replayed first (replay.ts), then GETs at plain paths skip
  // h3's promise chain, with the same steps and answers.
  const listener = metrics.instrument(syncDispatch({ app, options: h3Options, middleware, gets, replays }));
  return { app, listener, metrics, routeOf: metrics.routeOf, routes, snapshotCache, replays, runSnapshot, openapi, slipReader, close: () => slipReader.close() };
}
