import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/**
 * PROPGRADE_LOG_FORMAT=json (issue 34): every stderr line of `serve` and of a run is one JSON object,
 * and no token, key or query value reaches a line in either format. `serve` runs as the real built
 * CLI in its own process, stopped with SIGTERM as systemd stops it.
 */
const TOKEN = 'pg_live_logtest_0123456789abcdef';
const KEY = 'internal-key-log-test-0123456789';
const ODDS_KEY = 'odds-key-never-logged-42';
let dir: string;
let db: string;

beforeAll(async () => {
  if (!existsSync('dist/bundle/main.js')) throw new Error('dist/bundle/ is missing: run `npm run build` before this test');
  dir = mkdtempSync(join(tmpdir(), 'pg-logfmt-'));
  db = join(dir, 'pg.sqlite');
  expect((await runCli(['snapshot', 'nba', '--replay', 'data/replay', '--db', db])).code).toBe(0);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serveAndRequest(format: 'json' | 'text'): Promise<string[]> {
  const child = spawn(process.execPath, ['bin/propgrade.js', 'serve', '--db', db, '--port', '0'], {
    env: { ...process.env, PROPGRADE_LOG_FORMAT: format, INTERNAL_API_KEY: KEY, ODDS_API_KEY: ODDS_KEY, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const deadline = Date.now() + 30_000;
    while (!/listening on (\S+)/.test(stdout)) {
      if (Date.now() > deadline) throw new Error(`serve did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const base = /listening on (\S+)/.exec(stdout)![1]!.replace(/\/$/, '');
    const auth = { authorization: `Bearer ${TOKEN}` };
    await (await fetch(`${base}/api/snapshot/summary?token=${TOKEN}&key=${KEY}`, { headers: auth })).arrayBuffer();
    await (await fetch(`${base}/api/internal/snapshot/all`, { method: 'POST', headers: { 'x-internal-key': 'wrong-key-0123456789', ...auth } })).arrayBuffer();
    await (await fetch(`${base}/metrics`, { headers: { 'x-internal-key': KEY } })).arrayBuffer();
    await (await fetch(`${base}/api/players/search?q=${ODDS_KEY}`)).arrayBuffer();
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  return stderr.split('\n').filter((l) => l !== '');
}

describe('PROPGRADE_LOG_FORMAT', () => {
  it('json: every stderr line of serve is a JSON object with time, level and message; requests carry id, route, status and ms', async () => {
    const lines = await serveAndRequest('json');
    const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const o of objects) {
      expect(typeof o['time']).toBe('string');
      expect(['info', 'warn', 'error']).toContain(o['level']);
      expect(typeof o['message']).toBe('string');
    }
    const requests = objects.filter((o) => o['message'] === 'request');
    expect(requests.map((r) => [r['route'], r['status']])).toEqual([
      ['/api/snapshot/summary', 200],
      ['/api/internal/snapshot/all', 401],
      ['/metrics', 200],
      ['/api/players/search', 200],
    ]);
    for (const r of requests) {
      expect(r['request_id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof r['ms']).toBe('number');
    }
    expect(requests[0]!['path']).toBe('/api/snapshot/summary?token&key');
    expect(objects.at(-1)!['message']).toMatch(/^propgrade serve: shutting down \(4 requests served\)$/);
    const all = lines.join('\n');
    for (const secret of [TOKEN, KEY, ODDS_KEY, 'wrong-key-0123456789']) expect(all).not.toContain(secret);
  }, 60_000);

  it('text stays the default: one plain line per request, and no secret either', async () => {
    const lines = await serveAndRequest('text');
    expect(lines.filter((l) => /^(GET|POST) /.test(l))).toHaveLength(4);
    expect(() => JSON.parse(lines[0]!)).toThrow();
    const all = lines.join('\n');
    for (const secret of [TOKEN, KEY, ODDS_KEY]) expect(all).not.toContain(secret);
  }, 60_000);

  it('a run under json: each progress line and a failure are JSON objects naming the sport', async () => {
    const run = await runCli(['snapshot', 'nba', '--replay', 'data/replay', '--db', db, '--now', '2025-11-05T15:05:00Z'], { PROPGRADE_LOG_FORMAT: 'json' });
    const objects = run.stderr.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objects.length).toBeGreaterThan(0);
    expect(objects.some((o) => o['sport'] === 'nba')).toBe(true);
    const failed = await runCli(['snapshot', 'cricket', '--db', db], { PROPGRADE_LOG_FORMAT: 'json' });
    expect(failed.code).toBe(2);
    const last = JSON.parse(failed.stderr.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last['level']).toBe('error');
  }, 120_000);
});
