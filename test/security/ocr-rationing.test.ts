import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { SLIP_PARSE_KIND } from '../../src/server/routes/slips.js';
import type { SlipReaderOptions } from '../../src/slips/ocr.js';
import { usageEvents } from '../../src/store/schema.js';
import { seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';
import { noisePng } from './_noise.js';

/**
 * Issue 40 item 1, "OCR is rationed like money", over loopback against the real server. Before: a
 * free user's 4,999 x 4,999 one-bit noise PNG (3.1 MB) answered 503 after 61 s, burnt 28-30 s of
 * CPU, was not counted, and a desk user's real slip sent meanwhile got 503 too. Now every parse is
 * counted before it starts, noise is refused on a cheap count before OCR, a read past its budget
 * ends its engine thread, the pool is bounded and one caller has one parse at a time. Outcomes and
 * meter rows are asserted; the times are printed for docs/reliability.md, never asserted.
 */

const IMAGES = join(import.meta.dirname, '..', 'fixtures', 'slips', 'images');
/** The review's "real 87 KB slip": a DraftKings prop, Travis Hunter receptions over 3.5 at -146. */
const DK_SLIP = readFileSync(join(IMAGES, 'dk_app_bet_placed_prop_light.png'));
const FD_TEXT = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'slips', 'text', 'fanduel_straight_points.txt'), 'utf8');

/** The engine threads tesseract.js spawns (it talks to them with `{ action, ... }` packets), and when each exits. */
const threads = new Map<Worker, Promise<number>>();
const originalPostMessage = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
  if (!threads.has(this) && typeof message === 'object' && message !== null && 'action' in message) {
    threads.set(this, new Promise<number>((resolve) => this.once('exit', resolve)));
  }
  return (originalPostMessage as (...args: unknown[]) => void).call(this, message, ...rest);
};

let seeded: Seeded;
let api: Running;
const servers: Running[] = [];
const figures: string[] = [];
let noise: Buffer;
let blocks: Buffer;
let emails = 0;

async function user(tier: 'free' | 'analyst' | 'desk') {
  const made = await createUser(seeded.store, { email: `rationing-${(emails += 1)}@example.test`, tier }, seeded.now);
  return { id: made.user.id, token: made.token };
}

/** The meter's rows for a user: what the route counted. */
function meterRows(id: number): number {
  return seeded.store.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.subject, `user:${id}`), eq(usageEvents.kind, SLIP_PARSE_KIND)))
    .all().length;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  json: { error?: { code: string; message: string; details?: Record<string, number> }; bets?: Array<{ legs: Array<Record<string, { value: unknown }>> }> };
  ms: number;
}

/**
 * One multipart upload on its own connection, its body sent up to `sendBytes` (all by default);
 * `finish` sends the rest. The answer may come before the body is complete: the server judges the
 * first bytes as they arrive.
 */
function uploadOn(base: string, token: string, image: Buffer, sendBytes?: number) {
  const boundary = 'propgrade-rationing';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="slip.png"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const body = Buffer.concat([head, image, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const started = performance.now();
  const req = request(`${base}/api/slips/parse`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['json'], ms: performance.now() - started }));
    });
    req.on('error', reject);
  });
  const cut = sendBytes === undefined ? body.length : head.length + sendBytes;
  req.write(body.subarray(0, cut));
  if (cut >= body.length) req.end();
  return { answer, finish: () => req.end(body.subarray(cut)), abort: () => req.destroy() };
}

const upload = (base: string, token: string, image: Buffer) => uploadOn(base, token, image).answer;

async function parseText(base: string, token: string): Promise<number> {
  const res = await fetch(`${base}/api/slips/parse`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: FD_TEXT }) });
  await res.text();
  return res.status;
}

async function server(slipReader: SlipReaderOptions): Promise<Running> {
  const running = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => seeded.now, slipReader: { recycleRssBytes: null, ...slipReader } });
  servers.push(running);
  return running;
}

const exited = (thread: Promise<number>) => Promise.race([thread.then(() => 'exited'), new Promise<string>((r) => setTimeout(() => r('alive'), 10_000))]);

beforeAll(async () => {
  seeded = await seedStore();
  api = await server({});
  noise = noisePng(4999, 4999, 1);
  blocks = noisePng(4999, 4999, 8);
}, 180_000);

afterAll(async () => {
  for (const s of servers) {
    await s.server.close();
    await s.close();
  }
  seeded?.cleanup();
  Worker.prototype.postMessage = originalPostMessage;
  console.info(`OCR rationing figures:\n  ${figures.join('\n  ')}`);
});

describe('OCR is rationed like money (issue 40 item 1)', () => {
  it("a free user's 4,999 x 4,999 one-bit noise PNG is counted before it is read, refused on the noise count before OCR; the second is 429", { timeout: 120_000 }, async () => {
    expect(noise.length).toBeGreaterThan(3_000_000);
    const free = await user('free');
    const cpu = process.cpuUsage();
    const first = await upload(api.base, free.token, noise);
    const spent = process.cpuUsage(cpu);
    expect(first.status).toBe(400);
    expect(first.json.error?.code).toBe('BAD_INPUT');
    expect(first.json.error?.message).toMatch(/reads as noise, not a slip/);
    expect(first.json.error?.details?.['transitions']).toBeGreaterThan(0.4);
    expect(meterRows(free.id)).toBe(1);
    expect(api.server.slipReader.noiseRefusals).toBe(1);
    expect(api.server.slipReader.budgetStops).toBe(0);
    figures.push(`noise 4999x4999 1-bit (${(noise.length / 1e6).toFixed(1)} MB), free: ${first.status} in ${first.ms.toFixed(0)} ms, process CPU ${((spent.user + spent.system) / 1000).toFixed(0)} ms (worker start included)`);

    const second = await upload(api.base, free.token, noise);
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect(meterRows(free.id)).toBe(1);
    expect(api.server.slipReader.noiseRefusals).toBe(1);
  });

  it("while a free caller's noise is read, a desk user's real 87 KB slip parses (200, its leg read)", { timeout: 120_000 }, async () => {
    const free = await user('free');
    const desk = await user('desk');
    const [bad, real] = await Promise.all([upload(api.base, free.token, noise), upload(api.base, desk.token, DK_SLIP)]);
    expect(bad.status).toBe(400);
    expect(real.status).toBe(200);
    const leg = real.json.bets![0]!.legs[0]!;
    expect(leg['line']!.value).toBe(3.5);
    expect(leg['side']!.value).toBe('over');
    expect(meterRows(free.id)).toBe(1);
    expect(meterRows(desk.id)).toBe(1);
    figures.push(`beside a free caller's noise (${bad.status} in ${bad.ms.toFixed(0)} ms): desk real slip ${real.status} in ${real.ms.toFixed(0)} ms`);
  });

  it('an image that passes the noise count but outlasts the budget is stopped at the budget, its engine thread ended, and counted (503 with Retry-After)', { timeout: 120_000 }, async () => {
    // 8-pixel blocks threshold into text-sized blobs: past the cheap count, far past a slip's OCR time.
    const budgeted = await server({ budgetMs: 1000 });
    const free = await user('free');
    const before = new Set(threads.keys());
    const r = await upload(budgeted.base, free.token, blocks);
    expect(r.status).toBe(503);
    expect(r.json.error?.code).toBe('UNAVAILABLE');
    expect(r.json.error?.message).toMatch(/OCR stopped at its 1000 ms budget/);
    expect(r.headers['retry-after']).toBe('1');
    expect(meterRows(free.id)).toBe(1);
    expect(budgeted.server.slipReader.budgetStops).toBe(1);
    // The thread that read it has exited: nothing keeps burning CPU on it, and the next image starts a new one.
    const spawned = [...threads.entries()].filter(([w]) => !before.has(w));
    expect(spawned).toHaveLength(1);
    expect(await exited(spawned[0]![1])).toBe('exited');
    expect(budgeted.server.slipReader.active).toBe(false);
    figures.push(`noise of 8 px blocks 4999x4999 (${(blocks.length / 1e3).toFixed(0)} KB), 1 s budget: ${r.status} in ${r.ms.toFixed(0)} ms, thread ended`);
  });

  it('one parse at a time per caller: a second while one is in flight is 429 with Retry-After and not counted', { timeout: 120_000 }, async () => {
    const desk = await user('desk');
    // The first upload stops after 1 KB of a real PNG: admitted, counted, waiting for the rest.
    const held = uploadOn(api.base, desk.token, DK_SLIP, 1024);
    await expect.poll(() => meterRows(desk.id)).toBe(1);
    const second = await uploadOn(api.base, desk.token, DK_SLIP).answer;
    expect(second.status).toBe(429);
    expect(second.json.error?.message).toMatch(/one at a time per caller/);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect(await parseText(api.base, desk.token)).toBe(429);
    expect(meterRows(desk.id)).toBe(1);
    held.finish();
    expect((await held.answer).status).toBe(200);
    expect(await parseText(api.base, desk.token)).toBe(200);
    expect(meterRows(desk.id)).toBe(2);
  });

  it('a full pool answers 503 at once with Retry-After, before the body is read and without counting; pasted text still reads', { timeout: 120_000 }, async () => {
    const small = await server({ workers: 1, queue: 0 });
    const holder = await user('desk');
    const other = await user('analyst');
    const held = uploadOn(small.base, holder.token, DK_SLIP, 1024);
    await expect.poll(() => small.server.slipReader.inUse).toBe(1);
    // Only the headers and 1 KB of the other caller's upload are sent: the refusal needs no more.
    const busy = uploadOn(small.base, other.token, DK_SLIP, 1024);
    const refused = await busy.answer;
    busy.abort();
    expect(refused.status).toBe(503);
    expect(refused.json.error?.message).toMatch(/slip OCR is busy: 1 images reading and 0 waiting/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(meterRows(other.id)).toBe(0);
    expect(await parseText(small.base, other.token)).toBe(200);
    held.finish();
    expect((await held.answer).status).toBe(200);
    expect(small.server.slipReader.inUse).toBe(0);
    expect(small.server.slipReader.refusedBusy).toBe(1);
    figures.push(`pool of 1 thread, no line, one upload in flight: another caller's upload 503 in ${refused.ms.toFixed(0)} ms (Retry-After ${String(refused.headers['retry-after'])})`);
  });
});
