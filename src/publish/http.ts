import { httpRequest, readJsonOrText } from '../feeds/transport/http.js';

/**
 * The outbound adapters' call (listmonk, the notify webhook) over the one HTTP primitive
 * (src/feeds/transport/http.ts): JSON in, status and parsed body out, a hard wall-clock timeout,
 * and a network failure reported as a result instead of thrown, so each adapter decides what a
 * failure means for its caller.
 */

export interface OutboundResponse {
  status: number;
  /** Parsed JSON when the body was JSON, else the text (at most 2,000 characters); null when empty. */
  body: unknown;
}

export type OutboundResult = { ok: true; response: OutboundResponse } | { ok: false; error: string };

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** Milliseconds for the whole exchange; default 10 s. */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

export async function sendJson(req: OutboundRequest): Promise<OutboundResult> {
  try {
    const res = await httpRequest({
      method: req.method,
      url: req.url,
      headers: { accept: 'application/json', ...req.headers },
      json: req.json,
      timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    return { ok: true, response: { status: res.statusCode, body: await readJsonOrText(res) } };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** Basic auth header value. */
export function basicAuth(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`, 'utf8').toString('base64')}`;
}

/** A platform's error text from its JSON body (`message`, or Ghost's `errors[0].message`), cut short. */
export function upstreamMessage(body: unknown): string | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return body.slice(0, 200);
  if (typeof body === 'object') {
    const b = body as { message?: unknown; errors?: Array<{ message?: unknown }> };
    if (typeof b.message === 'string') return b.message.slice(0, 200);
    const first = Array.isArray(b.errors) ? b.errors[0] : undefined;
    if (first && typeof first.message === 'string') return first.message.slice(0, 200);
  }
  return null;
}
