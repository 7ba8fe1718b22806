import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/_io.js';
import { loadConfig } from '../../src/config.js';
import { closeOnSignals, loggedPath, requestLogLine, startApiServer, type RequestRecord, type RunningApiServer } from '../../src/server/serve.js';
import { openStore } from '../../src/store/db.js';

const NOW = new Date('2025-11-05T17:05:00Z');
const SECRET_TOKEN = 'pg_secret-token-that-must-not-be-logged';
const SECRET_KEY = 'internal-key-that-must-not-be-logged';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-reqlog-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The log line is written when the response closes, which can trail the client's read by a tick. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Resolves once the server refuses connections (its socket is closed). */
async function refused(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(new URL('/api/ticker', url)).then(
      async (r) => {
        await r.arrayBuffer();
        return true;
      },
      () => false,
    );
    if (!ok) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${url} still answers`);
}

async function start(requestLog: ((r: RequestRecord) => void) | null): Promise<RunningApiServer> {
  const store = openStore(join(tempDir(), 'pg.sqlite'));
  return startApiServer({ store, config: loadConfig({}), port: 0, host: '127.0.0.1', cron: false, log: { info() {}, warn() {} }, requestLog, now: () => NOW });
}

describe('request log line', () => {
  it('keeps the path and the query keys, never the query values', () => {
    expect(loggedPath('/api/ledger/model?date=2025-11-05&team=NY')).toBe('/api/ledger/model?date&team');
    expect(loggedPath(`/api/ticker?token=${SECRET_TOKEN}`)).toBe('/api/ticker?token');
    expect(loggedPath('/api/ticker?')).toBe('/api/ticker');
    expect(requestLogLine({ method: 'GET', path: loggedPath('/api/snapshot/nba?x=1'), status: 200, ms: 12.4 })).toBe('GET /api/snapshot/nba?x 200 12 ms');
    expect(requestLogLine({ method: 'POST', path: loggedPath('/api/scan'), status: 'aborted', ms: 3 })).toBe('POST /api/scan aborted 3 ms');
  });

  it('escapes control characters and cuts a very long path', () => {
    expect(loggedPath('/a\tb')).toBe('/a%09b');
    const long = loggedPath(`/${'x'.repeat(500)}`);
    expect(long.length).toBe(203);
    expect(long.endsWith('...')).toBe(true);
  });
});

describe('propgrade serve request log (real server on loopback)', () => {
  it('logs one line per request with method, path, status and ms, and no header or query value', async () => {
    const lines: string[] = [];
    const running = await start((r) => lines.push(requestLogLine(r)));
    try {
      const summary = await fetch(new URL('/api/snapshot/summary', running.url));
      expect(summary.status).toBe(200);
      await summary.arrayBuffer();
      const missing = await fetch(new URL('/api/nope', running.url));
      expect(missing.status).toBe(404);
      await missing.arrayBuffer();
      const search = await fetch(new URL(`/api/players/search?q=brunson&token=${SECRET_TOKEN}`, running.url), { headers: { authorization: `Bearer ${SECRET_TOKEN}` } });
      await search.arrayBuffer();
      const internal = await fetch(new URL('/api/internal/snapshot/all', running.url), { method: 'POST', headers: { 'x-internal-key': SECRET_KEY, authorization: `Bearer ${SECRET_TOKEN}` } });
      expect(internal.status).toBeGreaterThanOrEqual(400);
      await internal.arrayBuffer();
      await until(() => lines.length === 4, '4 request lines');

      expect(lines[0]).toMatch(/^GET \/api\/snapshot\/summary 200 \d+ ms$/);
      expect(lines[1]).toMatch(/^GET \/api\/nope 404 \d+ ms$/);
      expect(lines[2]).toMatch(new RegExp(`^GET /api/players/search\\?q&token ${search.status} \\d+ ms$`));
      expect(lines[3]).toMatch(new RegExp(`^POST /api/internal/snapshot/all ${internal.status} \\d+ ms$`));
      for (const line of lines) {
        expect(line).not.toContain(SECRET_TOKEN);
        expect(line).not.toContain(SECRET_KEY);
        expect(line).not.toContain('brunson');
        expect(line.split('\n')).toHaveLength(1);
      }
      expect(running.requestsServed()).toBe(4);
    } finally {
      await running.close();
    }
  });

  it('with the log off (--quiet) writes nothing but still counts', async () => {
    const running = await start(null);
    try {
      const r = await fetch(new URL('/openapi.json', running.url));
      expect(r.status).toBe(200);
      await r.arrayBuffer();
      await until(() => running.requestsServed() === 1, 'one served request');
    } finally {
      await running.close();
    }
  });

  it('on SIGTERM prints one shutdown line with the count, closes the socket, and drops its handlers', async () => {
    const running = await start(null);
    const signals = new EventEmitter();
    const announced: string[] = [];
    const handle = closeOnSignals(running, { announce: (l) => announced.push(l), signals });
    expect(signals.listenerCount('SIGINT')).toBe(1);
    expect(signals.listenerCount('SIGTERM')).toBe(1);
    for (let i = 0; i < 2; i++) await (await fetch(new URL('/api/snapshot/summary', running.url))).arrayBuffer();
    await until(() => running.requestsServed() === 2, 'two served requests');

    signals.emit('SIGTERM');
    await handle.done;
    expect(announced).toEqual(['propgrade serve: shutting down (2 requests served)']);
    expect(signals.listenerCount('SIGINT')).toBe(0);
    expect(signals.listenerCount('SIGTERM')).toBe(0);
    await expect(fetch(new URL('/api/snapshot/summary', running.url))).rejects.toThrow();
    // A second close (a caller's own, after the signal's) is the same shutdown, not an error.
    await running.close();
  });
});

describe('propgrade serve (the real CLI, in-process)', () => {
  /** Runs `main` with streams that keep collecting after it returns (the server outlives the call). */
  function liveIO(): { io: CliIO; out: () => string; err: () => string } {
    let stdout = '';
    let stderr = '';
    const io: CliIO = {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      isTTY: false,
      env: {},
    };
    return { io, out: () => stdout, err: () => stderr };
  }

  /** Starts `serve` on port 0 and returns its URL and the SIGTERM handler it installed on the process. */
  async function serve(extra: string[]): Promise<{ url: string; stop: () => void; handler: unknown; err: () => string }> {
    const before = new Set(process.listeners('SIGTERM'));
    const { io, out, err } = liveIO();
    // serve reads a store that exists (it makes one only when it runs its own snapshots).
    const db = join(tempDir(), 'pg.sqlite');
    await openStore(db).close();
    const code = await main(['--db', db, '--now', NOW.toISOString(), 'serve', '--port', '0', ...extra], io);
    expect(code).toBe(0);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out())?.[1];
    expect(url, out()).toBeDefined();
    const added = process.listeners('SIGTERM').filter((l) => !before.has(l));
    expect(added).toHaveLength(1);
    // Call the handler itself rather than signal the test process.
    const handler = added[0] as () => void;
    // The same handler listens for SIGINT (Ctrl-C).
    expect(process.listeners('SIGINT')).toContain(handler);
    return { url: url!, stop: () => handler(), handler, err };
  }

  it('logs requests on stderr and says how many it served when stopped', async () => {
    const s = await serve([]);
    await (await fetch(new URL('/api/ticker', s.url))).arrayBuffer();
    await until(() => /GET \/api\/ticker 200 \d+ ms\n/.test(s.err()), 'the ticker request line');
    s.stop();
    await until(() => s.err().includes('propgrade serve: shutting down (1 request served)\n'), 'the shutdown line');
    await refused(s.url);
    expect(process.listeners('SIGINT')).not.toContain(s.handler);
  });

  it('--quiet keeps stderr free of request lines but still prints the shutdown line', async () => {
    const s = await serve(['--quiet']);
    await (await fetch(new URL('/api/ticker', s.url))).arrayBuffer();
    await (await fetch(new URL('/api/ticker', s.url))).arrayBuffer();
    s.stop();
    await until(() => s.err().includes('propgrade serve: shutting down (2 requests served)\n'), 'the shutdown line');
    await refused(s.url);
    expect(s.err()).not.toMatch(/GET \/api\/ticker/);
  });
});
