import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { languageDataFolder } from '../../src/slips/ocr.js';
import { bilevelStats, dataUrlBytes, isNoise, NOISE_TRANSITIONS } from '../../src/slips/noise.js';
import { noisePng } from '../security/_noise.js';

/**
 * The noise count (src/slips/noise.ts) on what the engine itself thresholds: every real screenshot
 * of test/fixtures/slips passes with room to spare, and noise fine enough to cost the engine
 * minutes is refused. Coarse noise (8-pixel blocks) passes: the OCR budget is what stops it.
 */

const IMAGES = join(import.meta.dirname, '..', 'fixtures', 'slips', 'images');

interface Engine {
  recognize(image: Buffer, options: object, output: object): Promise<{ data: { imageBinary?: string | null } }>;
  terminate(): Promise<unknown>;
}
let engine: Engine;

async function thresholded(image: Buffer) {
  const { data } = await engine.recognize(image, {}, { text: false, imageBinary: true });
  return bilevelStats(dataUrlBytes(data.imageBinary ?? ''));
}

beforeAll(async () => {
  const { createWorker, OEM } = await import('tesseract.js');
  engine = (await createWorker('eng', OEM.LSTM_ONLY, { langPath: languageDataFolder(), gzip: true, cacheMethod: 'none' })) as unknown as Engine;
}, 60_000);

afterAll(async () => {
  await engine?.terminate();
});

describe('the noise count', { timeout: 120_000 }, () => {
  it('passes every real screenshot, each under half the noise line', async () => {
    const files = readdirSync(IMAGES).filter((f) => /\.(png|jpe?g)$/.test(f));
    expect(files).toHaveLength(20);
    for (const file of files) {
      const stats = await thresholded(readFileSync(join(IMAGES, file)));
      expect(stats.transitions, file).toBeLessThan(NOISE_TRANSITIONS / 2);
      expect(isNoise(stats), file).toBe(false);
    }
  });

  it('refuses one-bit noise of 1, 2 and 4 pixel blocks, at full size and at a phone screenshot size; 8-pixel blocks pass', async () => {
    for (const [w, h, block, noise] of [
      [4999, 4999, 1, true],
      [1290, 2796, 1, true],
      [1290, 2796, 2, true],
      [1290, 2796, 4, true],
      [1290, 2796, 8, false],
    ] as const) {
      const stats = await thresholded(noisePng(w, h, block));
      expect(isNoise(stats), `${w}x${h} blocks of ${block}`).toBe(noise);
      // The count looks at every k-th row, at most 1024 of them.
      expect(stats.rowsRead).toBeLessThanOrEqual(1024);
    }
  });

  it('finds noise hidden in part of an image by its busy tiles, where the whole-image share alone would pass', async () => {
    // 4-pixel-block noise (12.5% of neighbours differ) in the left 40% of a white page: 5% overall, under the line...
    const part = await thresholded(noisePng(1290, 2796, 4, 40, 516));
    expect(part.transitions).toBeLessThan(NOISE_TRANSITIONS);
    // ...but 40% of the tiles are busy: refused.
    expect(part.busyTiles).toBeGreaterThan(0.3);
    expect(isNoise(part)).toBe(true);
    // In the left sixth only, 17% of the tiles are busy: it passes (the budget is the backstop).
    const sixth = await thresholded(noisePng(1290, 2796, 4, 40, 215));
    expect(sixth.busyTiles).toBeGreaterThan(0.1);
    expect(isNoise(sixth)).toBe(false);
  });
});
