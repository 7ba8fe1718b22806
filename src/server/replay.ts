import type { IncomingMessage, ServerResponse } from 'node:http';
import type { H3Event } from 'h3';
import { isPlainPath, pathOf } from './paths.js';

/** Answers kept at once (oldest dropped first): about what the snapshot cache keeps (64 views). */
const KEPT = 64;
/** The longest URL, Accept-Encoding and If-None-Match an answer is kept for. */
const MAX_URL = 1024;
const MAX_HEADER = 256;
/**
 * Header lines that belong to one request, not to its answer: never kept, so a replayed answer
 * carries the id the listener set for the request it answers (serve.ts), not the id of the request
 * that built it (which one anonymous caller could choose for everyone).
 */
const PER_REQUEST = new Set(['x-request-id']);

interface Kept {
  url: string;
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
  status: number;
  statusMessage: string;
  /** Every header line the answer was written with, in order: name, value, name, value, ... */
  head: string[];
  body: Buffer | undefined;
  stillValid: () => boolean | Promise<boolean>;
  /** What the answer was made from (the cache entry): one URL's answers from an older one are dead. */
  source: object;
}

/**
 * Whole answers the app writes again byte for byte, head and body, instead of working them out
 * again: the last resort of issue 18's snapshot route, where the answer is cached bytes and
 * working out its head (h3's event, the middleware, the route's caller, input, cache headers and
 * negotiation, then eleven `setHeader`s) cost more than sending it.
 *
 * A route offers an answer it has just ended (`offer`) with a check that is true only while the
 * route would still answer with these bytes (the snapshot route: the cache still hands out the
 * same entry, after the same freshness check every request makes). The answer is kept for the
 * exact URL and the exact values of the two request headers the route reads (Accept-Encoding,
 * If-None-Match), and only for requests whose answer depends on nothing else:
 * - a GET at a plain path (one the app's synchronous dispatch serves, dispatch.ts);
 * - no Authorization header: an anonymous caller, free tier, no onboarding header, public caching
 *   (a token is resolved against the store on every request, and its answer is never kept);
 * - no Origin header: no CORS headers (the middleware adds them for the configured origin only).
 * A later request meeting the same conditions with the same URL and header values (the app's
 * listener asks `answer` first) gets the kept head and bytes if the check still holds; if it does
 * not (a new snapshot) or throws, the kept answer is dropped and the request takes the route as
 * usual, which offers the new answer. The head kept is the one the route's own path wrote, read
 * back from the response (security headers, Vary lines, cache headers, ETag, encoding, length),
 * so there is no second copy of any header rule. A route may offer only an answer that is a pure
 * function of those inputs and the check, and whose path has no side effect (no rate limit, no
 * metering, no write): the snapshot route's full answer, views and 304s.
 *
 * The request log and the served count wrap the whole listener (serve.ts) and see a replayed
 * answer like any other; the request's own `x-request-id`, set there before the app runs, is left
 * in place (`writeHead` keeps the header lines it is not given). test/server/replay.test.ts and dispatch.test.ts hold replayed answers to
 * the route's own, byte for byte.
 */
export class Replays {
  readonly #byUrl = new Map<string, Kept[]>();
  /** Every kept answer, oldest first. */
  readonly #order = new Set<Kept>();
  #hits = 0;

  /** How many requests were answered from a kept answer. */
  hits(): number {
    return this.#hits;
  }

  /** How many answers are kept now. */
  size(): number {
    return this.#order.size;
  }

  /** Whether `offer` would keep an answer to this request (checked before building the check). */
  accepts(req: IncomingMessage): boolean {
    return replayable(req) && isPlainPath(pathOf(req.url!));
  }

  /**
   * Keeps the answer just ended on `event` (status, every header set, `body` as passed to
   * `res.end`) for the requests that may be answered with it, while `stillValid()` holds.
   */
  offer(event: H3Event, body: Buffer | undefined, stillValid: () => boolean | Promise<boolean>, source: object): void {
    const req = event.node.req;
    const res = event.node.res;
    if (!this.accepts(req) || !res.writableEnded) return;
    const head: string[] = [];
    // Names as they were set (node:http writes them so); OutgoingMessage has this method, @types/node
    // declares it on ClientRequest only.
    for (const name of (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
      if (PER_REQUEST.has(name.toLowerCase())) continue;
      const value = res.getHeader(name)!;
      if (Array.isArray(value)) for (const v of value) head.push(name, v);
      else head.push(name, String(value));
    }
    const kept: Kept = {
      url: req.url!,
      acceptEncoding: req.headers['accept-encoding'],
      ifNoneMatch: req.headers['if-none-match'],
      status: res.statusCode,
      statusMessage: res.statusMessage,
      head,
      body,
      stillValid,
      source,
    };
    // A URL's answers made from an older entry can never be valid again, and each holds that entry's
    // bytes through its check: a 304 kept for an ETag no client sends any more would pin a whole old
    // snapshot until 64 newer answers pushed it out (the season soak saw it). Dropped here; so is the
    // answer this one replaces.
    for (const k of this.#byUrl.get(kept.url) ?? []) {
      if (k.source !== source || (k.acceptEncoding === kept.acceptEncoding && k.ifNoneMatch === kept.ifNoneMatch)) this.#drop(k);
    }
    if (this.#order.size >= KEPT) this.#drop(this.#order.values().next().value as Kept);
    this.#byUrl.set(kept.url, [...(this.#byUrl.get(kept.url) ?? []), kept]);
    this.#order.add(kept);
  }

  /**
   * Writes the kept answer to `req` if there is one and it is still valid, and says so: false at
   * once when no kept answer fits, else once its check (a store read) has answered. False leaves
   * the request and the response untouched.
   */
  answer(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
    if (this.#order.size === 0) return false;
    const list = this.#byUrl.get(req.url!);
    if (list === undefined || !replayable(req)) return false;
    const acceptEncoding = req.headers['accept-encoding'];
    const ifNoneMatch = req.headers['if-none-match'];
    const kept = list.find((k) => k.acceptEncoding === acceptEncoding && k.ifNoneMatch === ifNoneMatch);
    return kept === undefined ? false : this.#replay(kept, res);
  }

  async #replay(kept: Kept, res: ServerResponse): Promise<boolean> {
    let valid = false;
    try {
      valid = await kept.stillValid();
    } catch {
      // The route's own path meets the same failure and answers it (the error envelope).
    }
    if (!valid) {
      this.#drop(kept);
      return false;
    }
    this.#hits += 1;
    res.writeHead(kept.status, kept.statusMessage, kept.head);
    res.end(kept.body);
    return true;
  }

  #drop(kept: Kept): void {
    this.#order.delete(kept);
    const rest = (this.#byUrl.get(kept.url) ?? []).filter((k) => k !== kept);
    if (rest.length === 0) this.#byUrl.delete(kept.url);
    else this.#byUrl.set(kept.url, rest);
  }
}

/** The requests whose answer the snapshot route makes from the URL, Accept-Encoding and If-None-Match alone. */
function replayable(req: IncomingMessage): boolean {
  const h = req.headers;
  return (
    req.method === 'GET' &&
    h.authorization === undefined &&
    h.origin === undefined &&
    req.url !== undefined &&
    req.url.length <= MAX_URL &&
    (h['accept-encoding'] === undefined || h['accept-encoding'].length <= MAX_HEADER) &&
    (h['if-none-match'] === undefined || h['if-none-match'].length <= MAX_HEADER)
  );
}
