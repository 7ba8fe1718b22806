import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/_io.js';
import { formatLogLine, redact, TOKEN_SHAPE } from '../../src/log.js';
import { loggedPath, requestIdOf } from '../../src/server/serve.js';
import { seedStore, type Seeded } from '../server/_harness.js';

/**
 * Nothing secret in a log, no caller-chosen id in another's answer (issue 40 item 6). The real CLI
 * serves a seeded store in this process, in both log formats, and the test reads its stderr: a user
 * token minted by `createUser` (what `propgrade users add` prints) is sent in a path, as a query key,
 * as a query value and as `x-request-id`, plain and percent-escaped. Before, 3 of those 4
 * placements reached the log as sent (the query value was already dropped).
 */

const INTERNAL_KEY = 'internal-key-for-the-log-test-0123';
let seeded: Seeded;
let token: string;
const servers: Array<{ url: string; err: () => string; stop: () => void }> = [];

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** `propgrade serve` on port 0 over the seeded store, its stderr kept. */
async function serve(env: Record<string, string>): Promise<{ url: string; err: () => string; stop: () => void }> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, env: { INTERNAL_API_KEY: INTERNAL_KEY, ...env } };
  const before = new Set(process.listeners('SIGTERM'));
  const code = await main(['--db', join(seeded.dir, 'pg.sqlite'), '--now', seeded.now.toISOString(), 'serve', '--port', '0'], io);
  expect(code).toBe(0);
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)?.[1];
  expect(url, stdout).toBeDefined();
  const handler = process.listeners('SIGTERM').find((l) => !before.has(l)) as () => void;
  const s = { url: url!, err: () => stderr, stop: handler };
  servers.push(s);
  return s;
}

beforeAll(async () => {
  seeded = await seedStore();
  token = (await createUser(seeded.store, { email: 'log-secrets@example.test', tier: 'analyst' }, seeded.now)).token;
}, 120_000);
afterAll(async () => {
  for (const s of servers) s.stop();
  await new Promise((r) => setTimeout(r, 50));
  seeded?.cleanup();
});

/** The four placements, and the same with the token percent-escaped where a path or key may carry it. */
function placements(t: string): Array<{ label: string; path: string; headers?: Record<string, string> }> {
  const escaped = t.replace('pg_', 'pg%5F');
  return [
    { label: 'path', path: `/api/stats/player/${t}` },
    { label: 'path, escaped', path: `/api/stats/player/${escaped}` },
    { label: 'query key', path: `/api/players/search?${t}=1&q=x` },
    { label: 'query key, escaped', path: `/api/players/search?${escaped}` },
    { label: 'query value', path: `/api/players/search?q=${t}` },
    { label: 'x-request-id', path: '/api/snapshot/summary', headers: { 'x-request-id': t } },
  ];
}

describe.each(['text', 'json'] as const)('PROPGRADE_LOG_FORMAT=%s', (format) => {
  it('a user token reaches the log in none of the placements; the request lines are there', async () => {
    const s = await serve({ PROPGRADE_LOG_FORMAT: format });
    const sent = placements(token);
    const ids: string[] = [];
    for (const p of sent) {
      const res = await fetch(new URL(p.path, s.url), { headers: p.headers ?? {} });
      await res.arrayBuffer();
      ids.push(res.headers.get('x-request-id') ?? '');
    }
    await until(() => s.err().split('\n').filter((l) => l.includes('/api/')).length >= sent.length, `${sent.length} request lines`);
    const log = s.err();
    const found = log.split('\n').filter((l) => l.includes(token)).length;
    console.info(`log-secrets (${format}): ${sent.length} placements sent, ${found} log lines carry the token`);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(3));
    expect(log).toContain('[redacted]');
    // The answer to a token sent as x-request-id carries a fresh id, not the token.
    expect(ids.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
    if (format === 'json') {
      const lines = log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.some((l) => l['path'] === '/api/stats/player/[redacted]')).toBe(true);
      expect(lines.some((l) => l['path'] === '/api/players/search?[redacted]&q')).toBe(true);
      expect(lines.some((l) => l['request_id'] === ids.at(-1))).toBe(true);
    } else {
      expect(log).toMatch(/GET \/api\/stats\/player\/\[redacted\] 404 \d+ ms/);
    }
  }, 60_000);
});

describe('x-request-id', () => {
  it('is kept only in the safe shape (1-64 of A-Z a-z 0-9 . _ -) and never when it holds a token', () => {
    expect(requestIdOf('abc.DEF_1-2')).toBe('abc.DEF_1-2');
    expect(requestIdOf('x'.repeat(64))).toBe('x'.repeat(64));
    for (const bad of ['x'.repeat(65), '', 'a b', 'a/b', 'id\r\nx: y', 'é', token, `req-${token}`]) expect(requestIdOf(bad)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(['a', 'b'])).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a kept answer carries the id of the request it answers, never that of the request that built it', async () => {
    const s = await serve({ PROPGRADE_LOG_FORMAT: 'text' });
    const get = async (id?: string) => {
      const res = await fetch(new URL('/api/snapshot/nba', s.url), { headers: id ? { 'x-request-id': id } : {} });
      await res.arrayBuffer();
      return { status: res.status, id: res.headers.get('x-request-id') };
    };
    // The first builds and keeps the answer; the next ones are answered from it (counted by /metrics).
    expect(await get('chosen-by-caller-a')).toEqual({ status: 200, id: 'chosen-by-caller-a' });
    expect(await get('chosen-by-caller-a')).toEqual({ status: 200, id: 'chosen-by-caller-a' });
    const b = await get();
    expect(b.status).toBe(200);
    expect(b.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await get('caller-c')).toEqual({ status: 200, id: 'caller-c' });
    const metrics = await (await fetch(new URL('/metrics', s.url), { headers: { 'x-internal-key': INTERNAL_KEY } })).text();
    const replayed = Number(/^propgrade_snapshot_replayed_answers (\d+)$/m.exec(metrics)?.[1]);
    expect(replayed).toBe(3);
    console.info(`kept answers: ${replayed} replayed, each with its own request's id (before: all repeated "chosen-by-caller-a")`);
  });
});

describe('the redaction itself', () => {
  it('TOKEN_SHAPE matches every token createUser mints, and redact() removes it anywhere in a line', () => {
    expect(TOKEN_SHAPE.test(token)).toBe(true);
    expect(redact(`a ${token} b ${token}x`, [])).toBe('a [redacted] b [redacted]x');
    expect(formatLogLine('json', { level: 'warn', message: `m ${token}`, fields: { requestId: token, path: `/p/${token}` }, time: new Date(0) }, [])).not.toContain(token);
  });

  it('loggedPath drops a token from a path segment or query key, escaped or not, before it cuts the path', () => {
    expect(loggedPath(`/api/stats/player/${token}`)).toBe('/api/stats/player/[redacted]');
    expect(loggedPath(`/api/stats/player/${token.replace('_', '%5f')}?x=1`)).toBe('/api/stats/player/[redacted]?x');
    expect(loggedPath(`/api/ticker?a=1&${token}=2`)).toBe('/api/ticker?a&[redacted]');
    expect(loggedPath(`/${'a'.repeat(180)}/${token}`)).not.toContain(token.slice(0, 12));
    expect(loggedPath('/api/stats/player/%E0%A4%A')).toBe('/api/stats/player/%E0%A4%A');
  });
});
