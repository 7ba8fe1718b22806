import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { SLIP_PARSE_KIND } from '../../src/server/routes/slips.js';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, UPLOAD_CAP_BYTES } from '../../src/slips/image.js';
import { usageEvents } from '../../src/store/schema.js';
import { seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';
import { bmpBomb, gifBomb, jpegBomb, pngBomb, tiffBomb, webpBomb } from './_bombs.js';

/**
 * Image bombs (issue 32): files of a few hundred KB whose headers declare hundreds of megapixels.
 * Before the pixel budget, the 20000 x 20000 one-colour PNG took 22 s of OCR and left the server
 * at 1.4 GB RSS (docs/reliability.md "Security suite"). Each must now be a 413 before OCR starts.
 * The server runs in this process, so process RSS is the server's.
 */

const MB = 1024 * 1024;
const HR_PNG = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'slips', 'images', 'hr_app_parlay_moneyline_light.png'));

let seeded: Seeded;
let api: Running;
const bombs: Array<[name: string, bytes: Buffer]> = [];

async function user(email: string, tier: 'free' | 'desk') {
  const made = await createUser(seeded.store, { email, tier }, seeded.now);
  return { id: made.user.id, token: made.token };
}

function usageCount(id: number): number {
  return seeded.store.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.subject, `user:${id}`), eq(usageEvents.kind, SLIP_PARSE_KIND)))
    .all().length;
}

async function upload(token: string, image: Uint8Array, filename: string) {
  const form = new FormData();
  form.set('image', new Blob([image]), filename);
  const started = performance.now();
  const res = await fetch(`${api.base}/api/slips/parse`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const json = (await res.json()) as { error?: { code: string; message: string; details?: Record<string, number> } };
  return { status: res.status, json, ms: performance.now() - started };
}

beforeAll(async () => {
  seeded = await seedStore();
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => seeded.now });
  // Real PNGs: deflated zero rows that decode to the full size.
  bombs.push(['png grey 20000x20000', await pngBomb(20000, 20000, 'grey')]);
  bombs.push(['png rgb 20000x20000', await pngBomb(20000, 20000, 'rgb')]);
  bombs.push(
    ['jpeg 60000x60000 behind a 160x120 EXIF thumbnail', jpegBomb(60000, 60000, { thumbnail: true })],
    ['jpeg progressive 40000x30000', jpegBomb(40000, 30000, { progressive: true })],
    ['gif screen 65535x65535', gifBomb([65535, 65535], [10, 10])],
    ['gif 10x10 screen, frame 60000x50000', gifBomb([10, 10], [60000, 50000])],
    ['bmp top-down 30000x-30000', bmpBomb(30000, -30000)],
    ['webp VP8 16383x16383', webpBomb('VP8', 16383, 16383)],
    ['webp VP8L 16384x16384', webpBomb('VP8L', 16384, 16384)],
    ['webp VP8X canvas 16777216x16777216', webpBomb('VP8X', 1 << 24, 1 << 24)],
    ['tiff II 100000x100000', tiffBomb('II', 100000, 100000)],
    ['tiff MM 100000x70000', tiffBomb('MM', 100000, 70000)],
  );
}, 180_000);

afterAll(async () => {
  await api?.server.close();
  await api?.close();
  seeded?.cleanup();
});

describe('image bombs on POST /api/slips/parse', () => {
  it('each is a 413 naming the pixel budget, in well under 3 s, before OCR starts; server RSS grows < 100 MB', { timeout: 120_000 }, async () => {
    // One caller per bomb: every upload is counted before it is read (issue 40), and desk has 10 a day.
    let n = 0;
    const desks: Array<{ id: number; token: string }> = [];
    const nextDesk = async () => {
      const made = await user(`bombs-${(n += 1)}@example.test`, 'desk');
      desks.push(made);
      return made;
    };
    const png = bombs[0]![1];
    // The file is small; what it declares is not.
    expect(png.length).toBeLessThan(UPLOAD_CAP_BYTES / 8);
    expect(png.readUInt32BE(16) * png.readUInt32BE(20)).toBe(400_000_000);
    // One refused upload first, so the route's first-request costs are not counted against the bombs.
    expect((await upload((await nextDesk()).token, Buffer.from('not an image'), 'slip.txt')).status).toBe(400);
    const rssBefore = process.memoryUsage.rss();
    const lines: string[] = [];
    for (const [name, bytes] of bombs) {
      const r = await upload((await nextDesk()).token, bytes, 'slip.bin');
      expect(r.status, name).toBe(413);
      expect(r.json.error?.code, name).toBe('TOO_LARGE');
      expect(r.json.error?.message, name).toMatch(new RegExp(`the limit is ${MAX_IMAGE_PIXELS / 1e6} megapixels and ${MAX_IMAGE_SIDE} pixels a side`));
      const declared = r.json.error!.details!;
      expect(declared['width']! > MAX_IMAGE_SIDE || declared['height']! > MAX_IMAGE_SIDE, name).toBe(true);
      expect(r.ms, name).toBeLessThan(3000);
      lines.push(`${name}: ${(bytes.length / 1024).toFixed(0)} KB, 413 in ${r.ms.toFixed(0)} ms`);
    }
    const rssAfter = process.memoryUsage.rss();
    console.info(`image bombs:\n  ${lines.join('\n  ')}\n  RSS ${(rssBefore / MB).toFixed(0)} MB -> ${(rssAfter / MB).toFixed(0)} MB`);
    expect(rssAfter - rssBefore).toBeLessThan(100 * MB);
    // Refused from the header: no OCR worker was started; each caller's one upload was counted.
    expect(api.server.slipReader.starts).toBe(0);
    expect(desks.map((d) => usageCount(d.id))).toEqual(desks.map(() => 1));
  });

  it("an image the engine fails to decode is metered: a free user's second attempt is refused by the meter", { timeout: 120_000 }, async () => {
    const free = await user('malformed@example.test', 'free');
    // A real screenshot cut off after 4 KB: its header (1290 x 895) passes, its data cannot be decoded.
    const malformed = HR_PNG.subarray(0, 4096);
    const first = await upload(free.token, malformed, 'slip.png');
    expect(first.status).toBe(400);
    expect(first.json.error?.message).toMatch(/corrupt or unreadable PNG image/);
    expect(usageCount(free.id)).toBe(1);
    const second = await upload(free.token, malformed, 'slip.png');
    expect(second.status).toBe(429);
    expect(second.json.error?.code).toBe('RATE_LIMITED');
    expect(usageCount(free.id)).toBe(1);
    // The engine ran once, for the first attempt only.
    expect(api.server.slipReader.starts).toBe(1);
  });
});
