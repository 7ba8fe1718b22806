import { eventHandler, getRequestHeader, type EventHandler } from 'h3';
import { AppError } from '../errors.js';
import { INTERNAL_KEY_CHALLENGE, INTERNAL_KEY_HEADER, internalKeyMatches } from './internal-key.js';
import type { Metrics } from './metrics.js';

/** The key as a scraper sends it: the internal header, or `Authorization: Bearer <key>` for scrapers that can only send that. */
function presentedKey(authorization: string | undefined, header: string | undefined): string | undefined {
  if (header) return header;
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return m?.[1];
}

/** GET /metrics: the Prometheus text, closed (401) without the internal key; never cached. */
export function metricsHandler(metrics: Metrics, configuredKey: string | undefined): EventHandler {
  return eventHandler(async (event) => {
    const key = presentedKey(getRequestHeader(event, 'authorization'), getRequestHeader(event, INTERNAL_KEY_HEADER));
    if (!internalKeyMatches(configuredKey, key)) {
      throw new AppError('UNAUTHORIZED', `/metrics needs the internal key: the ${INTERNAL_KEY_HEADER} header or Authorization: Bearer <key>`, { challenge: INTERNAL_KEY_CHALLENGE });
    }
    const body = await metrics.registry.metrics();
    const res = event.node.res;
    res.setHeader('content-type', metrics.registry.contentType);
    res.setHeader('cache-control', 'no-store');
    return body;
  });
}
