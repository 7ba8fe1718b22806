// Diagnostic, not a bench (run-all skips files starting with "_"): the API's CPU time per request
// on GET /api/snapshot/nba with no network at all, against the bare handler of http-snapshot.mjs.
// Each request is a real node:http IncomingMessage / ServerResponse pair whose socket is a stub
// that drops the bytes, so the difference is the app's own work (h3, route, cache lookup, headers)
// without the transfer that dominates the socket benches. Sequential requests, median of rounds.
// Anonymous repeats are answered from the route's kept answer (src/server/replay.ts); the two
// token cases measure the route's own path.
//
// Run after `npm run build`:
//   node scripts/bench/_app-overhead.mjs [requestsPerRound] [rounds]
import { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { dist, replaySnapshotApp } from './_shared.mjs';

const N = Number(process.argv[2] ?? 20000);
const ROUNDS = Number(process.argv[3] ?? 7);
const { api, store, now, close } = await replaySnapshotApp('app-overhead');
// A free user's token: the same bytes as anonymous, through the route's own path (a request with a
// token is never answered from a kept answer, src/server/replay.ts; anonymous repeats are).
const { createUser } = await dist('accounts/users.js');
const { token } = await createUser(store, { email: 'overhead@example.test', tier: 'free' }, now);

class Sink extends Writable {
  bytes = 0;
  _write(chunk, _enc, cb) {
    this.bytes += chunk.length;
    cb();
  }
  _writev(chunks, cb) {
    for (const c of chunks) this.bytes += c.chunk.length;
    cb();
  }
}
const socket = new Sink();
socket.remoteAddress = '127.0.0.1';
socket.setTimeout = () => socket;

/** One request through `listener`; resolves with the response once it has finished. */
function request(listener, path, headers) {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = path;
  req.headers = { host: '127.0.0.1', ...headers };
  req.rawHeaders = Object.entries(req.headers).flat();
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = '1.1';
  req.complete = true;
  req.push(null);
  const res = new ServerResponse(req);
  res.shouldKeepAlive = true;
  res.assignSocket(socket);
  return new Promise((ok) => {
    res.once('finish', () => {
      res.detachSocket(socket);
      ok(res);
    });
    listener(req, res);
  });
}

const CASES = [
  ['full, gzip', '/api/snapshot/nba', { 'accept-encoding': 'gzip' }],
  ['full, plain', '/api/snapshot/nba', {}],
  ['card, br', '/api/snapshot/nba?view=card', { 'accept-encoding': 'gzip, deflate, br' }],
  ['one player, br', '/api/snapshot/nba?player=Jalen%20Brunson', { 'accept-encoding': 'gzip, deflate, br' }],
  ['full, gzip, token', '/api/snapshot/nba', { 'accept-encoding': 'gzip', authorization: `Bearer ${token}` }],
  ['card, br, token', '/api/snapshot/nba?view=card', { 'accept-encoding': 'gzip, deflate, br', authorization: `Bearer ${token}` }],
];
// ONLY=0,2 keeps those cases (by index), e.g. under --cpu-prof.
const only = process.env.ONLY?.split(',').map(Number);
const cases = only ? CASES.filter((_, i) => only.includes(i)) : CASES;
console.log(`${ROUNDS} rounds of ${N} sequential requests each, no sockets (µs per request, median; api - bare = the app's own work)`);
for (const [name, path, headers] of cases) {
  // The bare side answers with the API's own headers and as many bytes (their content does not
  // matter to a sink): the least a server can do for the same answer.
  const captured = (await request(api.listener, path, headers)).getHeaders();
  const bareBytes = Buffer.alloc(Number(captured['content-length']), 'x'); // filled: real pages, as the API's bytes are
  const bare = (req, res) => {
    res.writeHead(200, captured);
    res.end(bareBytes);
  };
  const times = { api: [], bare: [] };
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const [which, listener] of r % 2 === 0 ? [['api', api.listener], ['bare', bare]] : [['bare', bare], ['api', api.listener]]) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < N; i++) await request(listener, path, headers);
      const us = Number(process.hrtime.bigint() - t0) / 1000 / N;
      if (r > 0) times[which].push(us); // round 0 warms up
    }
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const a = med(times.api);
  const b = med(times.bare);
  console.log(`  ${name.padEnd(18)} api ${a.toFixed(2).padStart(7)}  bare ${b.toFixed(2).padStart(6)}  app ${(a - b).toFixed(2).padStart(6)}   (api rounds ${times.api.map((x) => x.toFixed(1)).join(', ')})`);
}
await close();
