import { request } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { PLAYER_NAME_MAX } from '../../src/domain/names.js';
import { seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';

/**
 * Issue 32, "no request holds the event loop": the abusive requests of the security review sent
 * to the real server on a loopback port over a replayed store, each beside a concurrent
 * GET /api/snapshot/summary, while the event loop's delay is sampled (monitorEventLoopDelay, 5 ms
 * resolution). Before the bounds, a 200,000-character name held the loop 16 s (63 s on this
 * machine under load).
 *
 * What is asserted, and why these bounds: the request's cost to the loop is the CPU time the
 * process spends during the exchange (client and server share it; process.cpuUsage), at most
 * 100 ms. Wall time is asserted too, at the bounds (the 4xx under a second, the concurrent
 * read under 0.5 s) and the loop's largest delay under 0.5 s: the machine runs several test
 * processes on 2 cores (load average above 20), so wall time includes waits for a core that no
 * code here causes (a 56 ms parse was seen as a 273 ms delay); an answer that does the work
 * (seconds) fails every bound. The figures are
 * printed for docs/reliability.md.
 */

/** CPU time (ms) the process may spend on one abusive exchange: the 100 ms stall bound. */
const MAX_CPU_MS = 100;
/** The largest event-loop delay (ms, wall) while it runs: the concurrent read's bound, as the CPU bound holds the 100 ms. */
const MAX_LOOP_DELAY_MS = 500;
/** Every abusive request answered 4xx within this (ms of wall time): the "under a second". */
const MAX_ANSWER_MS = 1000;
/** The concurrent read answers within this (ms) (the bound; 4 ms normally). */
const MAX_READ_MS = 500;

interface Reply {
  status: number;
  body: Record<string, any>;
  ms: number;
}

function call(base: string, method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<Reply> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  const headers: Record<string, string | number> = {};
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  if (token) headers['authorization'] = `Bearer ${token}`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - started;
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, any>) : {}, ms });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const longName = (n: number) => 'Jalen Brunson '.repeat(Math.ceil(n / 14)).slice(0, n);

let seeded: Seeded;
let api: Running;
let analyst: string;
const figures: string[] = [];

beforeAll(async () => {
  seeded = await seedStore();
  const wall = new Date('2026-11-27T12:00:00Z');
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => wall });
  analyst = (await createUser(seeded.store, { email: 'analyst@security.test', tier: 'analyst' }, wall)).token;
  // Warm the paths measured below (module loading, prepared statements, the snapshot cache).
  await call(api.base, 'GET', '/api/snapshot/summary');
  await call(api.base, 'POST', '/api/scan', { player: 'Jalen Brunson', stat: 'points', line: 25.5, direction: 'over' });
  // The first name that misses an exact key builds the sport's player index, once per snapshot and
  // stored history (src/reads/player-lookup.ts): not a request's cost, so it is paid here, and shown.
  const cpu = process.cpuUsage();
  const first = await call(api.base, 'POST', '/api/scan', { player: 'Jalen Brunsonn', stat: 'points', line: 25.5, direction: 'over' });
  const spent = process.cpuUsage(cpu);
  figures.push(`  first unknown name after start (builds the player index once): ${first.status} in ${first.ms.toFixed(1)} ms; process CPU ${((spent.user + spent.system) / 1000).toFixed(1)} ms`);
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
  console.log(`event-loop abuse figures:\n${figures.join('\n')}`);
});

/** Sends `abuse` beside a concurrent summary read while sampling the loop's delay. */
async function underWatch(label: string, abuse: () => Promise<Reply>): Promise<{ abuse: Reply; read: Reply; loopMaxMs: number; cpuMs: number }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // A stall is recorded by the sampling timer that fires after it: let the first sample be taken.
  await new Promise((r) => setTimeout(r, 20));
  const cpu = process.cpuUsage();
  const [a, read] = await Promise.all([abuse(), call(api.base, 'GET', '/api/snapshot/summary')]);
  const spent = process.cpuUsage(cpu);
  const cpuMs = (spent.user + spent.system) / 1000;
  // Let the sampling timer fire once more, so a stall at the very end is recorded too.
  await new Promise((r) => setTimeout(r, 20));
  loop.disable();
  const loopMaxMs = loop.max / 1e6;
  figures.push(`  ${label}: ${a.status} in ${a.ms.toFixed(1)} ms; concurrent summary ${read.status} in ${read.ms.toFixed(1)} ms; loop max delay ${loopMaxMs.toFixed(1)} ms; process CPU ${cpuMs.toFixed(1)} ms`);
  expect(read.status, `${label}: the concurrent read`).toBe(200);
  expect(read.ms, `${label}: the concurrent read's time`).toBeLessThan(MAX_READ_MS);
  expect(loopMaxMs, `${label}: event-loop delay`).toBeLessThan(MAX_LOOP_DELAY_MS);
  expect(cpuMs, `${label}: CPU time of the exchange`).toBeLessThan(MAX_CPU_MS);
  return { abuse: a, read, loopMaxMs, cpuMs };
}

function expectRefused(reply: Reply, field: string): void {
  expect(reply.status).toBe(400);
  expect(reply.body['error']?.['code']).toBe('BAD_INPUT');
  expect(String(reply.body['error']?.['message'])).toContain(field);
  expect(reply.ms).toBeLessThan(MAX_ANSWER_MS);
}

describe('abusive requests answer at once and never hold the event loop', () => {
  it('POST /api/scan with a 200,000-character player: 400', async () => {
    const { abuse } = await underWatch('scan, 200,000-char player', () =>
      call(api.base, 'POST', '/api/scan', { player: longName(200_000), stat: 'points', line: 25.5, direction: 'over' }),
    );
    expectRefused(abuse, 'player');
  });

  it('POST /api/parlay/grade with two 50,000-character names: 400', async () => {
    const leg = () => ({ player: longName(50_000), stat: 'points', line: 20.5, side: 'over' });
    const { abuse } = await underWatch('parlay, two 50,000-char names', () => call(api.base, 'POST', '/api/parlay/grade', { legs: [leg(), leg()] }));
    expectRefused(abuse, 'player');
  });

  it('POST /api/analyze (analyst token) with 20,000 characters: 400', async () => {
    const { abuse } = await underWatch('analyze, 20,000-char player', () =>
      call(api.base, 'POST', '/api/analyze', { player: longName(20_000), stat: 'points', line: 25.5, direction: 'over' }, analyst),
    );
    expectRefused(abuse, 'player');
  });

  it('a name at the bound that matches nobody: answered (unknown player) without a stall', async () => {
    // Built of common letter pairs and words so the near-miss index narrows as little as it can.
    const names = [longName(PLAYER_NAME_MAX), 'a e i o u n r s t l '.repeat(5).slice(0, PLAYER_NAME_MAX), 'Jalen '.repeat(17).slice(0, PLAYER_NAME_MAX)];
    for (const [i, player] of names.entries()) {
      const { abuse } = await underWatch(`scan, in-bound unknown name ${i + 1} (${player.length} chars)`, () =>
        call(api.base, 'POST', '/api/scan', { player, stat: 'points', line: 25.5, direction: 'over' }),
      );
      expect(abuse.status).toBe(200);
      expect(abuse.body['status']).toBe('unknown_player');
      expect(abuse.ms).toBeLessThan(MAX_ANSWER_MS);
    }
  });

  it('a near miss still gets its suggestion, quickly', async () => {
    const { abuse } = await underWatch('scan, near miss "Jalen Brunsonn"', () =>
      call(api.base, 'POST', '/api/scan', { player: 'Jalen Brunsonn', stat: 'points', line: 25.5, direction: 'over' }),
    );
    expect(abuse.status).toBe(200);
    expect(JSON.stringify(abuse.body)).toContain('Jalen Brunson');
    expect(abuse.ms).toBeLessThan(MAX_ANSWER_MS);
  });

  it('POST /api/slips/parse with 555 made-up legs in 20,000 characters: 400 before any is graded', async () => {
    const text = 'Jalen Brunson Over 25.5 Points -110\n'.repeat(555);
    const { abuse } = await underWatch('slips/parse, 555 legs of text', () => call(api.base, 'POST', '/api/slips/parse', { text }, analyst));
    expectRefused(abuse, 'legs');
  });

  it('POST /api/slips/parse with 20,000 digits: read at once (no backtracking in the book detection)', async () => {
    const { abuse } = await underWatch('slips/parse, 20,000 digits', () => call(api.base, 'POST', '/api/slips/parse', { text: '1'.repeat(20_000) }, analyst));
    expect(abuse.status).toBe(200);
    expect(abuse.body['bets']).toEqual([]);
    expect(abuse.ms).toBeLessThan(MAX_ANSWER_MS);
  });

  it('GET /api/stats/player with an in-bound unknown name: answered without a stall', async () => {
    const { abuse } = await underWatch('stats/player, 60-char unknown name', () =>
      call(api.base, 'GET', `/api/stats/player/${encodeURIComponent(longName(60).trim())}?sport=nba`),
    );
    expect(abuse.status).toBeLessThan(500);
    expect(abuse.ms).toBeLessThan(MAX_ANSWER_MS);
  });
});
