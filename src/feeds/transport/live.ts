import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Agent } from 'undici';
import { createHttpPool, httpRequest } from './http.js';
import { PROVIDER_NAMES, wireUrlFor, type OriginMap } from './origins.js';
import { redactUrl } from './replay-key.js';
import type { FetchFailure, FetchOutcome, FetchRequest, Transport } from './types.js';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);
const brotliAsync = promisify(brotliDecompress);

export interface LiveTransportOptions {
  /** Whole-attempt deadline (headers and body), per try. */
  timeoutMs: number;
  /** Extra tries after the first, only for 429, 5xx and network errors. */
  retries: number;
  concurrencyPerHost: number;
  userAgent: string;
  /** Injected so tests do not wait for real backoff. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1); injected for deterministic tests. */
  random?: () => number;
  /** First backoff step; doubles per retry. */
  baseDelayMs?: number;
  /** Cap on one backoff wait. */
  maxDelayMs?: number;
  /** Cap on a server's Retry-After, so a hostile header cannot park the run. */
  maxRetryAfterMs?: number;
  /** Bodies larger than this fail instead of filling memory. */
  maxBodyBytes?: number;
  /** Provider origin -> configured base (ODDS_API_BASE_URL etc.); unset = the provider's own host. */
  origins?: OriginMap;
}

export const LIVE_DEFAULTS = {
  timeoutMs: 15_000,
  retries: 3,
  concurrencyPerHost: 4,
  userAgent: 'propgrade/0.1.0',
} as const satisfies LiveTransportOptions;

type Attempt =
  | { kind: 'done'; outcome: FetchOutcome }
  | { kind: 'retry'; failure: FetchFailure; retryAfterMs: number | null };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Live HTTP over one keep-alive undici Agent. Never throws: every failure is an outcome. */
export function createLiveTransport(options: LiveTransportOptions): Transport & { close(): Promise<void> } {
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 8_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  // The pool (and undici with it) is built by the first request: a replayed run never makes one.
  let pool: Promise<Agent> | null = null;
  const agent = () =>
    (pool ??= createHttpPool({
      keepAliveTimeout: 10_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      maxResponseSize: options.maxBodyBytes ?? 64 * 1024 * 1024,
    }));
  const limits = new Map<string, LimitFunction>();

  function limitFor(host: string): LimitFunction {
    let limit = limits.get(host);
    if (!limit) {
      limit = pLimit(Math.max(1, options.concurrencyPerHost));
      limits.set(host, limit);
    }
    return limit;
  }

  async function attempt(wireUrl: URL, where: string, request: FetchRequest, scrub: (s: string) => string): Promise<Attempt> {
    try {
      const res = await httpRequest({
        dispatcher: await agent(),
        method: 'GET',
        url: wireUrl,
        headers: {
          'accept-encoding': 'gzip',
          accept: request.accept === 'text' ? 'text/plain, text/csv, */*' : 'application/json',
          'user-agent': options.userAgent,
        },
        timeoutMs: options.timeoutMs,
      });
      const status = res.statusCode;
      if (status === 429 || status >= 500) {
        await res.body.dump().catch(() => undefined);
        const retryAfterMs = status === 429 ? parseRetryAfter(headerValue(res.headers['retry-after'])) : null;
        return { kind: 'retry', failure: { ok: false, status, reason: `HTTP ${status} from ${where}` }, retryAfterMs };
      }
      if (status < 200 || status >= 300) {
        await res.body.dump().catch(() => undefined);
        return { kind: 'done', outcome: { ok: false, status, reason: `HTTP ${status} from ${where}` } };
      }
      const raw = Buffer.from(await res.body.arrayBuffer());
      const headers = flattenHeaders(res.headers);
      const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      const decoded = await decode(raw, encoding);
      if (decoded === null) {
        return { kind: 'done', outcome: { ok: false, status, reason: `unsupported content-encoding "${encoding}" from ${where}` } };
      }
      // The body handed on is decoded, so the encoding headers no longer describe it.
      delete headers['content-encoding'];
      delete headers['content-length'];
      return { kind: 'done', outcome: { ok: true, status, headers, body: decoded.toString('utf8'), source: 'live' } };
    } catch (err) {
      return { kind: 'retry', failure: { ok: false, status: null, reason: scrub(describeError(err, where, options.timeoutMs)) }, retryAfterMs: null };
    }
  }

  async function fetchWithRetries(request: FetchRequest): Promise<FetchOutcome> {
    const secrets = Object.values(request.secretQuery ?? {}).filter((v) => v.length > 0);
    const scrub = (s: string) => secrets.reduce((acc, secret) => acc.split(secret).join('***'), s);
    let wireUrl: URL;
    let where: string;
    try {
      wireUrl = new URL(wireUrlFor(request.url, options.origins));
      // Failures name the provider and the URL asked for, before any credential joins it.
      where = `${PROVIDER_NAMES[request.provider]} (${redactUrl(wireUrl.toString())})`;
      for (const [name, value] of Object.entries(request.secretQuery ?? {})) wireUrl.searchParams.set(name, value);
    } catch {
      return { ok: false, status: null, reason: `invalid url: ${redactUrl(request.url)}` };
    }
    let tries = 0;
    for (;;) {
      const result = await attempt(wireUrl, where, request, scrub);
      if (result.kind === 'done') return result.outcome;
      if (tries >= options.retries) {
        const { failure } = result;
        return { ...failure, reason: `${failure.reason} (after ${tries + 1} attempt${tries === 0 ? '' : 's'})` };
      }
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** tries + random() * baseDelayMs);
      const wait = result.retryAfterMs === null ? backoff : Math.min(result.retryAfterMs, maxRetryAfterMs);
      tries += 1;
      await sleep(wait);
    }
  }

  return {
    kind: 'live',
    async fetch(request) {
      try {
        const host = safeHost(request.url);
        return await limitFor(host)(() => fetchWithRetries(request));
      } catch (err) {
        // Defensive: nothing above should throw, but a transport must never throw to an adapter.
        return { ok: false, status: null, reason: `transport error: ${err instanceof Error ? err.name : 'unknown'}` };
      }
    },
    async close() {
      if (pool) await pool.then((a) => a.close()).catch(() => undefined);
    },
  };
}

function safeHost(raw: string): string {
  try {
    return new URL(raw).host;
  } catch {
    return '';
  }
}

async function decode(raw: Buffer, encoding: string): Promise<Buffer | null> {
  switch (encoding) {
    case '':
    case 'identity':
      return raw;
    case 'gzip':
    case 'x-gzip':
      return gunzipAsync(raw);
    case 'deflate':
      return inflateAsync(raw);
    case 'br':
      return brotliAsync(raw);
    default:
      return null;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

function describeError(err: unknown, where: string, timeoutMs: number): string {
  const name = err instanceof Error ? err.name : '';
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `timeout after ${timeoutMs} ms: ${where}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `network error${code ? ` ${code}` : ''} from ${where}: ${message}`;
}
