// Diagnostic, not a bench (run-all skips files starting with "_"): a CPU profile of the API's
// fixed work per request on GET /api/snapshot/nba, for docs/performance.md.
//
// The server runs in this process on 127.0.0.1, over a temp store seeded by the real snapshot
// pipeline over the bundled replay (as http-snapshot.mjs seeds it); the load comes from a child
// process (undici Pool, keep-alive connections), so the client's own work is not in the profile.
// The V8 profiler (node:inspector, 100 µs sampling) runs only while the load runs, after a warm-up
// that builds the cached bytes. It prints each function's self time divided by the requests
// served (µs per request) and its share of the sampled time, and writes the .cpuprofile.
//
// Run after `npm run build`:
//   node scripts/bench/_profile-http-snapshot.mjs [requests] [query] [accept-encoding] [connections]
//   e.g. node scripts/bench/_profile-http-snapshot.mjs 40000 '' gzip
//        node scripts/bench/_profile-http-snapshot.mjs 40000 '?view=card' 'gzip, deflate, br'
// BARE=1 profiles the bench's bare server on the same answer instead (the baseline to subtract);
// PROFILE=0 runs the same load without the profiler.
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PATH = '/api/snapshot/nba';

if (process.argv[2] === '--client') {
  const { Pool } = await import('undici');
  const [, , , base, countText, path, encoding, connText] = process.argv;
  const count = Number(countText);
  const connections = Number(connText);
  const pool = new Pool(base, { connections, pipelining: 1 });
  const { loadPool } = await import('./_shared.mjs');
  const { seconds } = await loadPool(pool, { count, connections, path, headers: encoding ? { 'accept-encoding': encoding } : {} });
  await pool.close();
  process.send({ seconds });
  process.exit(0);
}

const REQUESTS = Number(process.argv[2] ?? 40000);
const QUERY = process.argv[3] ?? '';
const ENCODING = process.argv[4] ?? 'gzip';
const CONNECTIONS = Number(process.argv[5] ?? 8);
const { ROOT, replaySnapshotApp } = await import('./_shared.mjs');
const { api, close } = await replaySnapshotApp('profile-http');
let listener = api.listener;
if (process.env.BARE === '1') {
  // The bare side of http-snapshot.mjs instead: the API's answer to this request (bytes and the
  // headers that bench copies), sent by writeHead and end; the same load and profile around it.
  const probe = createServer(api.listener);
  await new Promise((ok) => probe.listen(0, '127.0.0.1', ok));
  const { request } = await import('undici');
  const res = await request(`http://127.0.0.1:${probe.address().port}${PATH}${QUERY}`, { headers: ENCODING ? { 'accept-encoding': ENCODING } : {} });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const headers = {};
  for (const name of ['content-type', 'content-encoding', 'cache-control', 'vary', 'etag']) if (res.headers[name] !== undefined) headers[name] = res.headers[name];
  headers['content-length'] = String(bytes.length);
  probe.close();
  listener = (req, res) => {
    res.writeHead(200, headers);
    res.end(bytes);
  };
}
const server = createServer(listener);
server.keepAliveTimeout = 30_000;
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}`;
const self = fileURLToPath(import.meta.url);
const drive = (count) =>
  new Promise((ok, fail) => {
    const child = fork(self, ['--client', base, String(count), PATH + QUERY, ENCODING, String(CONNECTIONS)], { cwd: ROOT });
    child.once('message', ok);
    child.once('exit', (code) => (code === 0 ? null : fail(new Error(`client exited ${code}`))));
  });

await drive(Math.min(2000, REQUESTS)); // warm-up: cached bytes built, code optimized
if (process.env.PROFILE === '0') {
  // The same load without the profiler: req/s only (for timers added by hand).
  const { seconds } = await drive(REQUESTS);
  console.log(`${REQUESTS} GET ${PATH}${QUERY} (accept-encoding: ${ENCODING || 'none'}), ${CONNECTIONS} connections: ${(REQUESTS / seconds).toFixed(0)} req/s, no profiler`);
  server.close();
  await close();
  process.exit(0);
}
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const { seconds } = await drive(REQUESTS);
const { profile } = await session.post('Profiler.stop');
session.disconnect();
server.close();
await close();

const out = join(tmpdir(), `http-snapshot-${Date.now()}.cpuprofile`);
writeFileSync(out, JSON.stringify(profile));

// Self time per function: each sample's time goes to the node it landed in.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self_ = new Map();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  const node = byId.get(profile.samples[i]);
  const f = node.callFrame;
  const file = f.url ? f.url.replace(/^file:\/\//, '').replace(ROOT + '/', '').replace(/.*node_modules\//, '') : '';
  const key = `${f.functionName || '(anonymous)'}  ${file}${file ? `:${f.lineNumber + 1}` : ''}`;
  self_.set(key, (self_.get(key) ?? 0) + dt);
  total += dt;
}
const idle = [...self_].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
console.log(`${process.env.BARE === '1' ? 'BARE server, ' : ''}${REQUESTS} GET ${PATH}${QUERY} (accept-encoding: ${ENCODING || 'none'}), ${CONNECTIONS} connections: ${(REQUESTS / seconds).toFixed(0)} req/s`);
console.log(`sampled ${(total / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms; busy ${((total - idle) / REQUESTS).toFixed(1)} µs per request; profile ${out}`);
console.log(`${'µs/req'.padStart(7)} ${'% busy'.padStart(7)}  function  file:line`);
for (const [key, us] of [...self_].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) {
  if (key.startsWith('(idle)')) continue;
  console.log(`${(us / REQUESTS).toFixed(2).padStart(7)} ${((100 * us) / (total - idle)).toFixed(1).padStart(7)}  ${key}`);
}
