import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Env } from '../config.js';
import { TOKEN_SHAPE } from '../log.js';
import type { Store } from '../store/db.js';
import { createApp } from './app.js';
import { loggedPath } from './paths.js';
import { startCron, type CronHandle } from './cron.js';
import { startUpkeep } from './upkeep.js';

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
  /** The wall clock (createApp wallClock): limits, accounts, and when the cron fires. Tests pin it; default the system clock. */
  wallClock?: () => Date;
  /** The socket limits (default SERVER_TIMEOUTS); tests shorten them. */
  timeouts?: Partial<ServerTimeouts>;
}

export interface RunningApiServer {
  url: string;
  cronNext: Date | null;
  /** Requests answered so far (every response the server finished writing, errors included). */
  requestsServed(): number;
  close(): Promise<void>;
  /** The limits set on the listening server (SERVER_TIMEOUTS and PROPGRADE_MAX_CONNECTIONS), read back from it. */
  socketLimits(): ServerTimeouts & { maxConnections: number };
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

/** The shape of a request id the proxy may send: 1-64 characters of letters, digits, `.`, `_` and `-`. */
const FORWARDED_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request id of a request: the `x-request-id` it came with when that is one plain value of
 * the safe shape and holds no API token (a token there would reach the log and the answer), else a
 * fresh UUID.
 */
export function requestIdOf(forwarded: string | string[] | undefined): string {
  return typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) && !TOKEN_SHAPE.test(forwarded) ? forwarded : randomUUID();
}

/**
 * Wraps a node listener with the request log and counter. Only the method, the path (query keys,
 * no values; a token anywhere in it redacted) and the status are read: no header (Authorization,
 * x-internal-key) is ever logged. Each answer carries its own request's `x-request-id`
 * (`requestIdOf`), the id the log line names; a kept answer (replay.ts) never repeats another's.
 */
export function withRequestLog(listener: RequestListener, onRequest: ((r: RequestRecord) => void) | null, onServed: () => void, routeOf: (url: string) => string = () => 'unmatched'): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const requestId = requestIdOf(req.headers['x-request-id']);
    res.setHeader('x-request-id', requestId);
    res.once('close', () => {
      const finished = res.writableFinished;
      if (finished) onServed();
      onRequest?.({ requestId, method: req.method ?? '-', path: loggedPath(req.url), route: routeOf(req.url ?? '/'), status: finished ? res.statusCode : 'aborted', ms: Math.round(performance.now() - started) });
    });
    listener(req, res);
  };
}

export interface ServerTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
  /** How often node checks the header and request deadlines (`connectionsCheckingInterval`, 30 s by default). */
  checkEveryMs: number;
}

/**
 * Socket limits of the served API (docs/reliability.md). Node enforces `headersTimeout` and
 * `requestTimeout` only when it checks its connections, every `connectionsCheckingInterval` (30 s
 * by default, so a 10 s header deadline closed at 12-39 s): checked each second, a stalled socket
 * is closed within a second of its deadline. The check walks the open connections, at most
 * PROPGRADE_MAX_CONNECTIONS of them. A socket that sends nothing at all is closed at the same
 * deadline by startApiServer (node's own deadline starts at the first byte).
 */
export const SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, checkEveryMs: 1_000 };

/** The URL a server bound to `address` answers at. */
function urlOf(address: AddressInfo): string {
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`;
}

/** `propgrade serve`: the app on a node:http server, plus the optional in-process snapshot cron. */
export async function startApiServer(options: ApiServerOptions): Promise<RunningApiServer> {
  const { store, config, log } = options;
  const wallClock = options.wallClock ?? (() => new Date());
  const server = createApp({ store, config, log, wallClock, ...(options.now ? { now: options.now } : {}), ...(options.runNow ? { runNow: options.runNow } : {}) });
  let served = 0;
  let stopping = false;
  /** Responses not yet closed: on shutdown each is told to close its connection when it ends. */
  const open = new Set<ServerResponse>();
  const logged = withRequestLog(
    server.listener,
    options.requestLog ?? null,
    () => {
      served += 1;
    },
    server.routeOf,
  );
  const limits = { ...SERVER_TIMEOUTS, ...options.timeouts };
  // node:http itself, not a wrapper: the deadline check's interval can only be set here, at creation.
  // A slow or stalled client cannot hold a socket: headers within 10 s, the whole request within 30 s.
  const http = createServer(
    { headersTimeout: limits.headersMs, requestTimeout: limits.requestMs, keepAliveTimeout: limits.keepAliveMs, connectionsCheckingInterval: limits.checkEveryMs },
    (req, res) => {
      open.add(res);
      res.once('close', () => {
        open.delete(res);
        // A keep-alive socket that went idle after shutdown began is closed as soon as it is idle.
        if (stopping) setImmediate(() => http.closeIdleConnections());
      });
      if (stopping) res.setHeader('connection', 'close');
      logged(req, res);
    },
  );
  // Past this many open sockets node closes each new one at once, before it costs a request.
  http.maxConnections = config.PROPGRADE_MAX_CONNECTIONS;
  // Node starts a connection's header deadline at its first byte: a socket that never sends one
  // would hold its place under the cap for ever. It gets the same deadline from the moment it opens.
  http.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, limits.headersMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  http.on('error', (e) => log.warn(`server: ${e.message}`));
  let cron: CronHandle | null = null;
  if (options.cron) {
    cron = startCron(
      async () => {
        const runs = await server.runSnapshot(['mlb', 'nba', 'wnba', 'soccer']);
        log.info(`cron snapshot: ${runs.map((r) => `${r.sport} ${r.status}`).join(', ')}`);
      },
      { now: wallClock, onError: (e) => log.warn(`cron snapshot failed: ${e instanceof Error ? e.message : String(e)}`) },
    );
  }
  // The store kept bounded, and each new snapshot's bodies built before a request asks (upkeep.ts).
  const upkeep = startUpkeep({ store, snapshotCache: server.snapshotCache, wallClock, now: () => (options.now ?? wallClock)(), log });
  let closing: Promise<void> | null = null;
  return {
    url: urlOf(http.address() as AddressInfo),
    cronNext: cron?.next() ?? null,
    requestsServed: () => served,
    socketLimits: () => ({
      headersMs: http.headersTimeout,
      requestMs: http.requestTimeout,
      keepAliveMs: http.keepAliveTimeout,
      checkEveryMs: limits.checkEveryMs,
      maxConnections: http.maxConnections,
    }),
    close: () => {
      // Idempotent: a second signal or a caller's own close waits for the same shutdown.
      closing ??= (async () => {
        cron?.stop();
        stopping = true;
        // Requests in flight finish; their connections close after them, idle ones at once.
        for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeIdleConnections();
        });
        // The OCR worker thread would otherwise keep the process alive after the socket closes.
        await upkeep.stop();
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
