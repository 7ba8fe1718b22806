import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { SlipReader } from '../../src/slips/ocr.js';
import { readSlipImage } from '../../src/slips/reader.js';
import { slipResultSchema } from '../../src/slips/schema.js';
import { bookOf, IMAGES, PINS } from './pins.js';
import { FIXTURES, loadTruth, tally, type Tally } from './score.js';

/**
 * Slow: every real screenshot through the real OCR engine (one worker for all 20, offline data).
 * About 15 s on a 2-core machine; the rest of the suite runs on recorded word boxes instead.
 */
const LONG = 240_000;

describe('OCR of the 20 real slips', { timeout: LONG }, () => {
  const reader = new SlipReader();
  const perBook = new Map<string, Tally>();
  const timings: Array<[string, number]> = [];

  beforeAll(async () => {
    await reader.start();
  }, LONG);
  afterAll(async () => {
    await reader.close();
  });

  it('reads every image with no unflagged wrong field and per-book figures at or above the pins', async () => {
    for (const image of IMAGES) {
      const result = await readSlipImage(reader, readFileSync(join(FIXTURES, 'images', image)));
      slipResultSchema.parse(result);
      timings.push([image, result.ocr!.ms]);
      const t = tally(result, loadTruth(image.replace(/\.(png|jpg)$/, '')));
      expect(t.wrongFields, image).toEqual([]);
      const acc = perBook.get(bookOf(image)) ?? { correct: 0, flagged: 0, missed: 0, wrong: 0, wrongFields: [] };
      tally(result, loadTruth(image.replace(/\.(png|jpg)$/, '')), acc);
      perBook.set(bookOf(image), acc);
    }
    for (const [book, pin] of Object.entries(PINS)) {
      const t = perBook.get(book)!;
      expect(t.wrong, book).toBe(0);
      expect(t.correct, book).toBeGreaterThanOrEqual(pin.correct);
      expect(t.flagged, book).toBeLessThanOrEqual(pin.flagged);
      expect(t.missed, book).toBeLessThanOrEqual(pin.missed);
    }
    expect(timings).toHaveLength(20);
    expect(timings.every(([, ms]) => ms > 0)).toBe(true);
  });

  it('a corrupt image is a clear BAD_INPUT and the worker keeps working', async () => {
    const good = readFileSync(join(FIXTURES, 'images', 'dk_app_bet_placed_prop_light.png'));
    const broken = Buffer.concat([good.subarray(0, 40), Buffer.alloc(3000, 7)]);
    const error = await reader.read(broken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('BAD_INPUT');
    expect((error as AppError).message).toMatch(/corrupt or unreadable PNG/);
    const again = await reader.read(good);
    expect(again.page.words.map((w) => w.text)).toContain('Receptions');
  });

  it('a worker that does not start in time is a clear UNAVAILABLE error, not a hang', async () => {
    const slow = new SlipReader({ startTimeoutMs: 1 });
    const error = await slow.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAVAILABLE');
    expect((error as AppError).message).toMatch(/did not start within 1 ms/);
    await slow.close();
  });
});
