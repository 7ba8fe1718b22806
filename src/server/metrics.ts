import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Env } from '../config.js';
import type { Store } from '../store/db.js';
import { creditsSpentToday } from '../store/repo/odds-credits.js';
import { lastSuccessPerJob, newestRunPerJob } from '../store/repo/run-figures.js';
import type { Route } from './route.js';

/**
 * GET /metrics (Prometheus text format, prom-client): the server's own requests, and the runs'
 * figures that the cron processes recorded in the store, read at scrape time. One registry per
 * app, so two apps in one process (tests) never share counters.
 */
export interface Metrics {
  registry: Registry;
  /** Wraps the app's listener: one observation per finished request. */
  instrument(listener: RequestListener): RequestListener;
  /** The route template of a request URL (`unmatched` when no route knows it). */
  routeOf(url: string): string;
  /** Counts a cache answer (`snapshot` replayed bytes, `context` upstream cache). */
  cacheHit(cache: string, hit: boolean): void;
}

/** The route template a path belongs to; paths no route knows share one label, so label values stay bounded. */
export function routeTemplates(routes: readonly Pick<Route, 'path'>[], extra: readonly string[]): (path: string) => string {
  const plain = new Set<string>(extra);
  const patterns: Array<{ template: string; parts: string[] }> = [];
  for (const r of routes) {
    if (r.path.includes(':')) patterns.push({ template: r.path, parts: r.path.split('/') });
    else plain.add(r.path);
  }
  return (url) => {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (plain.has(path)) return path;
    const parts = path.split('/');
    for (const p of patterns) {
      if (p.parts.length === parts.length && p.parts.every((seg, i) => seg.startsWith(':') || seg === parts[i])) return p.template;
    }
    return 'unmatched';
  };
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(store: Store, config: Pick<Env, 'ODDS_API_DAILY_BUDGET'>, routes: readonly Route[], wallNow: () => Date, replayedAnswers: () => number): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'propgrade_' });
  const template = routeTemplates(routes, ['/openapi.json', '/metrics']);
  const requests = new Counter({ name: 'propgrade_http_requests_total', help: 'HTTP requests answered, by route template, method and status', labelNames: ['route', 'method', 'status'], registers: [registry] });
  const duration = new Histogram({ name: 'propgrade_http_request_duration_seconds', help: 'Time from request to the last byte written, by route template and method', labelNames: ['route', 'method'], buckets: DURATION_BUCKETS, registers: [registry] });
  const bytesOut = new Counter({ name: 'propgrade_http_response_bytes_total', help: 'Body bytes written (after compression), by route template', labelNames: ['route'], registers: [registry] });
  const cache = new Counter({ name: 'propgrade_cache_requests_total', help: 'Cache look-ups by cache and result', labelNames: ['cache', 'result'], registers: [registry] });

  new Gauge({ name: 'propgrade_snapshot_replayed_answers', help: 'Snapshot answers served from kept bytes (replay.ts) since start', registers: [registry], collect() { this.set(replayedAnswers()); } });

  const runLabels = ['job', 'sport'] as const;
  // The store-read gauges all refresh from one read of what the runs recorded (cron processes
  // share the store): prom-client asks every metric at once and awaits each one's collect, so each
  // store gauge's collect awaits the same refresh, and none is read before it has landed.
  let refreshing: Promise<void> | null = null;
  const refresh = (): Promise<void> => (refreshing ??= collectRuns().finally(() => void (refreshing = null)));
  const collect = () => refresh();
  const lastSuccess = new Gauge({ name: 'propgrade_run_last_success_timestamp_seconds', help: 'When each job (snapshot, settle) last succeeded, per sport (Unix seconds)', labelNames: runLabels, registers: [registry], collect });
  const runDuration = new Gauge({ name: 'propgrade_run_duration_seconds', help: 'Wall time of the newest run of each job, per sport', labelNames: runLabels, registers: [registry], collect });
  const runFailed = new Gauge({ name: 'propgrade_run_last_failed', help: '1 when the newest run of the job failed, else 0', labelNames: runLabels, registers: [registry], collect });
  const snapshotFigure = new Gauge({ name: 'propgrade_snapshot_rows', help: 'Rows of the newest snapshot run, per sport and kind (rows, graded, refused, dropped, events)', labelNames: ['sport', 'kind'], registers: [registry], collect });
  const settled = new Gauge({ name: 'propgrade_settle_settled_entries', help: 'Ledger entries the newest settle run settled, per sport', labelNames: ['sport'], registers: [registry], collect });
  const creditsSpent = new Gauge({ name: 'propgrade_odds_api_credits_spent_today', help: 'Odds API credits spent on the ET day of the wall clock', registers: [registry], collect });
  const creditsLeft = new Gauge({ name: 'propgrade_odds_api_credits_left_today', help: 'ODDS_API_DAILY_BUDGET less what was spent today (absent without a budget)', registers: [registry], collect });

  async function collectRuns(): Promise<void> {
    const [successes, newest, spent] = await Promise.all([lastSuccessPerJob(store), newestRunPerJob(store), creditsSpentToday(store, wallNow())]);
    // Reset and set with no await between: a scrape sees the whole of one read.
    for (const g of [lastSuccess, runDuration, runFailed, snapshotFigure, settled, creditsLeft]) g.reset();
    for (const s of successes) lastSuccess.set({ job: s.kind, sport: s.sport }, Date.parse(s.at) / 1000);
    for (const r of newest) {
      const labels = { job: r.kind, sport: r.sport };
      runFailed.set(labels, r.status === 'failed' ? 1 : 0);
      if (r.finishedAt) runDuration.set(labels, (Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000);
      if (r.kind === 'settle' && r.settledCount !== null) settled.set({ sport: r.sport }, r.settledCount);
      if (r.kind !== 'snapshot') continue;
      const figures: Array<[string, number | null]> = [['rows', r.rowCount], ['graded', r.gradedCount], ['refused', r.refusedCount], ['dropped', r.droppedCount], ['events', r.eventsCount]];
      for (const [kind, v] of figures) if (v !== null) snapshotFigure.set({ sport: r.sport, kind }, v);
    }
    creditsSpent.set(spent);
    if (config.ODDS_API_DAILY_BUDGET !== undefined) creditsLeft.set(Math.max(0, config.ODDS_API_DAILY_BUDGET - spent));
  }

  return {
    registry,
    routeOf: template,
    cacheHit: (name, hit) => cache.inc({ cache: name, result: hit ? 'hit' : 'miss' }),
    instrument: (listener) => (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      let bytes = 0;
      const write = res.write.bind(res);
      const end = res.end.bind(res);
      const count = (chunk: unknown) => {
        if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk);
        else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        count(chunk);
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk !== 'function') count(chunk);
        return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
      }) as typeof res.end;
      res.once('finish', () => {
        const route = template(req.url ?? '/');
        const method = req.method ?? 'GET';
        requests.inc({ route, method, status: String(res.statusCode) });
        duration.observe({ route, method }, (performance.now() - started) / 1000);
        if (method !== 'HEAD') bytesOut.inc({ route }, bytes);
      });
      listener(req, res);
    },
  };
}
