import { createApp as createH3App, createEvent, eventHandler, toNodeListener, type App, type AppOptions, type EventHandler, type H3Event } from 'h3';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { pathOf } from './paths.js';
import type { Replays } from './replay.js';

/** What a synchronously dispatched request still needs from h3: a value to send, or what it threw. */
type Outcome = { threw: false; value: unknown } | { threw: true; error: unknown };

export interface SyncDispatch {
  /** The app: its one middleware layer, then its preemptive router. */
  app: App;
  /** The app's options (its onError answers in the envelope). */
  options: AppOptions;
  /** The app's middleware, the same function its first layer runs. */
  middleware: (event: H3Event) => void;
  /**
   * GET handlers by plain path, each the handler the app's router gives that path and method
   * (the app registers both from the same call, app.ts).
   */
  gets: ReadonlyMap<string, EventHandler>;
  /** Whole answers kept for replay (replay.ts), asked before anything else. */
  replays: Replays;
}

/**
 * The app's node listener: `toNodeListener(app)`, except for a GET to a plain path the router
 * holds. Such a request (every poll of `/api/snapshot/nba`, `/openapi.json`, ...) runs the same
 * steps h3's app and router would run (the event, the middleware, the route's handler with the
 * params the router gives a static path) but as plain calls: h3 runs each request through an
 * async listener, an async app handler awaiting each layer, and the router's promise chain, and
 * this work was the largest fixed cost of a cached snapshot answer (docs/performance.md).
 *
 * A handler that ends the response itself and returns nothing (the snapshot route's cached
 * bytes, its 304), at once or through its promise (store reads are asynchronous), is then done.
 * Anything else, a value to send, or a throw or rejection (a refused query, a 401), is handed to
 * a second h3 app with the same options whose one layer gives back that outcome as the router
 * would have given it: h3's own code sends the value or the error envelope, exactly as it does on
 * the full path. Every other request takes the full path. test/server/dispatch.test.ts holds both
 * paths to the same bytes.
 *
 * Before any of this, an answer a route kept for replay (replay.ts) is written if one fits and
 * its check holds.
 */
export function syncDispatch({ app, options, middleware, gets, replays }: SyncDispatch): RequestListener {
  const full = toNodeListener(app);
  const outcomes = new WeakMap<IncomingMessage, Outcome>();
  const resume = createH3App(options);
  resume.use(
    eventHandler((event) => {
      const outcome = outcomes.get(event.node.req)!;
      outcomes.delete(event.node.req);
      if (outcome.threw) throw outcome.error;
      // h3's preemptive router: a handler's undefined becomes null (204 unless already answered).
      return Promise.resolve(outcome.value).then((value) => (value === undefined ? null : value));
    }),
  );
  const resumed = toNodeListener(resume);
  const resumeWith = (req: IncomingMessage, res: ServerResponse, outcome: Outcome) => {
    outcomes.set(req, outcome);
    void resumed(req, res);
  };
  const route: RequestListener = (req, res) => {
    const url = req.url || '/';
    const handler = req.method === 'GET' ? gets.get(pathOf(url)) : undefined;
    if (handler === undefined) {
      void full(req, res);
      return;
    }
    const event = createEvent(req, res);
    // What h3's app handler does before its layers; the path needs no decoding (isPlainPath).
    event.node.req.originalUrl = event.node.req.originalUrl || url;
    let outcome: Outcome;
    try {
      middleware(event);
      // A handled event ends h3's stack after any layer.
      if (event.handled) return;
      const value = handler(event) as unknown;
      if (value === undefined && event.handled) return;
      if (value instanceof Promise) {
        // Settled here rather than by h3's chain: an answer the handler wrote itself ends the request.
        value.then(
          (settled: unknown) => {
            if (settled === undefined && event.handled) return;
            resumeWith(req, res, { threw: false, value: settled });
          },
          (error: unknown) => resumeWith(req, res, { threw: true, error }),
        );
        return;
      }
      outcome = { threw: false, value };
    } catch (error) {
      outcome = { threw: true, error };
    }
    resumeWith(req, res, outcome);
  };
  return (req, res) => {
    const replayed = replays.answer(req, res);
    if (replayed === false) return route(req, res);
    if (replayed === true) return;
    // A kept answer fits: its check reads the store; a stale one leaves the request to the route.
    replayed.then(
      (done) => void (done || route(req, res)),
      () => route(req, res),
    );
  };
}

