import type { Agent, Dispatcher } from 'undici';

/**
 * propgrade's one HTTP primitive, over undici: the feeds' live transport and the outbound
 * platforms (src/publish) both send through httpRequest. A request has one deadline on the wall
 * clock, for headers and body alike, that aborts it when it passes; nothing here retries, reads
 * a data clock or decides what a status means: each caller does.
 */

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string | URL;
  headers?: Record<string, string>;
  /** A JSON body: serialized, sent with content-type application/json. */
  json?: unknown;
  /** Milliseconds for the whole exchange, on the wall clock. */
  timeoutMs: number;
  /** A keep-alive pool (the live transport's); undici's global one otherwise. */
  dispatcher?: Dispatcher;
}

export type HttpResponse = Dispatcher.ResponseData;

let undici: Promise<typeof import('undici')> | null = null;

/** undici (about 60 ms of module loading) loads with the first request: a replayed run never makes one. */
function loadUndici(): Promise<typeof import('undici')> {
  return (undici ??= import('undici'));
}

/** A keep-alive connection pool for httpRequest's `dispatcher`, built when first asked for. */
export async function createHttpPool(options: Agent.Options): Promise<Agent> {
  const { Agent } = await loadUndici();
  return new Agent(options);
}

/**
 * Sends one request and answers its status, headers and unread body. Throws on a network error
 * and when the deadline passes (a TimeoutError, or undici's UND_ERR_HEADERS_TIMEOUT /
 * UND_ERR_BODY_TIMEOUT): callers turn that into their own outcome.
 */
export async function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  const { request } = await loadUndici();
  return request(req.url, {
    method: req.method,
    headers: req.json === undefined ? req.headers : { 'content-type': 'application/json', ...req.headers },
    body: req.json === undefined ? null : JSON.stringify(req.json),
    headersTimeout: req.timeoutMs,
    bodyTimeout: req.timeoutMs,
    signal: AbortSignal.timeout(req.timeoutMs),
    ...(req.dispatcher ? { dispatcher: req.dispatcher } : {}),
  });
}

/** The body as parsed JSON when the response says JSON and it parses, else its text (at most `maxChars`); null when empty. */
export async function readJsonOrText(res: HttpResponse, maxChars = 2000): Promise<unknown> {
  const text = await res.body.text();
  if (text === '') return null;
  if (String(res.headers['content-type'] ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  return text.slice(0, maxChars);
}
