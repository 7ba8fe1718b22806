// Preloaded (`node --import`) into a CLI process by engine-ratio.mjs, not a bench (run-all skips "_"
// files): counts the statements the process sends to PostgreSQL (every node-postgres query, pool or
// client, transaction control included: each is a round trip) and prints that count with the
// process's own CPU time (user + system, ms) on stderr as it exits, and the CPU time of the
// PostgreSQL server processes that served it (read from /proc as each connection ends: the bench
// runs the server on the same machine; null where /proc does not show them). On SQLite both stay 0.
// BENCH_PG_TRACE=1 (a diagnostic) also prints, per statement text (its first 90 characters), how
// many were sent, the wall time from send to answer and the serving process's CPU meanwhile (in
// 10 ms ticks), most time first.
import { readFileSync } from 'node:fs';
import pg from 'pg';

let statements = 0;
let serverCpuMs = 0;
const open = new Set();

/** A server process's CPU time so far in ms (utime + stime, in clock ticks of 10 ms), null when unreadable. */
function cpuOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
function settle(client) {
  if (!open.delete(client)) return;
  const ms = client.processID ? cpuOf(client.processID) : null;
  serverCpuMs = serverCpuMs === null || ms === null ? null : serverCpuMs + ms;
}
const connect = pg.Client.prototype.connect;
pg.Client.prototype.connect = function countedConnect(...args) {
  open.add(this);
  return connect.apply(this, args);
};
const end = pg.Client.prototype.end;
pg.Client.prototype.end = function countedEnd(...args) {
  settle(this);
  return end.apply(this, args);
};
const trace = process.env.BENCH_PG_TRACE === '1' ? new Map() : null;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  if (!trace) return query.apply(this, args);
  const text = String(typeof args[0] === 'string' ? args[0] : args[0]?.text).replace(/\s+/g, ' ').slice(0, 90);
  const t0 = performance.now();
  const s0 = this.processID ? cpuOf(this.processID) : null;
  const done = () => {
    const t = trace.get(text) ?? { n: 0, ms: 0, serverMs: 0 };
    t.n += 1;
    t.ms += performance.now() - t0;
    const s1 = s0 === null ? null : cpuOf(this.processID);
    if (s1 !== null) t.serverMs += s1 - s0;
    trace.set(text, t);
  };
  // A pool's query hands the client a callback; a client's own query returns a promise.
  const last = args.length - 1;
  if (typeof args[last] === 'function') {
    const callback = args[last];
    args[last] = (...r) => (done(), callback(...r));
  }
  const result = query.apply(this, args);
  if (result && typeof result.then === 'function') result.then(done, done);
  return result;
};
process.on('exit', () => {
  for (const client of [...open]) settle(client);
  const u = process.resourceUsage();
  if (trace) {
    const rows = [...trace.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, Number(process.env.BENCH_PG_TRACE_TOP ?? 25));
    for (const [text, t] of rows) process.stderr.write(`BENCH_PG_TRACE ${String(t.n).padStart(5)} ${t.ms.toFixed(1).padStart(8)} ms (server CPU ${String(t.serverMs).padStart(4)} ms)  ${text}\n`);
  }
  process.stderr.write(`\nBENCH_ENGINE_CHILD ${JSON.stringify({ statements, cpuMs: Math.round((u.userCPUTime + u.systemCPUTime) / 1000), serverCpuMs })}\n`);
});
