/**
 * The pixel size an image's header declares, read before anything decodes it: a 400 KB file can
 * declare 20000 x 20000 pixels, and the decoder allocates what the header says. Each reader walks
 * only headers and segment lengths (bounded by the file, at most the 4 MB upload cap) and answers
 * null when the header cannot be read; it never guesses. Where a file can declare more than one
 * size (GIF frames, TIFF pages, JPEG frame headers) the largest width and largest height count.
 */

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp' | 'tiff';

export interface ImageSize {
  width: number;
  height: number;
}

type Reader = (b: Buffer) => ImageSize | null;

function larger(a: ImageSize | null, b: ImageSize): ImageSize {
  return a ? { width: Math.max(a.width, b.width), height: Math.max(a.height, b.height) } : b;
}

/** IHDR must be the first chunk (PNG spec 5.6); APNG frames must fit inside it. */
const png: Reader = (b) => {
  if (b.length < 24 || b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
};

/** SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC): the frame headers, baseline, progressive or lossless. */
const isFrameHeader = (m: number): boolean => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/**
 * Walks the marker segments by their lengths up to the first scan (SOS), so an EXIF thumbnail,
 * which sits inside an APP1 segment with its own SOF, is skipped rather than read as the frame.
 * With `soFar` a walk cut short by the end of the bytes answers the frames found before it (the
 * first bytes of an upload still streaming in); otherwise a truncated walk is unreadable: null.
 */
function walkJpeg(b: Buffer, soFar: boolean): ImageSize | null {
  let found: ImageSize | null = null;
  const cut = () => (soFar ? found : null);
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) {
      i += 1; // extraneous bytes between segments: libjpeg skips to the next 0xFF too
      continue;
    }
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte before a marker
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2; // standalone markers carry no length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    if (i + 4 > b.length) return cut();
    const len = b.readUInt16BE(i + 2);
    if (len < 2) return null;
    if (isFrameHeader(marker)) {
      if (len < 8) return null;
      if (i + 9 > b.length) return cut();
      found = larger(found, { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) });
    }
    i += 2 + len;
  }
  return found;
}

const jpeg: Reader = (b) => walkJpeg(b, false);

/** Sub-blocks after an extension or image data: length-prefixed, ended by a zero length. */
function skipSubBlocks(b: Buffer, at: number): number {
  let i = at;
  while (i < b.length && b[i] !== 0) i += 1 + b[i]!;
  return i + 1;
}

/** The logical screen and every frame descriptor (a frame may reach past the screen). */
const gif: Reader = (b) => {
  if (b.length < 13) return null;
  let found: ImageSize = { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  const packed = b[10]!;
  let i = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  while (i < b.length) {
    const block = b[i]!;
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      i = skipSubBlocks(b, i + 2);
    } else if (block === 0x2c) {
      if (i + 10 > b.length) return null;
      const left = b.readUInt16LE(i + 1);
      const top = b.readUInt16LE(i + 3);
      found = larger(found, { width: left + b.readUInt16LE(i + 5), height: top + b.readUInt16LE(i + 7) });
      const local = b[i + 9]!;
      i += 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0);
      i = skipSubBlocks(b, i + 1); // LZW minimum code size, then the data
    } else {
      break; // the decoder stops here too
    }
  }
  return found;
};

/** BITMAPCOREHEADER (12 bytes, unsigned 16-bit sizes) or BITMAPINFOHEADER and later (signed 32-bit; negative height is top-down). */
const bmp: Reader = (b) => {
  if (b.length < 26) return null;
  const header = b.readUInt32LE(14);
  if (header === 12) return { width: b.readUInt16LE(18), height: b.readUInt16LE(20) };
  if (header < 40) return null;
  const width = b.readInt32LE(18);
  const height = b.readInt32LE(22);
  if (width <= 0) return null;
  return { width, height: Math.abs(height) };
};

/** The first chunk says which bitstream: VP8 (lossy), VP8L (lossless) or VP8X (extended: the canvas). */
const webp: Reader = (b) => {
  if (b.length < 30) return null;
  const chunk = b.toString('latin1', 12, 16);
  const d = 20;
  if (chunk === 'VP8 ') {
    if (b[d + 3] !== 0x9d || b[d + 4] !== 0x01 || b[d + 5] !== 0x2a) return null;
    return { width: b.readUInt16LE(d + 6) & 0x3fff, height: b.readUInt16LE(d + 8) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[d] !== 0x2f) return null;
    const bits = b.readUInt32LE(d + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(d + 4, 3) + 1, height: b.readUIntLE(d + 7, 3) + 1 };
  return null;
};

/** IFDs (pages) walked at most this far; a longer or looping chain is not sized. */
const MAX_TIFF_PAGES = 256;

/**
 * ImageWidth (256) and ImageLength (257), SHORT or LONG, in every IFD of the chain, in the byte
 * order the header names. BigTIFF (version 43) is not read: null.
 */
const tiff: Reader = (b) => {
  if (b.length < 8) return null;
  const le = b[0] === 0x49;
  const u16 = (at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  let found: ImageSize | null = null;
  const seen = new Set<number>();
  let ifd = u32(4);
  while (ifd !== 0) {
    if (seen.has(ifd) || seen.size >= MAX_TIFF_PAGES || ifd + 2 > b.length) return null;
    seen.add(ifd);
    const count = u16(ifd);
    if (ifd + 2 + count * 12 + 4 > b.length) return null;
    let width: number | null = null;
    let height: number | null = null;
    for (let e = 0; e < count; e++) {
      const at = ifd + 2 + e * 12;
      const tag = u16(at);
      if (tag !== 256 && tag !== 257) continue;
      const type = u16(at + 2);
      const value = type === 3 ? u16(at + 8) : type === 4 ? u32(at + 8) : null;
      if (value === null) return null;
      if (tag === 256) width = value;
      else height = value;
    }
    if (width === null || height === null) return null;
    found = larger(found, { width, height });
    ifd = u32(ifd + 2 + count * 12);
  }
  return found;
};

const READERS: Record<ImageKind, Reader> = { png, jpeg, gif, bmp, webp, tiff };

/** The size `kind`'s header declares, or null when it cannot be read. */
export function declaredSize(buf: Uint8Array, kind: ImageKind): ImageSize | null {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  return READERS[kind](b);
}

/**
 * The largest size the first bytes of a `kind` file already declare, or null when they do not yet
 * reach one: read while an upload is still arriving, so a budget the header breaks is refused
 * before the rest is read. Sizes only grow with more bytes (every reader keeps the largest), so
 * what this finds is a lower bound of declaredSize on the whole file. PNG, BMP and WebP declare
 * their one size in the first 30 bytes; a GIF its screen in 13 (frames come later); a JPEG every
 * frame header met before the cut; a TIFF's pages only when its IFDs lie within the bytes.
 */
export function declaredSizeSoFar(prefix: Uint8Array, kind: ImageKind): ImageSize | null {
  const b = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  if (kind === 'jpeg') return walkJpeg(b, true);
  if (kind === 'gif') return b.length >= 10 ? { width: b.readUInt16LE(6), height: b.readUInt16LE(8) } : null;
  return READERS[kind](b);
}
