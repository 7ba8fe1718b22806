import { crc32, createDeflate } from 'node:zlib';

/**
 * Image bombs built in the test: small files whose headers declare huge pixel counts. The PNGs are
 * real (zlib-deflated rows of zeros that decode to the declared size); the other formats carry a
 * real header and a token payload, because the server must refuse them from the header alone.
 */

/** A PNG chunk: length, type, data and the CRC-32 of type and data (zlib's). */
export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Every row (filter byte 0, then zero samples) through one deflate stream, a row at a time. */
async function deflateZeroRows(rowBytes: number, rows: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const row = Buffer.alloc(rowBytes + 1);
  for (let i = 0; i < rows; i++) {
    if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** A one-colour PNG (black) that really decodes to width x height: grey (1 byte a pixel) or RGB (3). */
export async function pngBomb(width: number, height: number, colour: 'grey' | 'rgb'): Promise<Buffer> {
  const channels = colour === 'grey' ? 1 : 3;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = colour === 'grey' ? 0 : 2; // colour type
  const idat = await deflateZeroRows(width * channels, height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function jpegSegment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** A baseline (0xc0) or progressive (0xc2) frame header: 8-bit, one component. */
function sof(marker: number, width: number, height: number): Buffer {
  const body = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  body.writeUInt16BE(height, 1);
  body.writeUInt16BE(width, 3);
  return jpegSegment(marker, body);
}

/**
 * A JPEG declaring width x height. With `thumbnail`, an EXIF APP1 segment first carries a small
 * embedded JPEG (160 x 120), the trap for a reader that scans for the first SOF byte pattern.
 */
export function jpegBomb(width: number, height: number, options: { progressive?: boolean; thumbnail?: boolean } = {}): Buffer {
  const parts = [Buffer.from([0xff, 0xd8]), jpegSegment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'))];
  if (options.thumbnail) {
    const thumb = Buffer.concat([Buffer.from([0xff, 0xd8]), sof(0xc0, 160, 120), Buffer.from([0xff, 0xd9])]);
    parts.push(jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.alloc(32), thumb])));
  }
  parts.push(jpegSegment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])));
  parts.push(sof(options.progressive ? 0xc2 : 0xc0, width, height));
  parts.push(jpegSegment(0xc4, Buffer.concat([Buffer.from([0, 0, 1]), Buffer.alloc(14), Buffer.from([0])])));
  parts.push(jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])));
  parts.push(Buffer.alloc(1024, 0), Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

/** A GIF whose logical screen is `screen` and whose one frame is `frame` (a frame may exceed its screen). */
export function gifBomb(screen: [number, number], frame: [number, number]): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(screen[0], 6);
  head.writeUInt16LE(screen[1], 8);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(frame[0], 5);
  descriptor.writeUInt16LE(frame[1], 7);
  // LZW minimum code size 2, one data sub-block, the block terminator, then the trailer.
  return Buffer.concat([head, descriptor, Buffer.from([2, 2, 0x4c, 0x01, 0, 0x3b])]);
}

/** A 24-bit BMP with a BITMAPINFOHEADER; a negative height is a top-down bitmap. Pixel data is cut short. */
export function bmpBomb(width: number, height: number): Buffer {
  const b = Buffer.alloc(54 + 1024);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

function riff(chunk: string, data: Buffer, extra: Buffer[] = []): Buffer {
  const head = Buffer.alloc(8);
  head.write(chunk, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), head, data, ...extra]);
  const file = Buffer.alloc(8);
  file.write('RIFF', 0, 'latin1');
  file.writeUInt32LE(body.length, 4);
  return Buffer.concat([file, body]);
}

/** A WebP of each bitstream kind declaring width x height (VP8 and VP8L top out at 16383 a side). */
export function webpBomb(kind: 'VP8' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  if (kind === 'VP8') {
    const d = Buffer.alloc(30);
    d[0] = 0x10; // key frame, version 0, shown
    d.set([0x9d, 0x01, 0x2a], 3);
    d.writeUInt16LE(width & 0x3fff, 6);
    d.writeUInt16LE(height & 0x3fff, 8);
    return riff('VP8 ', d);
  }
  if (kind === 'VP8L') {
    const d = Buffer.alloc(30);
    d[0] = 0x2f;
    d.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
    return riff('VP8L', d);
  }
  const d = Buffer.alloc(10);
  d.writeUIntLE(width - 1, 4, 3);
  d.writeUIntLE(height - 1, 7, 3);
  const small = Buffer.alloc(30);
  small[0] = 0x2f; // a 1 x 1 VP8L frame inside the huge canvas
  const inner = Buffer.alloc(8);
  inner.write('VP8L', 0, 'latin1');
  inner.writeUInt32LE(small.length, 4);
  return riff('VP8X', d, [inner, small]);
}

/** A TIFF in either byte order whose first IFD declares width x height (LONG values), 8-bit grey strips cut short. */
export function tiffBomb(order: 'II' | 'MM', width: number, height: number): Buffer {
  const le = order === 'II';
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, width],
    [257, 4, height],
    [258, 3, 8],
    [259, 3, 1],
    [262, 3, 1],
    [273, 4, 8 + 2 + 6 * 12 + 4],
    [278, 4, height],
    [279, 4, width * height],
  ].map(([t, ty, v]) => [t!, ty!, v!] as [number, number, number]);
  const b = Buffer.alloc(8 + 2 + entries.length * 12 + 4 + 256);
  const u16 = (v: number, at: number) => (le ? b.writeUInt16LE(v, at) : b.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (le ? b.writeUInt32LE(v >>> 0, at) : b.writeUInt32BE(v >>> 0, at));
  b.write(order, 0, 'latin1');
  u16(42, 2);
  u32(8, 4);
  u16(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    u16(tag, at);
    u16(type, at + 2);
    u32(1, at + 4);
    if (type === 3) u16(value, at + 8);
    else u32(value, at + 8);
  });
  u32(0, 10 + entries.length * 12);
  return b;
}
