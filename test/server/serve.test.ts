import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startApiServer } from '../../src/server/serve.js';
import { openStore } from '../../src/store/db.js';

describe('startApiServer (propgrade serve)', () => {
  it('serves the app on a node:http server on loopback and reports the cron when asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-serve-'));
    const store = openStore(join(dir, 'pg.sqlite'));
    const running = await startApiServer({
      store,
      config: loadConfig({}),
      port: 0,
      host: '127.0.0.1',
      cron: true,
      log: { info() {}, warn() {} },
      now: () => new Date('2025-11-05T17:05:00Z'),
    });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(running.cronNext).toBeInstanceOf(Date);
      const summary = (await (await fetch(new URL('/api/snapshot/summary', running.url))).json()) as Record<string, unknown>;
      // An empty store has no run: said so, with no invented time or status.
      expect(summary).toMatchObject({ ran: false, last_run_at: null, sync_status: null, graded: 0, sports: [], message: 'no snapshot run has completed yet' });
      const hero = await (await fetch(new URL('/api/hero-prop', running.url))).json();
      expect(hero).toEqual({ available: false });
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('served socket limits', () => {
  it('sets header, request and keep-alive timeouts, the deadline check and the connection cap on the listening server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-serve-limits-'));
    const store = openStore(join(dir, 'pg.sqlite'));
    const running = await startApiServer({ store, config: loadConfig({}), port: 0, host: '127.0.0.1', cron: false, log: { info() {}, warn() {} } });
    try {
      expect(running.socketLimits()).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, checkEveryMs: 1_000, maxConnections: 1024 });
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PROPGRADE_MAX_CONNECTIONS sets the cap; a value out of range stops the start naming the variable', () => {
    expect(loadConfig({ PROPGRADE_MAX_CONNECTIONS: '64' }).PROPGRADE_MAX_CONNECTIONS).toBe(64);
    for (const bad of ['0', '-1', 'many', '1.5', '70000']) expect(() => loadConfig({ PROPGRADE_MAX_CONNECTIONS: bad })).toThrow(/PROPGRADE_MAX_CONNECTIONS/);
  });
});
