import type { H3Event } from 'h3';
import { requestHeader } from './input.js';

/**
 * CORS for the one configured origin (the browser-facing proxy). Other origins get no CORS
 * headers, so browsers refuse them; no origin configured means no CORS at all. A preflight
 * (OPTIONS) is answered here, 204. Run by the app's one middleware (app.ts), after the security headers.
 */
export function corsFor(allowedOrigin: string | undefined): (event: H3Event) => void {
  const configured = allowedOrigin !== undefined && allowedOrigin !== '';
  return (event) => {
    const res = event.node.res;
    const origin = requestHeader(event, 'origin');
    const allowed = configured && origin === allowedOrigin;
    if (allowed) {
      res.setHeader('access-control-allow-origin', allowedOrigin);
      res.setHeader('access-control-expose-headers', 'ETag, Retry-After, x-onboarding-required');
    }
    // With an origin configured, whether the answer carries CORS headers depends on the request's
    // Origin: every answer says so, or a shared cache could hand one stored for a request without
    // Origin (no CORS headers) to the browser (Fetch standard, "CORS protocol and HTTP caches").
    if (configured) res.appendHeader('vary', 'Origin');
    if (event.method === 'OPTIONS') {
      if (allowed) {
        res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
        res.setHeader('access-control-allow-headers', 'Authorization, Content-Type, If-None-Match');
        res.setHeader('access-control-max-age', '600');
      }
      res.statusCode = 204;
      res.end();
    }
  };
}
