// Diagnostic, not a bench (run-all skips files starting with "_"): how close the snapshot route
// can get to http-snapshot.mjs's bare server, by adding the API's work back to the bare server one
// layer at a time. Every server answers GET /api/snapshot/nba with the API's own bytes:
//   bare      the bench's bare server: writeHead with the 6 headers it copies, end;
//   headers   the same with every header the API sends (security headers, both Vary lines, ...);
//   fresh     headers + what the snapshot cache asks SQLite per request to see a new snapshot
//             (select total_changes(); pragma data_version): the floor for identical, fresh answers;
//   h3        an h3 app as app.ts builds it (one middleware setting the same security headers,
//             a preemptive router holding every route and their static paths) whose snapshot
//             route only sends the bytes;
//   api       the real app (createApp).
// Default: each server runs in this process and a child process sends the load (undici, 8
// keep-alive connections); the figure is this process's CPU time (user + system) per request, so
// the client's work is not in it. INPROC=1: the client runs in this process, as in
// http-snapshot.mjs, and the figure is wall time per request (what that bench's ratios see).
// Rounds alternate the servers' order; medians.
//
// Run after `npm run build`:
//   node scripts/bench/_http-floor.mjs [requestsPerRound] [rounds] [accept-encoding]
//   V=bare,fresh,api picks servers; P=/api/snapshot/nba?view=card picks the path.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createApp as createH3App, createRouter, eventHandler, toNodeListener } from 'h3';
import { Pool } from 'undici';

const CONNECTIONS = 8;

/** `count` GETs over the pool's keep-alive connections, every body read to the end. */
async function load(pool, count, path, encoding) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const res = await pool.request({ path, method: 'GET', headers: encoding ? { 'accept-encoding': encoding } : {} });
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      for await (const _ of res.body);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

if (process.argv[2] === '--client') {
  const pools = new Map();
  process.on('message', async ({ base, count, path, encoding }) => {
    if (!pools.has(base)) pools.set(base, new Pool(base, { connections: CONNECTIONS, pipelining: 1 }));
    await load(pools.get(base), count, path, encoding);
    process.send('done');
  });
} else {
  const N = Number(process.argv[2] ?? 4000);
  const ROUNDS = Number(process.argv[3] ?? 9);
  const ENCODING = process.argv[4] ?? 'gzip';
  const PATH = process.env.P ?? '/api/snapshot/nba';
  const INPROC = process.env.INPROC === '1';
  const { dist, replaySnapshotApp } = await import('./_shared.mjs');
  const { registerStaticPaths, staticPathsOf } = await dist('server/static-paths.js');
  const { api, store, close } = await replaySnapshotApp('http-floor');

  const listen = (handler) =>
    new Promise((ok) => {
      const server = createServer(handler);
      server.keepAliveTimeout = 30_000;
      server.listen(0, '127.0.0.1', () => ok(server));
    });
  const apiServer = await listen(api.listener);
  const base = (server) => `http://127.0.0.1:${server.address().port}`;

  // The API's answer: its bytes, the 6 headers the bench's bare server copies, and all of them.
  const probe = new Pool(base(apiServer), { connections: 1 });
  const first = await probe.request({ path: PATH, method: 'GET', headers: ENCODING ? { 'accept-encoding': ENCODING } : {} });
  const bytes = Buffer.from(await first.body.arrayBuffer());
  await probe.close();
  const six = {};
  for (const name of ['content-type', 'content-encoding', 'cache-control', 'vary', 'etag']) if (first.headers[name] !== undefined) six[name] = first.headers[name];
  six['content-length'] = String(bytes.length);
  const all = { ...first.headers };
  for (const name of ['date', 'connection', 'keep-alive']) delete all[name];
  const { 'x-content-type-options': _a, 'referrer-policy': _b, 'x-frame-options': _c, 'cross-origin-resource-policy': _d, ...routeHeaders } = all;

  const ownChanges = store.sqlite.prepare('select total_changes()').pluck();
  const dataVersion = store.sqlite.prepare('pragma data_version').pluck();
  const h3 = () => {
    const app = createH3App({});
    const router = createRouter({ preemptive: true });
    const handlers = new Map();
    for (const route of api.routes) {
      const handler =
        route.path === '/api/snapshot/:sport'
          ? eventHandler((event) => {
              event.node.res.writeHead(200, routeHeaders);
              event.node.res.end(bytes);
            })
          : eventHandler(() => ({}));
      router[route.method === 'GET' ? 'get' : 'post'](route.path, handler);
      handlers.set(route, handler);
    }
    registerStaticPaths(router, staticPathsOf(api.routes, ['/openapi.json']), (route) => handlers.get(route));
    app.use(
      eventHandler((event) => {
        const res = event.node.res;
        res.setHeader('x-content-type-options', 'nosniff');
        res.setHeader('referrer-policy', 'no-referrer');
        res.setHeader('x-frame-options', 'DENY');
        res.setHeader('cross-origin-resource-policy', 'same-site');
        if (event.method === 'OPTIONS') res.end();
      }),
    );
    app.use(router);
    return toNodeListener(app);
  };
  const variants = {
    bare: (req, res) => {
      res.writeHead(200, six);
      res.end(bytes);
    },
    headers: (req, res) => {
      res.writeHead(200, all);
      res.end(bytes);
    },
    fresh: (req, res) => {
      ownChanges.get();
      dataVersion.get();
      res.writeHead(200, all);
      res.end(bytes);
    },
    h3: h3(),
    api: null,
  };
  const names = (process.env.V ?? Object.keys(variants).join(',')).split(',');
  const bases = {};
  for (const name of names) bases[name] = name === 'api' ? base(apiServer) : base(await listen(variants[name]));

  const child = INPROC ? null : fork(fileURLToPath(import.meta.url), ['--client']);
  const pools = {};
  const drive = (name, count) =>
    INPROC
      ? load((pools[name] ??= new Pool(bases[name], { connections: CONNECTIONS, pipelining: 1 })), count, PATH, ENCODING)
      : new Promise((ok) => {
          child.once('message', ok);
          child.send({ base: bases[name], count, path: PATH, encoding: ENCODING });
        });
  const measure = async (name, count) => {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await drive(name, count);
    const cpu = process.cpuUsage(cpu0);
    return INPROC ? Number(process.hrtime.bigint() - t0) / 1000 / count : (cpu.user + cpu.system) / count;
  };
  for (const name of names) await measure(name, Math.min(500, N));
  const us = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) for (const name of r % 2 === 0 ? names : [...names].reverse()) us[name].push(await measure(name, N));

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const unit = INPROC ? 'µs wall per request, client in this process' : 'µs CPU per request in the server process';
  console.log(`GET ${PATH} (accept-encoding: ${ENCODING || 'none'}, ${bytes.length} B), ${ROUNDS} rounds of ${N}, ${CONNECTIONS} connections; ${unit}; ratio = ${names[0]} / server`);
  const b = median(us[names[0]]);
  for (const name of names) {
    const m = median(us[name]);
    console.log(`  ${name.padEnd(8)} ${m.toFixed(1).padStart(6)}  +${(m - b).toFixed(1).padStart(4)}  ratio ${(b / m).toFixed(3)}   (${us[name].map((x) => x.toFixed(1)).join(', ')})`);
  }
  child?.kill();
  await close();
  process.exit(0);
}
