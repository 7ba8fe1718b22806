import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { copyStore } from '../../src/store/copy.js';
import { openStoreAt, type Store } from '../../src/store/db.js';
import { seedStore, startServer, type Running, type Seeded } from '../server/_harness.js';

/**
 * /readyz when its store is unreachable (issue 40 item 7). A throwaway PostgreSQL cluster of this
 * test's own (scripts/pg/cluster.sh; never the shared test server) holds a copy of the seeded
 * replay store; the server is ready, then the cluster is stopped under it. Before: 500 INTERNAL
 * "internal error". Now: 503 UNAVAILABLE with the reason, which names the driver's error code and
 * never the host or port.
 */

const CLUSTER = join('scripts', 'pg', 'cluster.sh');
const WALL = new Date('2026-12-01T12:00:00Z');
let clusterDir: string;
let port: number;
let seeded: Seeded;
let store: Store;
let api: Running;
const warnings: string[] = [];

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: p } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return p;
}

const cluster = (...args: string[]) => execFileSync('bash', [CLUSTER, ...args], { encoding: 'utf8' }).trim();

beforeAll(async () => {
  clusterDir = mkdtempSync(join(tmpdir(), 'pg-store-down-'));
  port = await freePort();
  const url = cluster('start', clusterDir, String(port));
  seeded = await seedStore();
  store = await openStoreAt(url, { poolMax: 2 });
  await copyStore(seeded.store, store);
  api = await startServer({ store, config: loadConfig({}), now: () => seeded.now, wallClock: () => WALL, log: { info() {}, warn: (m) => warnings.push(m) } });
}, 180_000);
afterAll(async () => {
  await api?.close();
  await store?.close().catch(() => undefined);
  if (clusterDir) {
    cluster('stop', clusterDir);
    rmSync(clusterDir, { recursive: true, force: true });
  }
  seeded?.cleanup();
});

describe('/readyz with its PostgreSQL stopped', () => {
  it('answers 200 while the store answers, then 503 with the reason (not 500) once it is stopped', async () => {
    const before = await fetch(`${api.base}/readyz`);
    expect(before.status).toBe(200);
    expect(((await before.json()) as { ready: boolean }).ready).toBe(true);

    cluster('stop', clusterDir);
    const res = await fetch(`${api.base}/readyz`);
    const text = await res.text();
    console.info(`store down: /readyz ${res.status} ${text}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = JSON.parse(text) as { error: { code: string; message: string; details: { ready: boolean; reasons: string[] } } };
    expect(body.error.code).toBe('UNAVAILABLE');
    expect(body.error.message).toMatch(/^not ready: the store is unreachable( \([A-Z0-9_]+\))?$/);
    expect(body.error.details).toEqual({ ready: false, reasons: [body.error.message.replace('not ready: ', '')] });
    // Neither the host nor the port reaches the body; the driver's own text goes to the server log.
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(String(port));
    expect(warnings.some((w) => w.startsWith('readyz: the store did not answer: '))).toBe(true);
    // Liveness does no store work and still answers.
    expect((await fetch(`${api.base}/healthz`)).status).toBe(200);
  });

  it('answers again once the store is back', async () => {
    cluster('start', clusterDir, String(port));
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i += 1) {
      const res = await fetch(`${api.base}/readyz`);
      await res.arrayBuffer();
      status = res.status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});
