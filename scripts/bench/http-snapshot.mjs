// Benchmark: GET /api/snapshot/nba through the real API (h3 app, store lookup, tier cache, ETag,
// Accept-Encoding negotiation) against a bare node:http server that answers every request with the
// same bytes and headers (issue 7). Two modes, each with the same bytes on both sides:
//   plain: no Accept-Encoding; both serve the JSON bytes;
//   gzip:  Accept-Encoding: gzip; both serve the API's gzip bytes (Content-Encoding: gzip).
// Both servers run in this process, on 127.0.0.1 only, measured in alternating rounds by the same
// undici client (which never decodes: the bytes counted are the bytes on the wire). The ratios
// api/bare are the figures to quote (target >= 0.9).
//
// Run after `npm run build`:
//   node scripts/bench/http-snapshot.mjs [requestsPerRound] [rounds] [connections] [gzipRequestsPerRound]
// gzip rounds default to 4x the plain request count: a gzip body is ~1/18 of the plain one, so
// equal counts would give rounds too short to time.
// The store is a temp SQLite file seeded by the real snapshot pipeline over the bundled replay
// (data/replay, the 2025-11-05 NBA slate), exactly as the server tests seed it.
//
// These anonymous polls are what the app answers from its kept answers (src/server/replay.ts:
// the route's own head and bytes written again while the snapshot cache hands out the same
// entry, after the same freshness check); the output says how many were. A request with a token
// never is: the "gzip, token" line measures the route's own path the same way (a free user's
// token, so the same bytes; against a bare server sending them with the API's headers for it).
// It is a diagnostic, not part of the ratio line.
//
// Views (issue 18): each query view of the route (the slate card, one game, one player, one stat,
// min grade A, main lines only) is then measured the same way in brotli (what a browser gets):
// its plain / gzip / brotli bytes, and API vs bare req/s on the same brotli bytes.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { loadConfig } from '../../dist/config.js';
import { ensureReplaySeed } from '../../dist/jobs/import-history.js';
import { runSnapshot } from '../../dist/jobs/snapshot-run.js';
import { createUser } from '../../dist/accounts/users.js';
import { buildOddsSource } from '../../dist/feeds/factory.js';
import { createApp } from '../../dist/server/app.js';
import { openStore } from '../../dist/store/db.js';
import { benchResult, loadPool, SMOKE } from './_shared.mjs';

const PER_ROUND = Number(process.argv[2] ?? (SMOKE ? 20 : 400));
const ROUNDS = Number(process.argv[3] ?? (SMOKE ? 1 : 5));
const CONNECTIONS = Number(process.argv[4] ?? 8);
const GZIP_PER_ROUND = Number(process.argv[5] ?? PER_ROUND * 4);
const VIEW_PER_ROUND = SMOKE ? 50 : 3000;
const VIEW_ROUNDS = SMOKE ? 1 : 3;
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

/** One request's raw bytes and the headers a client sees, as the API answers them. */
async function capture(pool, headers, path = PATH) {
  const res = await pool.request({ path, method: 'GET', headers });
  if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const out = {};
  for (const name of ['content-type', 'content-encoding', 'cache-control', 'vary', 'etag']) {
    if (res.headers[name] !== undefined) out[name] = res.headers[name];
  }
  if (Number(res.headers['content-length']) !== bytes.length) throw new Error('content-length differs from the body');
  out['content-length'] = String(bytes.length);
  return { bytes, headers: out };
}

/** `count` GETs over CONNECTIONS keep-alive sockets, every body read to the end. */
const load = async (pool, count, headers, path = PATH) => {
  const { rps, bytes } = await loadPool(pool, { count, connections: CONNECTIONS, path, headers });
  return { rps, bytes };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'pg-bench-http-'));
const store = openStore(join(dir, 'pg.sqlite'));
try {
  const now = new Date('2025-11-05T17:05:00Z');
  const log = { info() {}, warn() {} };
  const config = loadConfig({});
  const sources = await buildOddsSource(config, { replayDir, recordDir: null, now, log });
  await ensureReplaySeed(store, replayDir, sources.seed, now, log);
  const run = await runSnapshot('nba', { store, odds: sources.odds, now, allowedBooks: null, log });
  await sources.close();

  const { token } = await createUser(store, { email: 'bench@example.test', tier: 'free' }, now);
  const api = createApp({ store, config, now: () => now });
  const apiServer = await listen(api.listener);
  const probe = new Pool(origin(apiServer), { connections: 1 });
  const modes = {
    plain: { request: {}, perRound: PER_ROUND, ...(await capture(probe, {})) },
    gzip: { request: { 'accept-encoding': 'gzip' }, perRound: GZIP_PER_ROUND, ...(await capture(probe, { 'accept-encoding': 'gzip' })) },
  };
  await probe.close();
  if (modes.plain.headers['content-encoding'] !== undefined || modes.gzip.headers['content-encoding'] !== 'gzip') throw new Error('the API did not negotiate as expected');
  if (!gunzipSync(modes.gzip.bytes).equals(modes.plain.bytes)) throw new Error('gzip bytes do not decode to the plain bytes');
  // The bare server does the least a server can: pick the stored answer by the one header.
  const bareServer = await listen((req, res) => {
    const mode = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? modes.gzip : modes.plain;
    res.writeHead(200, mode.headers);
    res.end(mode.bytes);
  });

  const apiPool = new Pool(origin(apiServer), { connections: CONNECTIONS, pipelining: 1 });
  const barePool = new Pool(origin(bareServer), { connections: CONNECTIONS, pipelining: 1 });
  const rps = { plain: { api: [], bare: [] }, gzip: { api: [], bare: [] } };
  for (const [name, mode] of Object.entries(modes)) {
    await load(apiPool, Math.min(50, mode.perRound), mode.request);
    await load(barePool, Math.min(50, mode.perRound), mode.request);
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which goes first so drift (thermal, GC, other load) hits both alike.
      const order = r % 2 === 0 ? ['api', 'bare'] : ['bare', 'api'];
      for (const which of order) {
        const res = await load(which === 'api' ? apiPool : barePool, mode.perRound, mode.request);
        if (res.bytes !== mode.bytes.length * mode.perRound) throw new Error(`${name} ${which}: short read`);
        rps[name][which].push(res.rps);
      }
    }
  }
  // The route's own path: the same gzip bytes asked with a token, which is never replayed.
  const tokenRequest = { 'accept-encoding': 'gzip', authorization: `Bearer ${token}` };
  const tokenProbe = new Pool(origin(apiServer), { connections: 1 });
  const tokenMode = await capture(tokenProbe, tokenRequest);
  await tokenProbe.close();
  if (!tokenMode.bytes.equals(modes.gzip.bytes)) throw new Error('a free token did not get the anonymous gzip bytes');
  const tokenBare = await listen((req, res) => {
    res.writeHead(200, tokenMode.headers);
    res.end(tokenMode.bytes);
  });
  // Fresh connections on both sides, as each view has for its bare server: on the API pool that
  // had carried the plain and gzip rounds this line measured 0.51-0.56, on a fresh one 0.67-0.80.
  const tokenApiPool = new Pool(origin(apiServer), { connections: CONNECTIONS, pipelining: 1 });
  const tokenBarePool = new Pool(origin(tokenBare), { connections: CONNECTIONS, pipelining: 1 });
  const tokenRps = { api: [], bare: [] };
  const replayedBefore = api.replays.hits();
  await load(tokenApiPool, 50, tokenRequest);
  await load(tokenBarePool, 50, tokenRequest);
  for (let r = 0; r < ROUNDS; r++) {
    for (const which of r % 2 === 0 ? ['api', 'bare'] : ['bare', 'api']) {
      const res = await load(which === 'api' ? tokenApiPool : tokenBarePool, GZIP_PER_ROUND, tokenRequest);
      if (res.bytes !== tokenMode.bytes.length * GZIP_PER_ROUND) throw new Error(`token ${which}: short read`);
      tokenRps[which].push(res.rps);
    }
  }
  if (api.replays.hits() !== replayedBefore) throw new Error('a request with a token was answered from a kept answer');
  await tokenApiPool.close();
  await tokenBarePool.close();
  await close(tokenBare);
  const apiRequests = (PER_ROUND + GZIP_PER_ROUND) * ROUNDS + Math.min(50, PER_ROUND) + Math.min(50, GZIP_PER_ROUND);
  const replayed = api.replays.hits();

  // Views: bytes per encoding, and req/s in brotli against a bare server serving those bytes.
  const gameId = JSON.parse(modes.plain.bytes.toString('utf8')).games[0].event_id;
  const VIEWS = [
    ['card', '?view=card'],
    ['one game', `?game=${gameId}`],
    ['one player', '?player=Jalen%20Brunson'],
    ['one stat', '?stat=points'],
    ['min grade A', '?min_grade=A'],
    ['main lines', '?main=true'],
    ['card, main, A', '?view=card&main=true&min_grade=A'],
  ];
  const br = { 'accept-encoding': 'gzip, deflate, br' };
  const viewProbe = new Pool(origin(apiServer), { connections: 1 });
  const viewResults = [];
  for (const [name, query] of VIEWS) {
    const path = PATH + query;
    const plain = await capture(viewProbe, {}, path);
    const gz = await capture(viewProbe, { 'accept-encoding': 'gzip' }, path);
    const b = await capture(viewProbe, br, path);
    if (b.headers['content-encoding'] !== 'br' || !brotliDecompressSync(b.bytes).equals(plain.bytes) || !gunzipSync(gz.bytes).equals(plain.bytes)) throw new Error(`view ${name}: encodings do not decode to the plain bytes`);
    const bare = await listen((req, res) => {
      res.writeHead(200, b.headers);
      res.end(b.bytes);
    });
    const bPool = new Pool(origin(bare), { connections: CONNECTIONS, pipelining: 1 });
    const api = [];
    const bareRps = [];
    await load(apiPool, Math.min(100, VIEW_PER_ROUND), br, path);
    await load(bPool, Math.min(100, VIEW_PER_ROUND), br, path);
    for (let r = 0; r < VIEW_ROUNDS; r++) {
      const order = r % 2 === 0 ? ['api', 'bare'] : ['bare', 'api'];
      for (const which of order) {
        const res = await load(which === 'api' ? apiPool : bPool, VIEW_PER_ROUND, br, path);
        if (res.bytes !== b.bytes.length * VIEW_PER_ROUND) throw new Error(`view ${name} ${which}: short read`);
        (which === 'api' ? api : bareRps).push(res.rps);
      }
    }
    await bPool.close();
    await close(bare);
    viewResults.push({ name, query, plainBytes: plain.bytes.length, gzipBytes: gz.bytes.length, brBytes: b.bytes.length, apiRps: median(api), bareRps: median(bareRps) });
  }
  await viewProbe.close();
  const viewRequests = VIEWS.length * (Math.min(100, VIEW_PER_ROUND) + VIEW_ROUNDS * VIEW_PER_ROUND);
  const viewsReplayed = api.replays.hits() - replayed;

  await apiPool.close();
  await barePool.close();
  await close(apiServer);
  await close(bareServer);

  const plainBytes = modes.plain.bytes.length;
  const gzipBytes = modes.gzip.bytes.length;
  console.log(`snapshot ${run.snapshotId}: ${run.rows} rows; free tier, no token`);
  console.log(`  plain ${plainBytes} bytes per response; gzip ${gzipBytes} bytes (${((100 * gzipBytes) / plainBytes).toFixed(2)} % of plain)`);
  console.log(`${ROUNDS} rounds per mode (plain ${PER_ROUND}, gzip ${GZIP_PER_ROUND} requests a round), ${CONNECTIONS} keep-alive connections, undici Pool on 127.0.0.1`);
  const ratios = {};
  for (const name of Object.keys(modes)) {
    const a = median(rps[name].api);
    const b = median(rps[name].bare);
    ratios[name] = { api: a, bare: b, ratio: a / b };
    console.log(`${name.padEnd(5)} api  GET ${PATH}: median ${a.toFixed(1)} req/s  (rounds: ${rps[name].api.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`${name.padEnd(5)} bare node:http same bytes: median ${b.toFixed(1)} req/s  (rounds: ${rps[name].bare.map((x) => x.toFixed(0)).join(', ')})`);
    // Diagnostic: the API's extra time per request in this process (client and servers share it).
    console.log(`${name.padEnd(5)} ratio ${(a / b).toFixed(3)}; the API's extra time per request: ${(1e6 / a - 1e6 / b).toFixed(1)} µs (1/api - 1/bare)`);
  }
  const tokenRatio = median(tokenRps.api) / median(tokenRps.bare);
  console.log(`${replayed} of the ${apiRequests} plain and gzip API requests above were answered from a kept answer (anonymous polls; src/server/replay.ts)`);
  console.log(`gzip, token (the route's own path, never replayed): api median ${median(tokenRps.api).toFixed(1)} req/s, bare ${median(tokenRps.bare).toFixed(1)}; ratio ${tokenRatio.toFixed(3)}, +${(1e6 / median(tokenRps.api) - 1e6 / median(tokenRps.bare)).toFixed(1)} µs`);
  console.log(`views of ${PATH} (free tier), brotli-accepting client, ${VIEW_ROUNDS} round(s) of ${VIEW_PER_ROUND} requests, ${CONNECTIONS} connections:`);
  console.log(`  ${'view'.padEnd(14)} ${'query'.padEnd(44)} ${'plain B'.padStart(10)} ${'gzip B'.padStart(8)} ${'br B'.padStart(8)} ${'api req/s'.padStart(10)} ${'bare req/s'.padStart(11)}  ratio`);
  console.log(`  ${'full (seed)'.padEnd(14)} ${''.padEnd(44)} ${String(modes.plain.bytes.length).padStart(10)} ${String(modes.gzip.bytes.length).padStart(8)} ${'-'.padStart(8)} ${ratios.gzip.api.toFixed(0).padStart(10)} ${ratios.gzip.bare.toFixed(0).padStart(11)}  ${ratios.gzip.ratio.toFixed(2)} (gzip)`);
  console.log(`  (${viewsReplayed} of the ${viewRequests} view requests of the api columns were answered from a kept answer)`);
  for (const v of viewResults) {
    console.log(`  ${v.name.padEnd(14)} ${v.query.slice(0, 44).padEnd(44)} ${String(v.plainBytes).padStart(10)} ${String(v.gzipBytes).padStart(8)} ${String(v.brBytes).padStart(8)} ${v.apiRps.toFixed(0).padStart(10)} ${v.bareRps.toFixed(0).padStart(11)}  ${(v.apiRps / v.bareRps).toFixed(2)} (+${(1e6 / v.apiRps - 1e6 / v.bareRps).toFixed(1)} µs)`);
  }
  const cache = api.snapshotCache;
  const headline = `ratio api/bare: plain ${ratios.plain.ratio.toFixed(3)}, gzip ${ratios.gzip.ratio.toFixed(3)} (target >= 0.9); card view ${viewResults[0].brBytes} B in brotli`;
  console.log(`${headline}; serializations: ${cache.serializations()}, compressions: ${cache.compressions()}`);
  benchResult('http-snapshot', headline, Math.min(ratios.plain.ratio, ratios.gzip.ratio), {
    rows: run.rows,
    plainBytes,
    gzipBytes,
    plain: { apiRps: Math.round(ratios.plain.api), bareRps: Math.round(ratios.plain.bare), ratio: Math.round(ratios.plain.ratio * 1000) / 1000 },
    gzip: { apiRps: Math.round(ratios.gzip.api), bareRps: Math.round(ratios.gzip.bare), ratio: Math.round(ratios.gzip.ratio * 1000) / 1000 },
    serializations: cache.serializations(),
    compressions: cache.compressions(),
    replayed: { answers: replayed, of: apiRequests, viewAnswers: viewsReplayed, ofViews: viewRequests },
    gzipToken: { apiRps: Math.round(median(tokenRps.api)), bareRps: Math.round(median(tokenRps.bare)), ratio: Math.round(tokenRatio * 1000) / 1000 },
    views: viewResults.map((v) => ({ ...v, apiRps: Math.round(v.apiRps), bareRps: Math.round(v.bareRps), ratio: Math.round((v.apiRps / v.bareRps) * 1000) / 1000 })),
  });
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
