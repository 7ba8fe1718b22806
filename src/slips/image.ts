import { AppError, badInput } from '../errors.js';

/** Uploads above this are refused before any decoding (spec: upload cap 4 MB). */
export const UPLOAD_CAP_BYTES = 4 * 1024 * 1024;

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp' | 'tiff';

export interface ImageInfo {
  kind: ImageKind;
  width: number | null;
  height: number | null;
}

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

/** PNG and JPEG sizes from their headers; other kinds report null (never a guessed size). */
function dimensions(b: Buffer, kind: ImageKind): { width: number; height: number } | null {
  if (kind === 'png') {
    if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (kind === 'jpeg') {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1] ?? 0;
      const len = b.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      }
      i += 2 + len;
    }
    return null;
  }
  return null;
}

/**
 * Refuses what OCR cannot or must not read: over the upload cap (TOO_LARGE), not an image, or an
 * image whose header is broken (BAD_INPUT). Decoding errors inside OCR are mapped separately.
 */
export function checkImage(buf: Uint8Array): ImageInfo {
  if (buf.byteLength > UPLOAD_CAP_BYTES) {
    throw new AppError('TOO_LARGE', `image is ${(buf.byteLength / 1048576).toFixed(1)} MB; the upload cap is 4 MB`);
  }
  if (buf.byteLength === 0) throw badInput('the image is empty');
  const kind = sniffImage(buf);
  if (!kind) throw badInput('not an image: expected PNG, JPEG, GIF, BMP, WebP or TIFF (use --text for pasted slip text)');
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const dims = dimensions(b, kind);
  if ((kind === 'png' || kind === 'jpeg') && (!dims || dims.width === 0 || dims.height === 0)) {
    throw badInput(`corrupt ${kind.toUpperCase()} image: its header has no readable size`);
  }
  return { kind, width: dims?.width ?? null, height: dims?.height ?? null };
}
