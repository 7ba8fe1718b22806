import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_FIELDS } from '../../src/domain/tiers.js';
import { wireKey } from '../../src/wire.js';
import { createUser, revokeUser } from '../../src/accounts/users.js';
import { SLIP_PARSES_PER_DAY } from '../../src/accounts/meter.js';
import { SLIP_PARSE_KIND } from '../../src/server/routes/slips.js';
import { slipResultWireSchema } from '../../src/server/wire/slips.js';

/** The answer is read as the wire writes it (snake_case). */
const slipResultSchema = slipResultWireSchema;
type SlipResult = ReturnType<typeof slipResultWireSchema.parse>;
import { usageEvents } from '../../src/store/schema.js';
import { findKeys, seedStore, startServer, type Running, type Seeded } from './_harness.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'slips');
const FD_TEXT = readFileSync(join(FIXTURES, 'text', 'fanduel_straight_points.txt'), 'utf8');
const HR_PNG = readFileSync(join(FIXTURES, 'images', 'hr_app_parlay_moneyline_light.png'));
/** The model fields as the wire names them. */
const MODEL = MODEL_FIELDS.map(wireKey);
const HOUR = 3600 * 1000;

let seeded: Seeded;
let api: Running;
/** The server's clock; tests move it to check the rolling window. */
let clock: Date;

interface UserToken {
  id: number;
  token: string;
}
/** A fresh user per test keeps each meter independent. */
async function user(email: string, tier: 'free' | 'analyst' | 'desk'): Promise<UserToken> {
  const made = await createUser(seeded.store, { email, tier }, seeded.now);
  return { id: made.user.id, token: made.token };
}

function usageCount(u: UserToken): number {
  return seeded.store.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.subject, `user:${u.id}`), eq(usageEvents.kind, SLIP_PARSE_KIND)))
    .all().length;
}

async function send(init: { token?: string; body?: RequestInit['body']; contentType?: string }) {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers['authorization'] = `Bearer ${init.token}`;
  if (init.contentType) headers['content-type'] = init.contentType;
  const res = await fetch(`${api.base}/api/slips/parse`, { method: 'POST', headers, ...(init.body === undefined ? {} : { body: init.body }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: JSON.parse(text) as Record<string, unknown>, text };
}

const parseText = (token: string | undefined, body: unknown) =>
  send({ ...(token === undefined ? {} : { token }), body: JSON.stringify(body), contentType: 'application/json' });

function upload(token: string, image: Uint8Array, filename = 'slip.png', book?: string) {
  const form = new FormData();
  form.set('image', new Blob([image]), filename);
  if (book !== undefined) form.set('book', book);
  return send({ token, body: form });
}

/**
 * Every model field in a response. Each slip field is `{ value, raw, confidence, ... }`, whose
 * `value` is the read value, not the model's `value`; so `value` is looked for inside the leg
 * gradings (where the engine's rows sit) and the other four everywhere.
 */
function modelKeys(json: unknown): string[] {
  const result = slipResultSchema.parse(json);
  const gradings = result.bets.flatMap((b, i) => b.legs.map((l, j) => findKeys(l.grading, MODEL, `$.bets[${i}].legs[${j}].grading`)));
  return [...findKeys(json, MODEL.filter((k) => k !== 'value')), ...gradings.flat()];
}

const errorOf = (r: { json: Record<string, unknown> }) => r.json['error'] as { code: string; message: string };
const firstLeg = (r: { json: Record<string, unknown> }) => slipResultSchema.parse(r.json).bets[0]!.legs[0]!;

/**
 * The OCR threads the server spawned, seen from outside the app: tesseract.js runs its engine in a
 * worker_threads Worker and talks to it with `{ action, ... }` packets. Each seen thread records
 * when it exits.
 */
const ocrThreads = new Map<Worker, { exited: Promise<number> }>();
const originalPostMessage = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
  if (!ocrThreads.has(this) && typeof message === 'object' && message !== null && 'action' in message) {
    ocrThreads.set(this, { exited: new Promise<number>((resolve) => this.once('exit', resolve)) });
  }
  return (originalPostMessage as (...args: unknown[]) => void).call(this, message, ...rest);
};

beforeAll(async () => {
  seeded = await seedStore();
  clock = seeded.now;
  // No memory recycling here: these tests count worker starts and threads (test/slips/ocr-recycle.test.ts covers recycling).
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => clock, wallClock: () => clock, slipReader: { recycleRssBytes: null } });
}, 120_000);

afterAll(async () => {
  Worker.prototype.postMessage = originalPostMessage;
  await api?.server.close();
  await api?.close();
  seeded?.cleanup();
});

describe('POST /api/slips/parse: auth', () => {
  it('refuses no token, a garbage token and a revoked token with 401 in the envelope, counting nothing', async () => {
    const revoked = await user('revoked-slip@example.test', 'desk');
    await revokeUser(seeded.store, 'revoked-slip@example.test', seeded.now);
    for (const token of [undefined, 'pg_not-a-real-token', revoked.token]) {
      const r = await parseText(token, { text: FD_TEXT });
      expect(r.status, String(token)).toBe(401);
      expect(errorOf(r).code).toBe('UNAUTHORIZED');
      expect(errorOf(r).message).toMatch(/Bearer/);
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    expect(usageCount(revoked)).toBe(0);
  });
});

describe('POST /api/slips/parse: pasted text', () => {
  it('reads the real FanDuel straight slip into its leg and grades it with the scan engine', async () => {
    const u = await user('text-paid@example.test', 'analyst');
    const r = await parseText(u.token, { text: FD_TEXT, book: 'fanduel' });
    expect(r.status, r.text).toBe(200);
    const result = slipResultSchema.parse(r.json);
    expect(result.source).toBe('text');
    expect(result.book.value).toBe('fanduel');
    const bet = result.bets[0]!;
    expect(bet.stake.value).toBe(1.23);
    expect(bet.payout.value).toBe(2.26);
    expect(bet.bet_id.value).toBe('O/0242888/0028018');
    const leg = bet.legs[0]!;
    expect(leg.player.value).toBe('Ausar Thompson');
    expect(leg.stat.value).toBe('points');
    expect(leg.line.value).toBe(10.5);
    expect(leg.side.value).toBe('under');
    expect(leg.price.value).toBe(-120);
    // The engine's own answer for the seeded replay slate (DET vs UTAH on 2025-11-05): the board
    // priced Thompson's points from 11.5 up, so 10.5 has no market and no letter, and it says so.
    expect(leg.grading?.status).toBe('refused');
    const view = (leg.grading as { refusal: Record<string, unknown> }).refusal;
    expect(view['player']).toMatchObject({ name: 'Ausar Thompson', team: 'DET' });
    expect(view['graded_for']).toBe('2025-11-05');
    expect(view['grade']).toBeNull();
    expect(view['refusal_reason']).toMatch(/no market price for Ausar Thompson points under 10\.5.*lines it priced: 11\.5, 12\.5/);
    expect(typeof view['projection']).toBe('number');
    // The slip parse is metered on its own; the scan's ledger and meter fields do not apply.
    expect(view).not.toHaveProperty('ledger');
    expect(view).not.toHaveProperty('metered');
    expect(r.json['meter']).toEqual({ used: 1, limit: SLIP_PARSES_PER_DAY.analyst, window_hours: 24 });
    expect(usageCount(u)).toBe(1);
  });

  it('free callers never see a model field; a refused leg carries none for any tier, and the projection is never gated', async () => {
    const free = await parseText((await user('shape-free@example.test', 'free')).token, { text: FD_TEXT });
    expect(free.status, free.text).toBe(200);
    expect(modelKeys(free.json)).toEqual([]);
    expect(findKeys(free.json, ['model_price_locked']).length).toBeGreaterThan(0);
    expect(free.text).not.toContain('"model_price_locked":false');
    const freeView = (firstLeg(free).grading as { refusal: Record<string, unknown> }).refusal;
    expect(typeof freeView['projection']).toBe('number');

    for (const tier of ['analyst', 'desk'] as const) {
      const paid = await parseText((await user(`shape-${tier}@example.test`, tier)).token, { text: FD_TEXT });
      expect(paid.status).toBe(200);
      const view = (firstLeg(paid).grading as { refusal: Record<string, unknown> }).refusal;
      // The 10.5 leg has no market on the board: no model price exists to show, at any tier.
      expect(view['grade'], tier).toBeNull();
      expect(view['p_win'], tier).toBeNull();
      expect(view['model_odds'], tier).toBeNull();
      expect(view['projection_prob'], tier).toBeNull();
      expect(typeof view['projection'], tier).toBe('number');
    }
  });

  it('legs the engine cannot grade (football markets) are left ungraded with their reason, never guessed', async () => {
    const text = readFileSync(join(FIXTURES, 'text', 'hardrock_share_sgp.txt'), 'utf8');
    const r = await parseText((await user('ungradeable@example.test', 'free')).token, { text });
    expect(r.status, r.text).toBe(200);
    const legs = slipResultSchema.parse(r.json).bets[0]!.legs;
    expect(legs.map((l) => l.player.value)).toEqual(['Michael Penix Jr.', 'Bijan Robinson', 'Justin Jefferson', 'Justin Jefferson']);
    for (const leg of legs) {
      expect(leg.gradeable).toBe(false);
      expect(leg.grading).toBeNull();
      expect(leg.ungradeable_reason).toEqual(expect.any(String));
    }
  });

  it('bad JSON input is a 400 naming the field, and is counted like any parse (issue 40: a slot is taken before the work)', async () => {
    const u = await user('bad-input@example.test', 'analyst');
    const missing = await parseText(u.token, { book: 'fanduel' });
    expect(missing.status).toBe(400);
    expect(errorOf(missing).message).toMatch(/^invalid body: text: /);
    const empty = await parseText(u.token, { text: '   ' });
    expect(errorOf(empty).message).toMatch(/text: the pasted slip text is empty/);
    const book = await parseText(u.token, { text: FD_TEXT, book: 'caesars' });
    expect(book.status).toBe(400);
    expect(errorOf(book).message).toMatch(/book/);
    const notJson = await send({ token: u.token, body: '{"text":', contentType: 'application/json' });
    expect(notJson.status).toBe(400);
    const wrongType = await send({ token: u.token, body: FD_TEXT, contentType: 'text/plain' });
    expect(wrongType.status).toBe(400);
    expect(errorOf(wrongType).message).toMatch(/multipart\/form-data/);
    expect(usageCount(u)).toBe(5);
    // A free user's one parse goes on bad input as on any other: the next is refused by the meter.
    const free = await user('bad-input-free@example.test', 'free');
    expect((await parseText(free.token, { text: '   ' })).status).toBe(400);
    const next = await parseText(free.token, { text: FD_TEXT });
    expect(next.status).toBe(429);
    expect(usageCount(free)).toBe(1);
  });
});

describe('POST /api/slips/parse: per-day limits over a rolling 24 hours', () => {
  it("a free user's second parse in 24 h is a 429 with Retry-After until the first leaves the window", async () => {
    const u = await user('limit-free@example.test', 'free');
    const start = clock;
    try {
      expect((await parseText(u.token, { text: FD_TEXT })).status).toBe(200);
      clock = new Date(start.getTime() + 5 * HOUR);
      const second = await parseText(u.token, { text: FD_TEXT });
      expect(second.status).toBe(429);
      expect(errorOf(second).code).toBe('RATE_LIMITED');
      expect(second.headers.get('retry-after')).toBe(String(19 * 3600));
      // A refused request is not counted either.
      expect(usageCount(u)).toBe(1);
      clock = new Date(start.getTime() + 24 * HOUR + 1000);
      expect((await parseText(u.token, { text: FD_TEXT })).status).toBe(200);
    } finally {
      clock = start;
    }
  });

  it("a paid user's 11th parse is a 429; parses older than 24 h do not count", async () => {
    const u = await user('limit-desk@example.test', 'desk');
    const now = clock.getTime();
    const at = (msAgo: number) => ({ subject: `user:${u.id}`, kind: SLIP_PARSE_KIND, at: new Date(now - msAgo).toISOString() });
    // Outside the window: ignored. Then 9 counted parses, the oldest 23 hours ago.
    const rows = [at(25 * HOUR), at(23 * HOUR), ...Array.from({ length: 8 }, (_, i) => at((i + 1) * HOUR))];
    seeded.store.db.insert(usageEvents).values(rows).run();
    const tenth = await parseText(u.token, { text: FD_TEXT });
    expect(tenth.status, tenth.text).toBe(200);
    expect(tenth.json['meter']).toEqual({ used: 10, limit: 10, window_hours: 24 });
    const eleventh = await parseText(u.token, { text: FD_TEXT });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toBe('3600');
    expect(errorOf(eleventh).message).toMatch(/10 per rolling 24 hours for the desk tier/);
  });

  it('parallel parses through two servers on one store never pass the limit: a free user gets one 200 of eight', async () => {
    const u = await user('limit-parallel@example.test', 'free');
    const second = await startServer({ store: seeded.store, config: seeded.config, now: () => clock, wallClock: () => clock, slipReader: { recycleRssBytes: null } });
    try {
      const post = (base: string) =>
        fetch(`${base}/api/slips/parse`, { method: 'POST', headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: FD_TEXT }) }).then((r) => r.status);
      const statuses = await Promise.all(Array.from({ length: 8 }, (_, i) => post(i % 2 === 0 ? api.base : second.base)));
      expect(statuses.filter((st) => st === 200)).toHaveLength(1);
      expect(statuses.filter((st) => st === 429)).toHaveLength(7);
      expect(usageCount(u)).toBe(1);
    } finally {
      await second.server.close();
      await second.close();
    }
  });
});

describe('POST /api/slips/parse: a real screenshot through OCR', () => {
  it('reads the real Hard Rock parlay twice on one worker, and maps an undecodable image to 400 (counted)', { timeout: 120_000 }, async () => {
    const u = await user('ocr@example.test', 'desk');
    const times: number[] = [];
    const results: SlipResult[] = [];
    for (let i = 0; i < 2; i++) {
      const t0 = performance.now();
      const r = await upload(u.token, HR_PNG, 'hr_app_parlay_moneyline_light.png');
      times.push(performance.now() - t0);
      expect(r.status, r.text).toBe(200);
      results.push(slipResultSchema.parse(r.json));
    }
    for (const result of results) {
      expect(result.source).toBe('image');
      expect(result.book.value).toBe('hardrock');
      // The three moneyline prices printed on the slip (truth/hr_app_parlay_moneyline_light.json).
      expect(result.bets[0]!.legs.map((l) => l.price.value)).toEqual([-275, -250, -325]);
      expect(result.ocr!.words).toBeGreaterThan(10);
    }
    // One worker start for both parses (one after the other: the pool's first thread took both).
    expect(api.server.slipReader.starts).toBe(1);
    expect(ocrThreads.size).toBe(1);
    console.info(`slip OCR over HTTP: first ${times[0]!.toFixed(0)} ms (worker start included), second ${times[1]!.toFixed(0)} ms`);

    // A PNG whose header is fine but whose image data is cut off: the engine cannot decode it.
    const truncated = HR_PNG.subarray(0, 4096);
    const corrupt = await upload(u.token, truncated);
    expect(corrupt.status, corrupt.text).toBe(400);
    expect(errorOf(corrupt).message).toMatch(/corrupt or unreadable PNG image/);
    // The engine spent a decode on it: counted (test/security/image-bombs.test.ts runs a free user out).
    expect(usageCount(u)).toBe(3);
    // The worker survives a failed decode and is still the one worker.
    const again = await upload(u.token, HR_PNG);
    expect(again.status).toBe(200);
    expect(api.server.slipReader.starts).toBe(1);
    expect(ocrThreads.size).toBe(1);
  });
});

describe('closing the app', () => {
  it('terminates the OCR worker, and an image after close is refused rather than starting a new one', async () => {
    const u = await user('after-close@example.test', 'desk');
    expect(api.server.slipReader.active).toBe(true);
    await api.server.close();
    expect(api.server.slipReader.active).toBe(false);
    // The engine thread itself exits (a live one would keep `propgrade serve` from ending).
    const [thread] = [...ocrThreads.values()];
    const exit = await Promise.race([thread!.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000))]);
    expect(exit).not.toBe('timeout');
    const r = await upload(u.token, HR_PNG);
    expect(r.status).toBe(503);
    expect(errorOf(r).message).toMatch(/shutting down/);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(api.server.slipReader.starts).toBe(1);
    expect(ocrThreads.size).toBe(1);
    expect(usageCount(u)).toBe(0);
    // Pasted text needs no worker and still reads.
    expect((await parseText(u.token, { text: FD_TEXT })).status).toBe(200);
  });
});

describe('GET /openapi.json', () => {
  it('describes the slip route: JSON and multipart bodies, a required bearer token, 401/413/429/503', async () => {
    const doc = (await (await fetch(`${api.base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security: unknown; requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> }; responses: Record<string, unknown> }>>;
    };
    const op = doc.paths['/api/slips/parse']!['post']!;
    expect(op.requestBody.content['application/json']!.schema.required).toEqual(['text']);
    expect(Object.keys(op.requestBody.content['application/json']!.schema.properties).sort()).toEqual(['book', 'text']);
    expect(op.requestBody.content['multipart/form-data']!.schema.required).toEqual(['image']);
    expect(op.security).toEqual([{ bearer: [] }]);
    for (const s of ['400', '401', '413', '429', '503']) expect(op.responses[s], s).toBeDefined();
    // Busy and the OCR budget answer 503 with Retry-After, declared as the 429's is.
    expect(op.responses['503']).toMatchObject({ headers: { 'Retry-After': { required: true } } });
  });
});
