import type { FetchRequest } from './types.js';

/** Query parameters that carry credentials; never part of a key, a log line or a recording. */
export const CREDENTIAL_PARAMS = new Set(['apikey', 'api_key', 'key', 'token', 'access_token']);

/**
 * The identity of a request inside a replay folder: provider, origin+path, and the query
 * sorted by name with credentials removed. Recording and replaying compute it the same way.
 */
export function replayKey(request: Pick<FetchRequest, 'provider' | 'url'>): string {
  const url = new URL(request.url);
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !CREDENTIAL_PARAMS.has(name.toLowerCase()))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${request.provider} GET ${url.origin}${url.pathname}${query ? `?${query}` : ''}`;
}

/** A URL safe to print: credential parameters masked. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    for (const name of [...url.searchParams.keys()]) {
      if (CREDENTIAL_PARAMS.has(name.toLowerCase())) url.searchParams.set(name, '***');
    }
    return url.toString();
  } catch {
    return '[unparseable url]';
  }
}
