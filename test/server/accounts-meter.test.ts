import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_READS_PER_DAY, SLIP_PARSES_PER_DAY } from '../../src/domain/tiers.js';
import { createUser } from '../../src/accounts/users.js';
import { DEFAULT_LIMITS } from '../../src/server/context.js';
import { SCAN_READ_KIND } from '../../src/server/routes/reads.js';
import { gradedRows, usageEvents } from '../../src/store/schema.js';
import { quiet, seedStore, startServer, type Running, type Seeded } from './_harness.js';

/**
 * The scan meter (GET /api/user/scan-meter) and the scan limiter read one table (usage_events,
 * kind scan_read): concurrent scans on a real loopback server can never pass the limit, refused
 * reads never count, and the meter shows exactly what the limiter enforces. Slip parses keep their
 * own limits (free 1, paid 10 per 24 h) with clear 429 and 413 envelopes.
 */

let seeded: Seeded;
let api: Running;
let clock: Date;

beforeAll(async () => {
  seeded = await seedStore();
  clock = new Date('2025-11-05T17:30:00Z');
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => clock, wallClock: () => clock, log: quiet });
}, 120_000);
afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

function row(graded: boolean) {
  return seeded.store.db
    .select()
    .from(gradedRows)
    .where(graded ? and(eq(gradedRows.grade, 'A'), isNotNull(gradedRows.fairOdds)) : isNull(gradedRows.grade))
    .orderBy(gradedRows.id)
    .limit(1)
    .get()!;
}
const scanBody = (graded: boolean) => {
  const r = row(graded);
  return { player: r.player, stat: r.statType, line: r.line, direction: r.side };
};

async function scan(token: string, body: unknown) {
  const res = await fetch(`${api.base}/api/scan`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}
async function meter(token: string) {
  const res = await fetch(`${api.base}/api/user/scan-meter`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe('per-tier scan limits live in one place', () => {
  it('the server default is SCAN_READS_PER_DAY: free 5, analyst 100, desk unlimited', () => {
    expect(SCAN_READS_PER_DAY).toEqual({ free: 5, analyst: 100, desk: null });
    expect(DEFAULT_LIMITS.scanReadsPerDay).toEqual(SCAN_READS_PER_DAY);
    expect(SLIP_PARSES_PER_DAY).toEqual({ free: 1, analyst: 10, desk: 10 });
  });
});

describe('GET /api/user/scan-meter', () => {
  it('a fresh user: nothing used, the window, nothing to free up', async () => {
    const { token } = await createUser(seeded.store, { email: 'fresh-meter@example.test', tier: 'free' }, seeded.now);
    const m = await meter(token);
    expect(m.status).toBe(200);
    expect(m.json).toEqual({ unlimited: false, used: 0, limit: 5, remaining: 5, window_hours: 24, window_start: '2025-11-04T17:30:00.000Z', next_free_at: null });
  });

  it('an unlimited tier says so and shows nothing else, and never writes usage', async () => {
    const { token, user } = await createUser(seeded.store, { email: 'desk-meter@example.test', tier: 'desk' }, seeded.now);
    expect((await scan(token, scanBody(true))).status).toBe(200);
    expect((await meter(token)).json).toEqual({ unlimited: true });
    expect(seeded.store.db.select().from(usageEvents).where(eq(usageEvents.subject, `user:${user.id}`)).all()).toEqual([]);
  });

  it('meter and limiter agree under 30 concurrent scans (graded and refused mixed): exactly the limit passes', async () => {
    const { token, user } = await createUser(seeded.store, { email: 'burst@example.test', tier: 'free' }, seeded.now);
    const bodies = Array.from({ length: 30 }, (_, i) => scanBody(i % 3 !== 0)); // 20 graded, 10 refused
    const results = await Promise.all(bodies.map((b) => scan(token, b)));
    const graded = results.filter((r) => r.status === 200 && r.json['status'] === 'graded');
    const refused = results.filter((r) => r.status === 200 && r.json['status'] === 'refused');
    const limited = results.filter((r) => r.status === 429);
    expect(graded.length + refused.length + limited.length).toBe(30);
    expect(graded).toHaveLength(5);
    for (const r of refused) expect(r.json['flags']).toContain('insufficient_data');
    for (const r of limited) {
      expect(r.json['error']).toMatchObject({ code: 'RATE_LIMITED', details: { used: 5, limit: 5 } });
      expect(Number(r.headers.get('retry-after'))).toBe(24 * 3600);
    }
    // What the limiter counted is what the meter shows: the table holds exactly the graded reads.
    const rows = seeded.store.db.select().from(usageEvents).where(and(eq(usageEvents.subject, `user:${user.id}`), eq(usageEvents.kind, SCAN_READ_KIND))).all();
    expect(rows).toHaveLength(5);
    const m = await meter(token);
    expect(m.json).toEqual({ unlimited: false, used: 5, limit: 5, remaining: 0, window_hours: 24, window_start: '2025-11-04T17:30:00.000Z', next_free_at: '2025-11-06T17:30:00.000Z' });
    // The limiter refuses the next graded read, and a refused read still answers (and is not counted).
    expect((await scan(token, scanBody(true))).status).toBe(429);
  });

  it('a refused read is never counted; reads leave the window after 24 h and the meter follows', async () => {
    const { token, user } = await createUser(seeded.store, { email: 'roll@example.test', tier: 'free' }, seeded.now);
    const start = clock;
    try {
      for (let i = 0; i < 3; i++) expect((await scan(token, scanBody(false))).json['status']).toBe('refused');
      expect((await meter(token)).json['used']).toBe(0);
      expect((await scan(token, scanBody(true))).json['meter']).toEqual({ used: 1, limit: 5, window_hours: 24 });
      clock = new Date(start.getTime() + 3_600_000);
      for (let i = 0; i < 4; i++) expect((await scan(token, scanBody(true))).status).toBe(200);
      expect((await meter(token)).json).toMatchObject({ used: 5, remaining: 0, next_free_at: '2025-11-06T17:30:00.000Z' });
      expect((await scan(token, scanBody(true))).status).toBe(429);
      // The meter at the moment the first read leaves the window (24 h after it).
      clock = new Date('2025-11-06T17:30:00.000Z');
      expect((await meter(token)).json).toMatchObject({ used: 4, remaining: 1, next_free_at: '2025-11-06T18:30:00.000Z' });
      // The limiter sees the same: back on the slate's clock (where reads still grade), age the first read by 24 h.
      clock = new Date(start.getTime() + 3_600_000);
      const subject = `user:${user.id}`;
      const first = seeded.store.db.select().from(usageEvents).where(eq(usageEvents.subject, subject)).orderBy(usageEvents.id).limit(1).get()!;
      seeded.store.db.update(usageEvents).set({ at: new Date(Date.parse(first.at) - 24 * 3_600_000).toISOString() }).where(eq(usageEvents.id, first.id)).run();
      expect((await meter(token)).json).toMatchObject({ used: 4, remaining: 1 });
      const again = await scan(token, scanBody(true));
      expect([again.status, again.json['status']]).toEqual([200, 'graded']);
      expect((await scan(token, scanBody(true))).status).toBe(429);
      expect((await meter(token)).json).toMatchObject({ used: 5, remaining: 0 });
    } finally {
      clock = start;
    }
  });

  it('the meter needs a token: 401 without one', async () => {
    expect((await fetch(`${api.base}/api/user/scan-meter`)).status).toBe(401);
  });
});

describe('slip parse keeps its own limits (free 1, paid 10 per 24 h; 4 MB cap)', () => {
  const slip = { text: 'Jalen Brunson over 27.5 points' };
  const parse = async (token: string, body: string, type = 'application/json') => {
    const res = await fetch(`${api.base}/api/slips/parse`, { method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${token}` }, body });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
  };

  it('concurrent parses by a free user: exactly one passes, the rest are 429 with a clear envelope', async () => {
    const { token } = await createUser(seeded.store, { email: 'slips-free@example.test', tier: 'free' }, seeded.now);
    const results = await Promise.all(Array.from({ length: 6 }, () => parse(token, JSON.stringify(slip))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // Refused either while the one parse is in flight (one at a time per caller) or by the meter after it.
    const messages = new Set(['slip parses: 1 per rolling 24 hours for the free tier']);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(429);
      expect(r.json['error']['code']).toBe('RATE_LIMITED');
      const message = String(r.json['error']['message']);
      expect(messages.has(message) || message.startsWith('slip parses: one at a time per caller'), message).toBe(true);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Slip parses do not touch the scan meter.
    expect((await meter(token)).json['used']).toBe(0);
  });

  // Every parse counts before its work starts, whatever its end (issue 40 item 1): the refused upload too.
  it('a paid user gets 10; an upload over 4 MB is a 413 naming the cap, and counts as one of them', async () => {
    const { token } = await createUser(seeded.store, { email: 'slips-paid@example.test', tier: 'analyst' }, seeded.now);
    const boundary = 'pgboundary';
    const big = `--${boundary}\r\ncontent-disposition: form-data; name="image"; filename="s.png"\r\ncontent-type: image/png\r\n\r\n${'x'.repeat(4 * 1024 * 1024 + 70 * 1024)}\r\n--${boundary}--\r\n`;
    const tooBig = await parse(token, big, `multipart/form-data; boundary=${boundary}`);
    expect(tooBig.status).toBe(413);
    expect(tooBig.json['error']).toMatchObject({ code: 'TOO_LARGE', message: expect.stringContaining('the image cap is 4 MB') });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await parse(token, JSON.stringify(slip))).status);
    expect(statuses).toEqual([...Array(9).fill(200), 429, 429]);
  });
});
