import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { AppError } from '../errors.js';

/**
 * The cheap signal that keeps noise away from OCR (issue 40): an image is thresholded to black and
 * white (the engine's own thresholding, the picture its layout analysis would see) and this counts
 * how often neighbouring pixels differ. A slip screenshot is mostly flat background with lines of
 * text: 0.7-3.4% of neighbour pairs differ over the 20 real screenshots of test/fixtures/slips
 * (5.3% for a 160 x 96 thumbnail). One-bit noise differs at 50%, noise of 2 x 2 and 4 x 4 blocks at
 * 25% and 12.5%, and those are what cost the engine most: a 4,999 x 4,999 noise PNG of 4 x 4 blocks
 * ran past 150 s, one of single pixels 61 s. Coarser noise (8 px blocks and up) looks like text to
 * any cheap count; the OCR budget stops it instead (ocr.ts).
 */

/** Over this share of differing neighbour pairs, the whole image is noise. */
export const NOISE_TRANSITIONS = 0.1;
/** A tile of this many pixels a side is busy when its own share passes NOISE_TRANSITIONS... */
const TILE = 64;
/** ...and an image with more than this share of busy tiles hides noise in part of it. */
export const NOISE_BUSY_TILES = 0.3;
/** The tile rule needs enough tiles to mean something (a 256 x 256 image has 16). */
const MIN_TILES = 16;
/** Rows looked at, at most: every k-th row past this many, so a 25 MP image costs what a 5 MP one does. */
const MAX_ROWS = 1024;
/** Rows per turn of the event loop, so a large image never holds it for long. */
const ROWS_PER_TURN = 64;

export interface NoiseStats {
  width: number;
  height: number;
  /** Share of neighbour pairs (across and down) that differ, over the rows looked at. */
  transitions: number;
  /** Share of tiles whose own transition share passes NOISE_TRANSITIONS. */
  busyTiles: number;
  rowsRead: number;
}

/** The image reads as noise, not a slip: refused before OCR (and counted like any parse). */
export class NoiseImageError extends AppError {
  constructor(stats: NoiseStats) {
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    super(
      'BAD_INPUT',
      `the image reads as noise, not a slip: ${pct(stats.transitions)} of neighbouring pixels differ once thresholded, ${pct(stats.busyTiles)} of its area is busy (a slip screenshot: under 4% and 10%); refused before OCR`,
      { details: { transitions: round4(stats.transitions), busyTiles: round4(stats.busyTiles), maxTransitions: NOISE_TRANSITIONS, maxBusyTiles: NOISE_BUSY_TILES } },
    );
  }
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

export function isNoise(stats: NoiseStats): boolean {
  return stats.transitions > NOISE_TRANSITIONS || stats.busyTiles > NOISE_BUSY_TILES;
}

const POPCOUNT = new Uint8Array(256).map((_, i) => {
  let c = 0;
  for (let v = i; v; v >>= 1) c += v & 1;
  return c;
});

const inflateAsync = promisify(inflate);

interface Bilevel {
  width: number;
  height: number;
  rowBytes: number;
  /** Rows of packed bits, each behind its PNG filter byte, filters undone. */
  raw: Uint8Array;
}

/** A 1-bit greyscale PNG (what the engine writes for its thresholded image) into packed rows. */
async function readBilevelPng(png: Buffer): Promise<Bilevel> {
  if (png.length < 33 || png.readUInt32BE(0) !== 0x89504e47 || png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (png[24] !== 1 || png[25] !== 0 || png[28] !== 0) throw new Error('not a 1-bit greyscale, non-interlaced PNG');
  const idat: Buffer[] = [];
  for (let i = 8; i + 8 <= png.length; ) {
    const len = png.readUInt32BE(i);
    if (png.toString('latin1', i + 4, i + 8) === 'IDAT') idat.push(png.subarray(i + 8, i + 8 + len));
    i += 12 + len;
  }
  // Inflated on libuv's thread pool, not on the event loop.
  const raw = new Uint8Array(await inflateAsync(Buffer.concat(idat)));
  const rowBytes = Math.ceil(width / 8);
  if (raw.length < (rowBytes + 1) * height) throw new Error('PNG data shorter than its rows');
  unfilter(raw, rowBytes, height);
  return { width, height, rowBytes, raw };
}

/** Undoes PNG row filters in place (one byte per filter step at 1 bit a pixel); the engine writes None, so this is one pass over H bytes. */
function unfilter(raw: Uint8Array, rowBytes: number, height: number): void {
  const stride = rowBytes + 1;
  for (let y = 0; y < height; y++) {
    const f = raw[y * stride]!;
    if (f === 0) continue;
    const o = y * stride + 1;
    const p = o - stride; // the row above (already unfiltered), or none for the first row
    for (let x = 0; x < rowBytes; x++) {
      const a = x > 0 ? raw[o + x - 1]! : 0;
      const b = y > 0 ? raw[p + x]! : 0;
      const c = x > 0 && y > 0 ? raw[p + x - 1]! : 0;
      let add = 0;
      if (f === 1) add = a;
      else if (f === 2) add = b;
      else if (f === 3) add = (a + b) >> 1;
      else if (f === 4) {
        const est = a + b - c;
        const pa = Math.abs(est - a);
        const pb = Math.abs(est - b);
        const pc = Math.abs(est - c);
        add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      raw[o + x] = (raw[o + x]! + add) & 0xff;
    }
    raw[y * stride] = 0;
  }
}

/**
 * The transition counts of a thresholded image (the engine's 1-bit PNG), every k-th row when it
 * has more than MAX_ROWS, yielding the event loop every ROWS_PER_TURN rows. A byte holds 8 pixels
 * and a tile is 8 bytes wide, so the inner loop is table look-ups and shifts only.
 */
export async function bilevelStats(png: Buffer): Promise<NoiseStats> {
  const { width, height, rowBytes, raw } = await readBilevelPng(png);
  const stride = rowBytes + 1;
  const step = Math.max(1, Math.ceil(height / MAX_ROWS));
  const tilesX = Math.ceil(rowBytes / (TILE / 8));
  const tilesY = Math.ceil(height / TILE);
  const tileFlips = new Int32Array(tilesX * tilesY);
  const tilePairs = new Int32Array(tilesX * tilesY);
  const last = rowBytes - 1;
  // The last byte of a row holds padding bits past the width: they are not pixels.
  const tailBits = width - last * 8;
  const tailMask = (0xff << (8 - tailBits)) & 0xff;
  const tailAcross = tailMask & ((tailMask << 1) & 0xff);
  let flips = 0;
  let pairs = 0;
  let rowsRead = 0;
  for (let y = 0; y < height; y += step) {
    const o = y * stride + 1;
    const down = y + 1 < height;
    const u = o + stride;
    const tileRow = ((y / TILE) | 0) * tilesX;
    for (let x = 0; x < last; x++) {
      const v = raw[o + x]!;
      // Across: each pixel against its right neighbour (the next byte's first bit for the eighth).
      let f = POPCOUNT[(v ^ ((v << 1) | (raw[o + x + 1]! >> 7))) & 0xff]!;
      if (down) f += POPCOUNT[v ^ raw[u + x]!]!;
      tileFlips[tileRow + (x >> 3)]! += f;
    }
    const v = raw[o + last]!;
    let f = POPCOUNT[(v ^ (v << 1)) & tailAcross]!;
    if (down) f += POPCOUNT[(v ^ raw[u + last]!) & tailMask]!;
    tileFlips[tileRow + (last >> 3)]! += f;
    // Pairs looked at in this row, per tile: 8 across (and 8 down) per full byte, fewer in the last.
    const perByte = down ? 16 : 8;
    const lastPairs = POPCOUNT[tailAcross]! + (down ? tailBits : 0);
    for (let t = 0; t < tilesX; t++) {
      const bytes = Math.min(TILE / 8, rowBytes - t * (TILE / 8));
      const n = t === tilesX - 1 ? (bytes - 1) * perByte + lastPairs : bytes * perByte;
      tilePairs[tileRow + t]! += n;
      pairs += n;
    }
    rowsRead += 1;
    if (rowsRead % ROWS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  for (let t = 0; t < tileFlips.length; t++) flips += tileFlips[t]!;
  let busy = 0;
  let tiles = 0;
  for (let t = 0; t < tileFlips.length; t++) {
    if (tilePairs[t]! === 0) continue;
    tiles += 1;
    if (tileFlips[t]! / tilePairs[t]! > NOISE_TRANSITIONS) busy += 1;
  }
  return { width, height, transitions: pairs ? flips / pairs : 0, busyTiles: tiles >= MIN_TILES ? busy / tiles : 0, rowsRead };
}

/** A data URL (`data:image/png;base64,...`) as the engine returns its images, to bytes. */
export function dataUrlBytes(url: string): Buffer {
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}
