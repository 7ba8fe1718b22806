import { listen } from 'listhen';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Env } from '../config.js';
import type { Store } from '../store/db.js';
import { createApp } from './app.js';
import { loggedPath } from './paths.js';
import { startCron, type CronHandle } from './cron.js';

export interface ApiServerOptions {
  store: Store;
  config: Env;
  port: number;
  host: string;
  /** SNAPSHOT_CRON: run the snapshot in-process at the cron hours. */
  cron: boolean;
  log: { info(message: string): void; warn(message: string): void };
  /** Receives each finished request (`requestLogLine` writes it as text); absent or null: no request log (`serve --quiet`). */
  requestLog?: ((request: RequestRecord) => void) | null;
  now?: (sport?: string) => Date;
  /** The data clock of the server's own snapshot runs when pinned explicitly (createApp runNow). */
  runNow?: () => Date;
}

export interface RunningApiServer {
  url: string;
  cronNext: Date | null;
  /** Requests answered so far (every response the server finished writing, errors included). */
  requestsServed(): number;
  close(): Promise<void>;
  /** The timeouts set on the listening socket (what SERVER_TIMEOUTS asked for, read back). */
  socketLimits(): { headersMs: number; requestMs: number; keepAliveMs: number };
}

export { loggedPath } from './paths.js';

/** A finished request as the log sees it: never a header value, never a query value. */
export interface RequestRecord {
  requestId: string;
  method: string;
  /** loggedPath: query keys without their values. */
  path: string;
  route: string;
  status: number | 'aborted';
  ms: number;
}

/** One request, one line: `GET /api/snapshot/nba 200 12 ms`. A response cut off before it finished says `aborted`. */
export function requestLogLine(r: Pick<RequestRecord, 'method' | 'path' | 'status' | 'ms'>): string {
  return `${r.method} ${r.path} ${r.status} ${Math.round(r.ms)} ms`;
}

/** A request id the proxy sent, when it is a plain token; else one of our own. */
const FORWARDED_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Wraps a node listener with the request log and counter. Only the method, the path (query keys,
 * no values) and the status are read: no header (Authorization, x-internal-key) is ever logged.
 * Each answer carries its `x-request-id` (the proxy's own, when it sent a plain one), the id the
 * log line names.
 */
export function withRequestLog(listener: RequestListener, onRequest: ((r: RequestRecord) => void) | null, onServed: () => void, routeOf: (url: string) => string = () => 'unmatched'): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const forwarded = req.headers['x-request-id'];
    const requestId = typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
    res.setHeader('x-request-id', requestId);
    res.once('close', () => {
      const finished = res.writableFinished;
      if (finished) onServed();
      onRequest?.({ requestId, method: req.method ?? '-', path: loggedPath(req.url), route: routeOf(req.url ?? '/'), status: finished ? res.statusCode : 'aborted', ms: Math.round(performance.now() - started) });
    });
    listener(req, res);
  };
}

/** Socket limits of the served API (docs/reliability.md). */
export const SERVER_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 } as const;

/** `propgrade serve`: the app on listhen, plus the optional in-process snapshot cron. */
export async function startApiServer(options: ApiServerOptions): Promise<RunningApiServer> {
  const { store, config, log } = options;
  const server = createApp({ store, config, log, ...(options.now ? { now: options.now } : {}), ...(options.runNow ? { runNow: options.runNow } : {}) });
  let served = 0;
  const handler = withRequestLog(
    server.listener,
    options.requestLog ?? null,
    () => {
      served += 1;
    },
    server.routeOf,
  );
  // autoClose off: listhen's own SIGINT/SIGTERM handlers call process.exit at once; `closeOnSignals` closes cleanly instead.
  const listener = await listen(handler, { port: options.port, hostname: options.host, showURL: false, isTest: true, autoClose: false });
  // A slow or stalled client cannot hold a socket: headers within 10 s, the whole request within 30 s.
  listener.server.headersTimeout = SERVER_TIMEOUTS.headersMs;
  listener.server.requestTimeout = SERVER_TIMEOUTS.requestMs;
  listener.server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveMs;
  let cron: CronHandle | null = null;
  if (options.cron) {
    cron = startCron(
      async () => {
        const runs = await server.runSnapshot(['mlb', 'nba', 'wnba', 'soccer']);
        log.info(`cron snapshot: ${runs.map((r) => `${r.sport} ${r.status}`).join(', ')}`);
      },
      { onError: (e) => log.warn(`cron snapshot failed: ${e instanceof Error ? e.message : String(e)}`) },
    );
  }
  let closing: Promise<void> | null = null;
  return {
    url: listener.url,
    cronNext: cron?.next() ?? null,
    requestsServed: () => served,
    socketLimits: () => ({ headersMs: listener.server.headersTimeout, requestMs: listener.server.requestTimeout, keepAliveMs: listener.server.keepAliveTimeout }),
    close: () => {
      // Idempotent: a second signal or a caller's own close waits for the same shutdown.
      closing ??= (async () => {
        cron?.stop();
        // listhen's close waits for requests in flight and closes idle keep-alive sockets.
        await listener.close();
        // The OCR worker thread would otherwise keep the process alive after the socket closes.
        await server.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** Where shutdown signals come from (the process; tests pass an EventEmitter). */
export interface SignalSource {
  once(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * On the first SIGINT or SIGTERM: one line (`propgrade serve: shutting down (N requests served)`),
 * then a clean close (requests in flight finish, cron stopped, store closed). The handlers are
 * removed first, so a second Ctrl-C gets the default behaviour and stops a stuck shutdown.
 * `done` settles when the server has closed; `dispose` removes the handlers without closing.
 */
export function closeOnSignals(
  running: Pick<RunningApiServer, 'close' | 'requestsServed'>,
  options: { announce(line: string): void; onError?(error: unknown): void; signals?: SignalSource },
): { done: Promise<void>; dispose(): void } {
  const source = options.signals ?? process;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  const dispose = (): void => {
    for (const s of SHUTDOWN_SIGNALS) source.off(s, onSignal);
  };
  function onSignal(): void {
    dispose();
    const n = running.requestsServed();
    options.announce(`propgrade serve: shutting down (${n} ${n === 1 ? 'request' : 'requests'} served)`);
    running.close().then(resolveDone, (error: unknown) => {
      options.onError?.(error);
      resolveDone();
    });
  }
  for (const s of SHUTDOWN_SIGNALS) source.once(s, onSignal);
  return { done, dispose };
}
