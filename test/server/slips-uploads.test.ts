import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { MULTIPART_BODY_CAP_BYTES, SLIP_PARSE_KIND } from '../../src/server/routes/slips.js';
import { UPLOAD_CAP_BYTES } from '../../src/slips/image.js';
import { usageEvents } from '../../src/store/schema.js';
import { seedStore, startServer, type Running, type Seeded } from './_harness.js';

/**
 * Slip uploads refused before OCR: oversize, not an image, a broken header, a form without the
 * image. Each is counted (the slot is taken before the body is read, issue 40) and starts no OCR
 * thread. The first-bytes judging itself is in test/security/upload-sniffing.test.ts.
 */

const FD_TEXT = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'slips', 'text', 'fanduel_straight_points.txt'), 'utf8');
const HR_PNG = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'slips', 'images', 'hr_app_parlay_moneyline_light.png'));

let seeded: Seeded;
let api: Running;

async function user(email: string, tier: 'free' | 'analyst' | 'desk') {
  const made = await createUser(seeded.store, { email, tier }, seeded.now);
  return { id: made.user.id, token: made.token };
}

function usageCount(u: { id: number }): number {
  return seeded.store.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.subject, `user:${u.id}`), eq(usageEvents.kind, SLIP_PARSE_KIND)))
    .all().length;
}

async function send(init: { token: string; body: RequestInit['body'] }) {
  const res = await fetch(`${api.base}/api/slips/parse`, { method: 'POST', headers: { authorization: `Bearer ${init.token}` }, body: init.body });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as Record<string, unknown>, text };
}

function upload(token: string, image: Uint8Array, filename = 'slip.png', book?: string) {
  const form = new FormData();
  form.set('image', new Blob([image]), filename);
  if (book !== undefined) form.set('book', book);
  return send({ token, body: form });
}

const errorOf = (r: { json: Record<string, unknown> }) => r.json['error'] as { code: string; message: string };

beforeAll(async () => {
  seeded = await seedStore();
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => seeded.now, slipReader: { recycleRssBytes: null } });
}, 120_000);

afterAll(async () => {
  await api?.server.close();
  await api?.close();
  seeded?.cleanup();
});

describe('POST /api/slips/parse: uploads refused before OCR', () => {
  it('oversize: a declared Content-Length over the cap, a chunked body over the cap, and an image part over 4 MB are 413', async () => {
    const u = await user('oversize@example.test', 'analyst');
    // Declared: fetch sends the Content-Length of this 5 MB form.
    const declared = await upload(u.token, Buffer.alloc(5 * 1024 * 1024, 1));
    expect(declared.status).toBe(413);
    expect(errorOf(declared).code).toBe('TOO_LARGE');

    // Actual bytes: no Content-Length (chunked), cut off once the stream passes the cap.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${api.base}/api/slips/parse`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.token}`, 'content-type': 'multipart/form-data; boundary=xyz', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      let sent = 0;
      const write = () => {
        while (sent <= MULTIPART_BODY_CAP_BYTES) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe('TOO_LARGE');

    // The body fits the multipart allowance, but the image itself is one byte over 4 MB.
    const png = Buffer.concat([HR_PNG, Buffer.alloc(UPLOAD_CAP_BYTES + 1 - HR_PNG.length)]);
    const image = await upload(u.token, png);
    expect(image.status).toBe(413);
    expect(errorOf(image).message).toMatch(/upload cap is 4 MB/);

    // Each took the caller's slot before its body was read; none started an OCR thread.
    expect(usageCount(u)).toBe(3);
    expect(api.server.slipReader.starts).toBe(0);
  });

  it('a non-image, a broken PNG header and a form without the image field are 400 with a clear message', async () => {
    const u = await user('non-image@example.test', 'analyst');
    const text = await upload(u.token, Buffer.from(FD_TEXT), 'slip.txt');
    expect(text.status).toBe(400);
    expect(errorOf(text).message).toMatch(/not an image: expected PNG, JPEG/);
    const header = await upload(u.token, HR_PNG.subarray(0, 16));
    expect(header.status).toBe(400);
    expect(errorOf(header).message).toMatch(/corrupt PNG image/);
    const form = new FormData();
    form.set('book', 'fanduel');
    const noImage = await send({ token: u.token, body: form });
    expect(noImage.status).toBe(400);
    expect(errorOf(noImage).message).toMatch(/image: missing file field/);
    const badBook = await upload(u.token, HR_PNG, 'slip.png', 'caesars');
    expect(badBook.status).toBe(400);
    expect(errorOf(badBook).message).toMatch(/^invalid form: book: /);
    // Every one was counted; no OCR worker was started for input that could not be read.
    expect(usageCount(u)).toBe(4);
    expect(api.server.slipReader.starts).toBe(0);
  });
});
