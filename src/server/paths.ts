/** Request paths as the dispatch, the replay store and the Allow route read them (no h3, no state). */

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
