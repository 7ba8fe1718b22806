import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get as httpGet, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Env } from '../../src/config.js';
import { ensureReplaySeed } from '../../src/jobs/import-history.js';
import { runSnapshot } from '../../src/jobs/snapshot-run.js';
import { buildOddsSource } from '../../src/feeds/factory.js';
import { createApp, type CreateAppOptions, type ServerApp } from '../../src/server/app.js';
import { openStore, type SqliteStore, type Store } from '../../src/store/db.js';
import { copyOn, type EngineName } from '../helpers/engines.js';

/** The bundled replay's recorded clock: the 2025-11-05 NBA slate is ahead of it. */
export const REPLAY_NOW = new Date('2025-11-05T17:05:00Z');
export const quiet = { info() {}, warn() {} };

export interface Seeded {
  dir: string;
  store: SqliteStore;
  config: Env;
  now: Date;
  cleanup(): void;
}

/** A temp store seeded by the real snapshot pipeline over the bundled NBA replay (data/replay). */
export async function seedStore(env: Record<string, string> = {}): Promise<Seeded> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-server-'));
  const store = openStore(join(dir, 'pg.sqlite'));
  const config = loadConfig(env);
  const now = REPLAY_NOW;
  const sources = await buildOddsSource(config, { replayDir: 'data/replay', recordDir: null, now, log: quiet });
  await ensureReplaySeed(store, 'data/replay', sources.seed, now, quiet, ['nba']);
  await runSnapshot('nba', { store, odds: sources.odds, now, allowedBooks: null, log: quiet, source: 'replay' });
  await sources.close();
  return {
    dir,
    store,
    config,
    now,
    // Stays synchronous (as test/helpers/replay-store.ts): close() shuts the connection before it returns its promise.
    cleanup: () => {
      void store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface SeededOn {
  engine: EngineName;
  /** The store under test: the seeded SQLite file itself, or a PostgreSQL copy of it (`db copy`'s code). */
  store: Store;
  /** What `--db` / PROPGRADE_DB takes for `store`. */
  target: string;
  /** The seeded SQLite store the engine's store was made from: the raw rows to compare against. */
  source: SqliteStore;
  sourcePath: string;
  config: Env;
  now: Date;
  cleanup(): Promise<void>;
}

/**
 * `seedStore()` on either engine: the SQLite file seeded by the real pipeline, served as it is
 * ('sqlite') or copied row for row, ids included, into a fresh PostgreSQL database ('postgres').
 */
export async function seedStoreOn(engine: EngineName, env: Record<string, string> = {}): Promise<SeededOn> {
  const seeded = await seedStore(env);
  const sourcePath = join(seeded.dir, 'pg.sqlite');
  const base = { engine, source: seeded.store, sourcePath, config: seeded.config, now: seeded.now };
  if (engine === 'sqlite') return { ...base, store: seeded.store, target: sourcePath, cleanup: async () => seeded.cleanup() };
  const copy = await copyOn('postgres', sourcePath);
  return {
    ...base,
    store: copy.store,
    target: copy.target,
    cleanup: async () => {
      await copy.cleanup();
      seeded.cleanup();
    },
  };
}

export interface Running {
  server: ServerApp;
  base: string;
  close(): Promise<void>;
}

/** The real app on a real loopback socket (port 0). */
export async function startServer(options: CreateAppOptions): Promise<Running> {
  const server = createApp(options);
  const http: Server = createServer(server.listener);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => http.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** Every key path in a JSON value whose key is one of `keys`. */
export function findKeys(value: unknown, keys: readonly string[], path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => findKeys(v, keys, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (keys.includes(k)) out.push(`${path}.${k}`);
    out.push(...findKeys(v, keys, `${path}.${k}`));
  }
  return out;
}

/** A GET answer exactly as sent: status, headers and the undecoded body bytes. */
export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A node:http server on a loopback port for `listener`, added to `servers` (to close); its base URL. */
export async function listenOnLoopback(listener: RequestListener, servers: Server[]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** GET over a fresh connection, the body left as sent (no decompression). */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    httpGet(base + path, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * One request written byte for byte on a fresh socket (`Connection: close`), and every byte the
 * server sent back: the status line and header lines exactly as written (order, spelling,
 * repeated lines) and the body. `Date` is the only header whose value is replaced (`<date>`),
 * the one line that differs between two otherwise identical answers.
 */
export function rawExchange(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<{ head: string[]; body: Buffer }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), 'Connection: close'];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = all
        .subarray(0, end)
        .toString('latin1')
        .split('\r\n')
        .map((line) => (/^date: /i.test(line) ? `${line.slice(0, 4)}: <date>` : line));
      resolve({ head, body: all.subarray(end + 4) });
    });
    socket.on('error', reject);
  });
}
