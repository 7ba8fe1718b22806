import type { H3Event } from 'h3';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { requestHeader } from './input.js';
import { viewCoding } from './negotiate.js';

/**
 * Compression of every JSON or HTML answer of COMPRESS_MIN_BYTES or more (issue 27), by the same
 * Accept-Encoding negotiation as the snapshot route's views (snapshot-cache.ts viewCoding: brotli
 * when the client takes it at least as much as gzip, else gzip, else the plain bytes; q-values as
 * RFC 9110 says). The snapshot route keeps its own cached, ETagged bodies and never comes here.
 */

/** Below this a compressed body saves less than the headers it adds. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Levels for bodies compressed on every request (the snapshot cache compresses once per snapshot
 * and can afford gzip 9 / brotli 9). Its own measurements on the bundled slate: brotli 5 takes a
 * 337 KB body to 11.8 KB in 2 ms, brotli 9 to 11.0 KB in 8 ms; a per-request body takes the cheap
 * level. gzip 6 is zlib's default, a third of level 9's time for a few per cent more bytes.
 */
const PER_REQUEST_BROTLI_QUALITY = 5;
const PER_REQUEST_GZIP_LEVEL = 6;

/** The compressed forms of a body, made on demand (static bodies keep them: see encodedOnce). */
export interface Encodings {
  gzip(): Buffer;
  br(): Buffer;
}

export function compressGzip(bytes: Buffer, level = PER_REQUEST_GZIP_LEVEL): Buffer {
  return gzipSync(bytes, { level });
}

export function compressBrotli(bytes: Buffer, quality = PER_REQUEST_BROTLI_QUALITY): Buffer {
  return brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
}

/** A fixed body's encodings, each made once at the top levels on first use (/openapi.json). */
export function encodedOnce(bytes: Buffer): Encodings {
  let gz: Buffer | null = null;
  let br: Buffer | null = null;
  return { gzip: () => (gz ??= compressGzip(bytes, 9)), br: () => (br ??= compressBrotli(bytes, 9)) };
}

/**
 * Ends the response with `bytes` in the coding the request negotiates, when the body is at least
 * COMPRESS_MIN_BYTES; returns false (nothing written) for a smaller body, which the caller sends
 * as before. Such an answer says Vary: Accept-Encoding whichever coding it took, since another
 * request could have had another. Content-Type is set only if the route has not set one. The
 * length is left to node (computed from the bytes, none on a HEAD), as for every other answer.
 */
export function sendNegotiated(event: H3Event, bytes: Buffer, contentType: string, encodings?: Encodings): boolean {
  if (bytes.length < COMPRESS_MIN_BYTES) return false;
  const res = event.node.res;
  res.appendHeader('vary', 'Accept-Encoding');
  if (!res.hasHeader('content-type')) res.setHeader('content-type', contentType);
  const coding = viewCoding(requestHeader(event, 'accept-encoding'));
  if (coding === 'identity') {
    res.end(bytes);
    return true;
  }
  res.setHeader('content-encoding', coding);
  res.end(coding === 'br' ? (encodings?.br() ?? compressBrotli(bytes)) : (encodings?.gzip() ?? compressGzip(bytes)));
  return true;
}
