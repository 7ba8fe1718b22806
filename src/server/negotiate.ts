/**
 * Conditional and content-coding negotiation of the snapshot route (and every compressed answer,
 * compress.ts): If-None-Match matching and the Accept-Encoding rules of RFC 9110.
 */

/** If-None-Match matching (weak comparison, as RFC 9110 prescribes for this header). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** RFC 9110 qvalue: 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The weight of each coding an Accept-Encoding header lists (names lower-cased). A malformed
 * weight counts as 0, and a coding listed twice keeps its lowest weight: when the header is
 * unclear the plain bytes, which every client reads, are the safe answer.
 */
function codingWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name = '', ...params] = item.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(\S*)\s*$/i.exec(param);
      if (m) q = QVALUE.test(m[1] ?? '') ? Number(m[1]) : 0;
    }
    weights.set(coding, Math.min(q, weights.get(coding) ?? 1));
  }
  return weights;
}

/**
 * The coding a view answers in: brotli when the client accepts it at least as much as gzip, else
 * gzip when accepted (acceptsGzip's rules), else the plain bytes. Weights follow RFC 9110 as for gzip.
 */
export function viewCoding(header: string | undefined): 'br' | 'gzip' | 'identity' {
  if (header === undefined) return 'identity';
  return negotiated(header).view;
}

/**
 * Whether a request's Accept-Encoding lets us answer in gzip (RFC 9110 §12.5.3): `gzip` (or its
 * alias `x-gzip`, or `*` when gzip is not named) with a weight above 0, and not below a weight the
 * header gives identity (named, or through `*`). No header means the plain bytes, as before.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return negotiated(header).gzip;
}

interface Negotiated {
  gzip: boolean;
  view: 'br' | 'gzip' | 'identity';
}

function negotiate(header: string): Negotiated {
  const weights = codingWeights(header);
  // A coding the header does not name, with no '*', is not acceptable: weight 0 (RFC 9110 §12.5.3).
  const gzipWeight = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0;
  const identity = weights.get('identity') ?? weights.get('*');
  const gzip = gzipWeight > 0 && (identity === undefined || gzipWeight >= identity);
  const br = weights.get('br') ?? weights.get('*') ?? 0;
  const gzipForBr = gzip ? gzipWeight : 0;
  const view = br > 0 && (identity === undefined || br >= identity) && br >= gzipForBr ? 'br' : gzip ? 'gzip' : 'identity';
  return { gzip, view };
}

/**
 * Both answers for an Accept-Encoding string, parsed once per distinct string: a client sends the
 * same header on every poll, and browsers a handful of strings between them. Bounded (oldest
 * dropped first), and a long header is parsed every time rather than kept.
 */
const NEGOTIATED_KEPT = 64;
const NEGOTIATED_MAX_LENGTH = 256;
const negotiatedByHeader = new Map<string, Negotiated>();

function negotiated(header: string): Negotiated {
  const known = negotiatedByHeader.get(header);
  if (known) return known;
  const fresh = negotiate(header);
  if (header.length <= NEGOTIATED_MAX_LENGTH) {
    if (negotiatedByHeader.size >= NEGOTIATED_KEPT) negotiatedByHeader.delete(negotiatedByHeader.keys().next().value as string);
    negotiatedByHeader.set(header, fresh);
  }
  return fresh;
}
