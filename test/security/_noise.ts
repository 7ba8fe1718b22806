import { deflateSync } from 'node:zlib';
import { pngChunk as chunk } from './_bombs.js';

/**
 * Noise images built in the test, the same bytes every run (a seeded PRNG), instead of committed
 * multi-megabyte files: a one-bit greyscale PNG of width x height whose pixels are random black or
 * white in square blocks of `block` pixels. Block 1 at 4,999 x 4,999 is the issue 40 image (3.1 MB,
 * under the 25 MP budget; 61 s of OCR before). Block 8 thresholds to text-like blobs the cheap
 * noise count lets through, and costs the engine far more than a slip: the case for the budget.
 */

/** mulberry32: a small seeded PRNG, so the noise is the same every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `noiseColumns`: only the columns left of it are noise, the rest white (noise hidden in part of a page). */
export function noisePng(width: number, height: number, block = 1, seed = 40, noiseColumns = width): Buffer {
  const random = prng(seed);
  const rowBytes = Math.ceil(width / 8);
  const raw = Buffer.alloc((rowBytes + 1) * height); // filter byte 0 (None) on every row
  const cells = new Uint8Array(Math.ceil(width / block));
  for (let y = 0; y < height; y++) {
    if (y % block === 0) for (let i = 0; i < cells.length; i++) cells[i] = random() < 0.5 ? 1 : 0;
    const row = y * (rowBytes + 1) + 1;
    for (let x = 0; x < width; x++) if (x >= noiseColumns || cells[(x / block) | 0]) raw[row + (x >> 3)]! |= 0x80 >> (x & 7);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
