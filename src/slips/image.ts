import { AppError, badInput } from '../errors.js';
import { declaredSize, declaredSizeSoFar, type ImageKind, type ImageSize } from './image-size.js';

export type { ImageKind } from './image-size.js';

/** Uploads above this are refused before any decoding (spec: upload cap 4 MB). */
export const UPLOAD_CAP_BYTES = 4 * 1024 * 1024;

/**
 * The pixel budget of one image, checked on the size its header declares before OCR decodes it
 * (docs/reliability.md "Security suite"). 25 megapixels holds any phone or desktop screenshot up to
 * 5K (5120 x 2880 = 14.7 MP); decoded it is at most 100 MB of RGBA. The side limit keeps an extreme
 * strip (1 x 25,000,000) out too while leaving room for a long scrolling screenshot (1290 x 10000).
 */
export const MAX_IMAGE_PIXELS = 25_000_000;
export const MAX_IMAGE_SIDE = 10_000;

export interface ImageInfo {
  kind: ImageKind;
  width: number;
  height: number;
}

const LABEL: Record<ImageKind, string> = { png: 'PNG', jpeg: 'JPEG', gif: 'GIF', bmp: 'BMP', webp: 'WebP', tiff: 'TIFF' };

/** Recognises an image by its magic bytes; null for anything else. */
export function sniffImage(buf: Uint8Array): ImageKind | null {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 2 && b.toString('latin1', 0, 2) === 'BM') return 'bmp';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 4 && (b.toString('latin1', 0, 4) === 'II*\u0000' || b.toString('latin1', 0, 4) === 'MM\u0000*')) return 'tiff';
  return null;
}

const NOT_AN_IMAGE = 'not an image: expected PNG, JPEG, GIF, BMP, WebP or TIFF (use --text for pasted slip text)';

/** Bytes enough to tell every accepted kind by its magic (WebP's RIFF....WEBP is the longest). */
export const SNIFF_BYTES = 12;

/** TOO_LARGE when a declared size breaks the pixel budget; the header's own words in the details. */
function checkBudget({ width, height }: ImageSize): void {
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new AppError(
      'TOO_LARGE',
      `image declares ${width} x ${height} pixels (${(width * height / 1e6).toFixed(1)} megapixels); the limit is ${MAX_IMAGE_PIXELS / 1e6} megapixels and ${MAX_IMAGE_SIDE} pixels a side`,
      { details: { width, height, maxPixels: MAX_IMAGE_PIXELS, maxSide: MAX_IMAGE_SIDE } },
    );
  }
}

/**
 * The verdict on an upload's first bytes, while the rest is still arriving: not an image (BAD_INPUT)
 * once SNIFF_BYTES are in, or a header already declaring more than the pixel budget (TOO_LARGE).
 * Null while the bytes decide nothing yet; the kind once they name one. checkImage still judges the
 * whole file (a GIF frame or a TIFF page further on may declare more).
 */
export function judgeFirstBytes(prefix: Uint8Array): ImageKind | null {
  if (prefix.byteLength < SNIFF_BYTES) return null;
  const kind = sniffImage(prefix);
  if (!kind) throw badInput(NOT_AN_IMAGE);
  const size = declaredSizeSoFar(prefix, kind);
  if (size) checkBudget(size);
  return kind;
}

/**
 * Refuses what OCR cannot or must not read: over the upload cap or the pixel budget (TOO_LARGE),
 * not an image, or an image whose header declares no readable size (BAD_INPUT). Decoding errors
 * inside OCR are mapped separately.
 */
export function checkImage(buf: Uint8Array): ImageInfo {
  if (buf.byteLength > UPLOAD_CAP_BYTES) {
    throw new AppError('TOO_LARGE', `image is ${(buf.byteLength / 1048576).toFixed(1)} MB; the upload cap is 4 MB`);
  }
  if (buf.byteLength === 0) throw badInput('the image is empty');
  const kind = sniffImage(buf);
  if (!kind) throw badInput(NOT_AN_IMAGE);
  const size = declaredSize(buf, kind);
  if (!size || size.width === 0 || size.height === 0) throw badInput(`corrupt ${LABEL[kind]} image: its header has no readable size`);
  checkBudget(size);
  return { kind, width: size.width, height: size.height };
}
