// Benchmark (issue 35 item 6): scale-out on PostgreSQL against one server on SQLite, same data,
// same run. Needs a PostgreSQL server: PROPGRADE_BENCH_PG_URL is an admin URL (a role that may
// CREATE DATABASE, e.g. postgres://postgres@127.0.0.1:55432/postgres); the bench creates its own
// databases (propgrade_bench_<pid>_*) and drops them at the end, failure or not. Unset: it says so
// and exits 0 (run-all runs every bench).
//
// (a) The README loop store, built once on SQLite by the CLI (snapshot all; snapshot nba at
//     15:05Z and 17:05Z; settle nba --now 2025-11-06T12:00Z; all over data/replay), then
//     `db copy --to <a fresh PostgreSQL database>`.
// (b) `propgrade serve` processes on 127.0.0.1: one on the SQLite file, two on PostgreSQL.
// (c) A keep-alive undici load generator in this process: C concurrent requests for D seconds
//     (C requests in flight in all, each server's pool holding up to C sockets), GET /api/snapshot/nba and GET /api/ledger/model
//     (accept-encoding: gzip, as a browser or CDN asks), on sqlite-1 (the SQLite server), pg-1
//     (one PostgreSQL server) and pg-2 (both, round-robin per request: a stand-in for a load
//     balancer). /api/ledger/model is rate-limited per client address (60 per 60 s,
//     DEFAULT_LIMITS, not configurable): every server runs with TRUSTED_PROXIES=127.0.0.1 and each
//     request carries its own X-Forwarded-For address, as a balancer would forward many clients.
//     Figures: req/s, p50/p99 latency (ms, request sent to last body byte), errors (non-200,
//     socket errors, a body of another length than the first answer's); the ratios pg-1/sqlite-1
//     and pg-2/sqlite-1; on PostgreSQL the database's transactions (one per statement outside a
//     transaction) and rows read per request, warm-up included (pg_stat_database deltas).
// (d) Whole CLI processes per engine on a fresh store, REPS repetitions interleaved, median:
//     `snapshot all`, `snapshot nba` at 15:05Z, at 17:05Z, `settle nba`; ratio pg/sqlite.
//
//   PROPGRADE_BENCH_PG_URL=postgres://postgres@127.0.0.1:55432/postgres node scripts/bench/scale-out.mjs [seconds] [connections] [reps]
// The machine's cores are shared by the servers, PostgreSQL and this load generator: docs/scale.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { benchResult, median, REPLAY_DIR, ROOT, round, SMOKE } from './_shared.mjs';

const SECONDS = Number(process.argv[2] ?? (SMOKE ? 1 : 10));
const CONNECTIONS = Number(process.argv[3] ?? 16);
const REPS = Number(process.argv[4] ?? (SMOKE ? 1 : 3));
const ADMIN_URL = process.env.PROPGRADE_BENCH_PG_URL;
const CLI = join(ROOT, 'bin/propgrade.js');
const ROUTES = ['/api/snapshot/nba', '/api/ledger/model'];
const LOOP = [
  ['snapshot all', ['snapshot', 'all', '--replay', REPLAY_DIR, '--quiet', '--json']],
  ['snapshot nba 15:05Z', ['snapshot', 'nba', '--replay', REPLAY_DIR, '--now', '2025-11-05T15:05:00Z', '--quiet', '--json']],
  ['snapshot nba 17:05Z', ['snapshot', 'nba', '--replay', REPLAY_DIR, '--now', '2025-11-05T17:05:00Z', '--quiet', '--json']],
  ['settle nba', ['settle', 'nba', '--replay', REPLAY_DIR, '--now', '2025-11-06T12:00:00Z', '--json']],
];

if (!ADMIN_URL) {
  console.log('scale-out: skipped, PROPGRADE_BENCH_PG_URL is not set (an admin URL of a PostgreSQL server the bench may create databases on)');
  benchResult('scale-out', 'skipped: no PROPGRADE_BENCH_PG_URL', null, { skipped: true });
  process.exit(0);
}

// ---- what must be undone, whatever happens ------------------------------------------------
const children = new Set();
const databases = new Set();
const dir = mkdtempSync(join(tmpdir(), 'propgrade-bench-scale-'));
let cleaning = null;
const admin = async (sql) => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
};
const dbUrl = (name) => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
};
let dbCounter = 0;
async function freshDatabase(label) {
  const name = `propgrade_bench_${process.pid}_${label}_${dbCounter++}`;
  databases.add(name);
  await admin(`create database "${name}"`); // the server's default encoding and collation (printed)
  return name;
}
async function dropDatabase(name) {
  await admin(`drop database if exists "${name}" with (force)`);
  databases.delete(name);
}
function cleanup() {
  cleaning ??= (async () => {
    const exits = [...children].map((child) => new Promise((ok) => {
      if (child.exitCode !== null || child.signalCode !== null) return ok();
      const hard = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => (clearTimeout(hard), ok()));
      child.kill('SIGTERM');
    }));
    await Promise.all(exits);
    for (const name of [...databases]) await dropDatabase(name).catch((e) => console.error(`could not drop database ${name}: ${e.message}`));
    rmSync(dir, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => cleanup().finally(() => process.exit(130)));

// ---- child processes -------------------------------------------------------------------------
/** Runs the CLI to the end; resolves with its wall time in ms, throws on a non-zero exit. */
function cli(db, args, env = {}) {
  return new Promise((ok, fail) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [CLI, '--db', db, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('exit', (code) => {
      children.delete(child);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code === 0) ok(ms);
      else fail(new Error(`propgrade ${args.slice(0, 2).join(' ')} on ${db.startsWith('postgres') ? 'postgres' : 'sqlite'} exited ${code}: ${stderr.slice(-500)}`));
    });
  });
}

/** Runs the README loop on `db`; resolves with each step's wall time in ms. */
async function loop(db) {
  const ms = [];
  for (const [, args] of LOOP) ms.push(await cli(db, args));
  return ms;
}

let nextPort = 20000 + (process.pid % 20000);
/** Starts `propgrade serve` on 127.0.0.1 and waits until /healthz answers. */
async function serve(db) {
  const port = nextPort++;
  const child = spawn(process.execPath, [CLI, '--db', db, 'serve', '--host', '127.0.0.1', '--port', String(port), '--quiet'], {
    env: { ...process.env, TRUSTED_PROXIES: '127.0.0.1', SNAPSHOT_CRON: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.on('exit', () => children.delete(child));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`serve on ${db} exited ${child.exitCode}: ${stderr.slice(-500)}`);
    const ok = await fetch(`${origin}/healthz`).then((r) => r.ok, () => false);
    if (ok) return { origin, child, stderr: () => stderr };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`serve on ${db} did not answer /healthz within 30 s`);
}

// ---- the load generator ------------------------------------------------------------------------
let xff = 0;
let sent = 0; // every request of the load generator, warm-up included (the per-request PostgreSQL counts)
/** A different client address per request (10.0.0.0/8), so no per-address limit is reached. */
const nextClient = () => {
  sent += 1;
  xff = (xff + 1) % 16_777_214;
  return `10.${(xff >> 16) & 255}.${(xff >> 8) & 255}.${xff & 255}`;
};

/** CONNECTIONS requests in flight in all for `seconds`, each sent to the next of `origins` in turn. */
async function drive(origins, path, seconds) {
  const pools = origins.map((o) => new Pool(o, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 30_000 }));
  try {
    // The first answer's length is what every later answer must have (the data does not move).
    const first = await pools[0].request({ path, method: 'GET', headers: { 'accept-encoding': 'gzip', 'x-forwarded-for': nextClient() } });
    const expected = Buffer.from(await first.body.arrayBuffer()).length;
    if (first.statusCode !== 200) throw new Error(`${path}: status ${first.statusCode} before the load`);
    const latencies = [];
    const errors = { status: 0, socket: 0, length: 0, examples: new Set() };
    let turn = 0;
    let bytes = 0;
    const worker = async (end) => {
      while (process.hrtime.bigint() < end) {
        const pool = pools[turn++ % pools.length];
        const t0 = process.hrtime.bigint();
        try {
          const res = await pool.request({ path, method: 'GET', headers: { 'accept-encoding': 'gzip', 'x-forwarded-for': nextClient() } });
          let n = 0;
          for await (const chunk of res.body) n += chunk.length;
          bytes += n;
          if (res.statusCode !== 200) {
            errors.status++;
            errors.examples.add(`status ${res.statusCode}`);
          } else if (n !== expected) {
            errors.length++;
            errors.examples.add(`${n} bytes, expected ${expected}`);
          }
          else latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        } catch (error) {
          errors.socket++;
          errors.examples.add(error.code ?? error.message);
        }
      }
    };
    const run = async (s) => {
      const end = process.hrtime.bigint() + BigInt(Math.round(s * 1e9));
      const t0 = process.hrtime.bigint();
      await Promise.all(Array.from({ length: CONNECTIONS }, () => worker(end)));
      return Number(process.hrtime.bigint() - t0) / 1e9;
    };
    await run(Math.min(1, seconds)); // warm-up: connections open, JIT, the route's caches
    latencies.length = 0;
    Object.assign(errors, { status: 0, socket: 0, length: 0 });
    errors.examples.clear();
    bytes = 0;
    const elapsed = await run(seconds);
    latencies.sort((a, b) => a - b);
    const pct = (p) => (latencies.length === 0 ? null : latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]);
    const failed = errors.status + errors.socket + errors.length;
    return { rps: latencies.length / elapsed, p50: pct(50), p99: pct(99), ok: latencies.length, errors: failed, errorKinds: [...errors.examples].slice(0, 5), bodyBytes: expected, mbPerS: bytes / elapsed / 1e6 };
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
}

/** The bench database's committed transactions and rows read so far (pg_stat_database). */
// A busy backend reports its counts at most once a second; one gone idle reports what is left
// 10 s later (PGSTAT_IDLE_INTERVAL), so the reading waits that out.
const STATS_WAIT_MS = SMOKE ? 1200 : 11_000;
async function pgCounters(name) {
  await new Promise((r) => setTimeout(r, STATS_WAIT_MS));
  const { rows } = await admin(`select pg_stat_clear_snapshot(), xact_commit + xact_rollback as xacts, tup_returned + tup_fetched as tuples from pg_stat_database where datname = '${name}'`);
  return { xacts: Number(rows[0].xacts), tuples: Number(rows[0].tuples) };
}

// ---- the bench ---------------------------------------------------------------------------------
const fmt = (x, d = 1) => (x === null ? '-' : x.toFixed(d));
try {
  const sqliteStore = join(dir, 'loop.sqlite');
  console.log(`scale-out: ${cpus().length} CPUs (shared by the servers, PostgreSQL and this load generator); ${SECONDS} s per load run, ${CONNECTIONS} requests in flight, ${REPS} repetitions of the CLI runs${SMOKE ? ' (smoke: figures meaningless)' : ''}`);
  // (a)
  const built = await loop(sqliteStore);
  const pgName = await freshDatabase('serve');
  const copyMs = await cli(sqliteStore, ['db', 'copy', '--to', dbUrl(pgName)]);
  const { rows: [enc] } = await admin(`select pg_encoding_to_char(encoding) as encoding, datcollate, current_setting('server_version') as version from pg_database where datname = '${pgName}'`);
  console.log(`PostgreSQL ${enc.version}, databases ${enc.encoding} with collation ${enc.datcollate} (the server's default)`);
  console.log(`(a) README loop store on SQLite: ${built.map((ms) => fmt(ms / 1000, 2)).join(' + ')} s; db copy to PostgreSQL: ${fmt(copyMs / 1000, 2)} s`);

  // (b), (c)
  const sqliteServer = await serve(sqliteStore);
  const pgServers = [await serve(dbUrl(pgName)), await serve(dbUrl(pgName))];
  const setups = [
    ['sqlite-1', [sqliteServer.origin]],
    ['pg-1', [pgServers[0].origin]],
    ['pg-2', pgServers.map((s) => s.origin)],
  ];
  const http = {};
  let counters = null;
  for (const path of ROUTES) {
    http[path] = {};
    for (const [name, origins] of setups) {
      const before = name === 'sqlite-1' ? null : (counters ??= await pgCounters(pgName));
      const sentBefore = sent;
      const r = await drive(origins, path, SECONDS);
      if (before) {
        counters = await pgCounters(pgName);
        r.xactsPerReq = (counters.xacts - before.xacts) / (sent - sentBefore);
        r.tuplesPerReq = (counters.tuples - before.tuples) / (sent - sentBefore);
      }
      http[path][name] = r;
    }
  }
  for (const s of [sqliteServer, ...pgServers]) if (s.child.exitCode !== null) throw new Error(`a server died under load: ${s.stderr().slice(-500)}`);
  console.log(`(c) GET, accept-encoding gzip, keep-alive, ${CONNECTIONS} requests in flight (split across the servers), ${SECONDS} s (after 1 s of warm-up); latency from request to last body byte`);
  console.log(`  ${'route'.padEnd(20)} ${'setup'.padEnd(9)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'body B'.padStart(8)} ${'MB/s'.padStart(6)} ${'ratio'.padStart(6)} ${'pg xact/req'.padStart(12)} ${'pg rows/req'.padStart(12)}`);
  const ratios = {};
  for (const path of ROUTES) {
    const base = http[path]['sqlite-1'].rps;
    for (const [name] of setups) {
      const r = http[path][name];
      r.ratio = r.rps / base;
      console.log(`  ${path.padEnd(20)} ${name.padEnd(9)} ${fmt(r.rps, 0).padStart(8)} ${fmt(r.p50, 2).padStart(8)} ${fmt(r.p99, 2).padStart(8)} ${String(r.errors).padStart(7)} ${String(r.bodyBytes).padStart(8)} ${fmt(r.mbPerS, 1).padStart(6)} ${fmt(r.ratio, 2).padStart(6)} ${fmt(r.xactsPerReq ?? null, 2).padStart(12)} ${fmt(r.tuplesPerReq ?? null, 0).padStart(12)}${r.errorKinds.length ? `  (${r.errorKinds.join('; ')})` : ''}`);
    }
    ratios[path] = { pg1: http[path]['pg-1'].ratio, pg2: http[path]['pg-2'].ratio };
  }
  for (const s of [sqliteServer, ...pgServers]) {
    s.child.kill('SIGTERM');
    await new Promise((ok) => (s.child.exitCode !== null ? ok() : s.child.once('exit', ok)));
  }
  await dropDatabase(pgName);

  // (d) fresh stores, engines interleaved per repetition.
  const times = { sqlite: LOOP.map(() => []), pg: LOOP.map(() => []) };
  for (let rep = 0; rep < REPS; rep++) {
    for (const engine of rep % 2 === 0 ? ['sqlite', 'pg'] : ['pg', 'sqlite']) {
      const name = engine === 'pg' ? await freshDatabase('runs') : null;
      const db = engine === 'pg' ? dbUrl(name) : join(dir, `runs-${rep}.sqlite`);
      const ms = await loop(db);
      ms.forEach((t, i) => times[engine][i].push(t));
      if (name) await dropDatabase(name);
      else rmSync(db, { force: true });
    }
  }
  console.log(`(d) whole CLI processes on a fresh store per repetition, median of ${REPS} (ms)`);
  console.log(`  ${'run'.padEnd(22)} ${'sqlite ms'.padStart(10)} ${'pg ms'.padStart(10)} ${'pg/sqlite'.padStart(10)}   samples sqlite | pg`);
  const runs = {};
  LOOP.forEach(([label], i) => {
    const s = median(times.sqlite[i]);
    const p = median(times.pg[i]);
    runs[label] = { sqliteMs: round(s, 0), pgMs: round(p, 0), ratio: round(p / s, 2) };
    console.log(`  ${label.padEnd(22)} ${fmt(s, 0).padStart(10)} ${fmt(p, 0).padStart(10)} ${fmt(p / s, 2).padStart(10)}   ${times.sqlite[i].map((t) => t.toFixed(0)).join(', ')} | ${times.pg[i].map((t) => t.toFixed(0)).join(', ')}`);
  });

  const errors = ROUTES.reduce((n, path) => n + setups.reduce((m, [name]) => m + http[path][name].errors, 0), 0);
  const [snap, ledger] = ROUTES.map((p) => ratios[p]);
  const headline = `req/s pg-1/sqlite-1: snapshot ${fmt(snap.pg1, 2)}, ledger ${fmt(ledger.pg1, 2)}; pg-2/sqlite-1: snapshot ${fmt(snap.pg2, 2)}, ledger ${fmt(ledger.pg2, 2)}; snapshot all pg/sqlite ${fmt(runs['snapshot all'].ratio, 2)}; ${errors} errors`;
  console.log(headline);
  const httpOut = Object.fromEntries(ROUTES.map((p) => [p, Object.fromEntries(setups.map(([n]) => {
    const r = http[p][n];
    return [n, { rps: round(r.rps, 0), p50Ms: round(r.p50, 2), p99Ms: round(r.p99, 2), errors: r.errors, ratio: round(r.ratio, 2), bodyBytes: r.bodyBytes, xactsPerReq: round(r.xactsPerReq, 2), rowsPerReq: round(r.tuplesPerReq, 0) }];
  }))]));
  benchResult('scale-out', headline, Math.min(snap.pg1, ledger.pg1), { seconds: SECONDS, connections: CONNECTIONS, reps: REPS, copyMs: round(copyMs, 0), http: httpOut, runs });
  if (errors > 0) process.exitCode = 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
