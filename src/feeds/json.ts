import type { FeedLogger } from './transport/log.js';
import type { ProviderId, Transport } from './transport/types.js';

/** What adapters log through: the transport layer's FeedLogger (adapters only ever warn). */
export type AdapterLog = FeedLogger;

/** Parses a response body as JSON; a non-JSON body is null plus a warning, never a throw. */
export function readJson(body: string, what: string, log?: AdapterLog): unknown {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    log?.warn(`${what}: body is not JSON`, { bytes: body.length, head: body.slice(0, 80) });
    return null;
  }
}

/** GET a JSON document through the transport; unavailable or non-JSON data is null plus a warning. */
export async function fetchJson(
  transport: Transport,
  provider: ProviderId,
  url: string,
  what: string,
  log?: AdapterLog,
): Promise<unknown> {
  const outcome = await transport.fetch({ provider, url, accept: 'json' });
  if (!outcome.ok) {
    log?.warn(`${what}: unavailable`, { url, status: outcome.status, reason: outcome.reason });
    return null;
  }
  return readJson(outcome.body, what, log);
}
