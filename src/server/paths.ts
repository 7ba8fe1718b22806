/** Request paths as the dispatch, the replay store and the Allow route read them (no h3, no state). */
import { TOKEN_SHAPE } from '../log.js';

/** A path every segment of which stands for itself (no parameter, wildcard or escape). */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_.~-]+)+$/;

/**
 * Whether h3's router (radix3) keeps `path` as a static route, found with one map lookup, and
 * h3's app hands it to the router unchanged (no `%`, so decoding the path is the identity).
 */
export function isPlainPath(path: string): boolean {
  return PLAIN_PATH.test(path);
}

/** The path of a request target (no query), as h3's router looks it up. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The longest path a log line shows; the rest is cut with an ellipsis. */
const MAX_LOGGED_PATH = 200;

/** A path segment or query key, or `[redacted]` when it holds an API token, as sent or percent-decoded. */
function scrubbed(piece: string): string {
  let decoded = piece;
  try {
    decoded = decodeURIComponent(piece);
  } catch {
    // A malformed escape stays as sent; the raw text is still checked.
  }
  return TOKEN_SHAPE.test(piece) || TOKEN_SHAPE.test(decoded) ? '[redacted]' : piece;
}

/**
 * The path as a log line shows it: the query string's values are dropped (a token or key passed
 * as `?token=...` never reaches the log), its keys kept; a segment or key holding an API token
 * (`/api/stats/player/pg_...`, `?pg_...`, escaped or not) is `[redacted]`; control characters are
 * escaped.
 */
export function loggedPath(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  const path = (q < 0 ? raw : raw.slice(0, q)).split('/').map(scrubbed).join('/');
  const keys =
    q < 0
      ? []
      : raw
          .slice(q + 1)
          .split('&')
          .map((pair) => scrubbed(pair.split('=')[0] ?? ''))
          .filter((k) => k.length > 0);
  const shown = keys.length > 0 ? `${path}?${keys.join('&')}` : path;
  const cut = shown.length > MAX_LOGGED_PATH ? `${shown.slice(0, MAX_LOGGED_PATH)}...` : shown;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what the log line must not carry raw
  return cut.replace(/[\u0000-\u001f\u007f\s]/g, (c) => encodeURIComponent(c));
}
