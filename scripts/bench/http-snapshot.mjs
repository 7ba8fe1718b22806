// Benchmark: GET /api/snapshot/nba through the real API (h3 app, store lookup, tier cache, ETag)
// against a bare node:http server that answers every request with the same bytes and headers
// (issue 7). Both run in this process, on 127.0.0.1 only, measured in alternating rounds by the
// same undici client; the ratio api/bare is the figure to quote (target >= 0.9).
//
// Run after `npm run build`: node scripts/bench/http-snapshot.mjs [requestsPerRound] [rounds] [connections]
// The store is a temp SQLite file seeded by the real snapshot pipeline over the bundled replay
// (data/replay, the 2025-11-05 NBA slate), exactly as the server tests seed it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { loadConfig } from '../../dist/config.js';
import { ensureReplaySeed } from '../../dist/pipeline/import-history.js';
import { runSnapshot } from '../../dist/pipeline/snapshot.js';
import { buildOddsSource } from '../../dist/pipeline/wiring.js';
import { createApp } from '../../dist/server/app.js';
import { openStore } from '../../dist/store/db.js';

const PER_ROUND = Number(process.argv[2] ?? 400);
const ROUNDS = Number(process.argv[3] ?? 5);
const CONNECTIONS = Number(process.argv[4] ?? 8);
const PATH = '/api/snapshot/nba';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const replayDir = join(root, 'data/replay');

const listen = (handler) =>
  new Promise((ok) => {
    const server = createServer(handler);
    server.keepAliveTimeout = 30_000;
    server.listen(0, '127.0.0.1', () => ok(server));
  });
const close = (server) => new Promise((ok) => server.close(() => ok()));
const origin = (server) => `http://127.0.0.1:${server.address().port}`;

/** `count` GETs over `connections` keep-alive sockets, every body read to the end. */
async function load(pool, count) {
  let next = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const res = await pool.request({ path: PATH, method: 'GET' });
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      for await (const chunk of res.body) bytes += chunk.length;
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { rps: count / seconds, bytes };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'pg-bench-http-'));
const store = openStore(join(dir, 'pg.sqlite'));
try {
  const now = new Date('2025-11-05T17:05:00Z');
  const log = { info() {}, warn() {} };
  const config = loadConfig({});
  const sources = await buildOddsSource(config, { replayDir, recordDir: null, now, log });
  ensureReplaySeed(store, replayDir, sources.seed, now, log);
  const run = await runSnapshot('nba', { store, odds: sources.odds, now, allowedBooks: null, log });
  await sources.close();

  const api = createApp({ store, config, now: () => now });
  const apiServer = await listen(api.listener);
  const first = await fetch(origin(apiServer) + PATH);
  const bytes = Buffer.from(await first.arrayBuffer());
  const headers = {};
  for (const name of ['content-type', 'cache-control', 'vary', 'etag']) headers[name] = first.headers.get(name);
  headers['content-length'] = String(bytes.length);
  const bareServer = await listen((_req, res) => {
    res.writeHead(200, headers);
    res.end(bytes);
  });

  const apiPool = new Pool(origin(apiServer), { connections: CONNECTIONS, pipelining: 1 });
  const barePool = new Pool(origin(bareServer), { connections: CONNECTIONS, pipelining: 1 });
  await load(apiPool, Math.min(50, PER_ROUND));
  await load(barePool, Math.min(50, PER_ROUND));
  const apiRps = [];
  const bareRps = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first so drift (thermal, GC, other load) hits both alike.
    const order = r % 2 === 0 ? ['api', 'bare'] : ['bare', 'api'];
    for (const which of order) {
      const res = await load(which === 'api' ? apiPool : barePool, PER_ROUND);
      if (res.bytes !== bytes.length * PER_ROUND) throw new Error(`${which}: short read`);
      (which === 'api' ? apiRps : bareRps).push(res.rps);
    }
  }
  await apiPool.close();
  await barePool.close();
  await close(apiServer);
  await close(bareServer);

  const a = median(apiRps);
  const b = median(bareRps);
  console.log(`snapshot ${run.snapshotId}: ${run.rows} rows, ${bytes.length} bytes per response (free tier, no token)`);
  console.log(`${ROUNDS} rounds x ${PER_ROUND} requests, ${CONNECTIONS} keep-alive connections, undici Pool on 127.0.0.1`);
  console.log(`api  GET ${PATH}: median ${a.toFixed(1)} req/s  (rounds: ${apiRps.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`bare node:http same bytes: median ${b.toFixed(1)} req/s  (rounds: ${bareRps.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`ratio api/bare: ${(a / b).toFixed(3)} (target >= 0.9); serializations: ${api.snapshotCache.serializations()}`);
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
