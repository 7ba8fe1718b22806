#!/usr/bin/env node
/**
 * Soak: a season under load (issue 34 item 7). Not a bench and not a test: it prints absolute
 * figures and fails only on errors.
 *
 * One store, three processes, as an operator runs them: `propgrade serve` (its own process) and
 * `propgrade simulate nba --replay <season folder>` (another) on the same SQLite file (WAL), while
 * this process runs N concurrent loopback clients (undici) reading the snapshot, ledger, record and
 * summary routes without pause until the season ends. It reports requests, errors (any status but
 * 2xx/304, or a failed request), p50/p99 latency per route, and the server's RSS (VmRSS from
 * /proc/<pid>/status every 250 ms) early and late in the season, with the verdict "flat within 10%".
 * Beside it, the server's JS heap and external memory from GET /metrics (the internal key) every 2 s.
 * One season is the error and latency check; `--laps 8` or more the memory check (docs/performance.md).
 *
 *   npm run build && node scripts/soak/season.mjs [--clients 8] [--from yyyy-mm-dd] [--to yyyy-mm-dd]
 *       [--replay var/season-nba] [--shared ../shared] [--rebuild] [--max-seconds 5400] [--require-flat] [--json]
 *       [--laps 1] [--rss-trace rss.csv]
 *
 * Limits: the record routes allow 60 reads a minute per client address (docs/api.md "Limits"). The
 * soak does not raise them: the server runs with TRUSTED_PROXIES=127.0.0.1/32 and each request names
 * a client address from a fixed pool of 4096 in X-Forwarded-For, as the browser proxy does for its
 * users, so the readers are many users within their budgets and a 429 would be a real finding.
 * The server's data clock is pinned (--now) to the morning after the last slate, so the 30-day
 * record windows cover the season as it settles; the snapshot routes serve the newest snapshot.
 */
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'propgrade.js');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const flag = (name) => argv.includes(name);
const clients = Number(arg('--clients', '8'));
const laps = Number(arg('--laps', '1'));
const traceFile = arg('--rss-trace');
const maxSeconds = Number(arg('--max-seconds', '5400'));
const from = arg('--from');
const to = arg('--to');
const replay = path.resolve(arg('--replay', path.join(ROOT, 'var', 'season-nba')));
const shared = arg('--shared');
const asJson = flag('--json');
for (const d of [from, to]) if (d !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(d)) usage(`not a date: ${d}`);
if (!Number.isInteger(clients) || clients < 1 || clients > 256) usage('--clients must be 1..256');
if (!Number.isInteger(laps) || laps < 1 || laps > 20) usage('--laps must be 1..20');
if (!(maxSeconds > 0)) usage('--max-seconds must be positive');
if (!fs.existsSync(path.join(ROOT, 'dist'))) usage('dist/ not found: run `npm run build` first');

function usage(message) {
  process.stderr.write(`${message}\nusage: node scripts/soak/season.mjs [--clients n] [--from d] [--to d] [--replay dir] [--shared dir] [--rebuild] [--max-seconds s] [--laps n] [--rss-trace file] [--require-flat] [--json]\n`);
  process.exit(2);
}
const note = (m) => process.stderr.write(`soak: ${m}\n`);

// 1. The season folder: reused when it is an NBA season folder, else built (~15 s).
const manifestFile = path.join(replay, 'manifest.json');
const isNbaSeason = () => fs.existsSync(manifestFile) && JSON.parse(fs.readFileSync(manifestFile, 'utf8')).season?.sport === 'nba';
if (flag('--rebuild') || !isNbaSeason()) {
  note(`building the NBA season folder in ${replay}`);
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-season-replay.mjs'), 'nba', replay, ...(shared ? ['--shared', shared] : [])], { stdio: ['ignore', 'ignore', 'inherit'] });
}
const season = JSON.parse(fs.readFileSync(manifestFile, 'utf8')).season;
const firstDay = from ?? season.from;
const lastDay = to ?? season.to;
const dayAfter = (d) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const dataNow = `${dayAfter(lastDay)}T18:00:00Z`;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'propgrade-soak-'));
const db = path.join(tmp, 'soak.sqlite');
const internalKey = randomBytes(24).toString('hex');
const children = [];
const cleanup = () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(130));

/** The last 8 KB a child wrote on a stream, for the report when it fails. */
function tail(stream) {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (d) => (text = (text + d).slice(-8192)));
  return () => text;
}

// 2. The server on a fresh store, in its own process; its URL is its --json result line.
const serverEnv = { ...process.env, INTERNAL_API_KEY: internalKey, TRUSTED_PROXIES: '127.0.0.1/32', NO_COLOR: '1' };
delete serverEnv.PROPGRADE_NOW;
delete serverEnv.PROPGRADE_REPLAY;
const server = spawn(process.execPath, [BIN, '--db', db, '--now', dataNow, '--json', 'serve', '--host', '127.0.0.1', '--port', '0', '--quiet'], { env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] });
children.push(server);
const serverErr = tail(server.stderr);
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (d) => {
    out += d;
    // The --json result may span lines: the URL is all this needs.
    const m = /"url":\s*"(http:\/\/[^"]+)"/.exec(out);
    if (m) resolve(m[1]);
  });
  server.once('exit', (code) => reject(new Error(`serve exited ${code} before listening:\n${serverErr()}`)));
});
note(`server pid ${server.pid} at ${url} (data clock ${dataNow}); store ${db}`);

// RSS of the server, every 250 ms, tagged with the season's progress when sampled.
let progress = 0;
const rss = [];
const readStatus = () => {
  try {
    const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
  } catch {
    return null;
  }
};
const sampler = setInterval(() => {
  const s = readStatus();
  if (s) rss.push({ t: performance.now(), progress, rssKb: s.rssKb });
}, 250);

// 3. The season on the same store, in another process, --laps times in a row (a later lap re-runs
// the same recorded times: new snapshots, the same ledger); its progress lines say how far it is.
const simEnv = { ...process.env, NO_COLOR: '1' };
delete simEnv.PROPGRADE_NOW;
const simArgs = [BIN, '--db', db, '--replay', replay, '--json', 'simulate', 'nba', ...(from ? ['--from', from] : []), ...(to ? ['--to', to] : [])];
const lapReports = [];
let simErr = () => '';
async function runLaps() {
  for (let lap = 0; lap < laps; lap++) {
    const sim = spawn(process.execPath, simArgs, { env: simEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(sim);
    let out = '';
    sim.stdout.setEncoding('utf8');
    sim.stdout.on('data', (d) => (out += d));
    simErr = tail(sim.stderr);
    sim.stderr.on('data', (d) => {
      for (const m of String(d).matchAll(/simulate nba: (\d+)\/(\d+) runs/g)) progress = (lap + Number(m[1]) / Number(m[2])) / laps;
    });
    const { code, signal } = await new Promise((resolve) => sim.once('exit', (c, sig) => resolve({ code: c, signal: sig })));
    let report = null;
    try {
      report = JSON.parse(out);
    } catch {
      // a failed lap: its exit code says so
    }
    lapReports.push({ code, signal, report });
    if (code !== 0) return { code, signal };
  }
  return { code: 0, signal: null };
}
const started = performance.now();
const simDone = runLaps();

// 4. The readers. Each client takes the next route in turn; the record routes carry a pooled address.
const sampleDate = firstDay;
const routes = [
  { name: 'snapshot nba (gzip)', path: '/api/snapshot/nba', headers: { 'accept-encoding': 'gzip' } },
  { name: 'snapshot nba (If-None-Match)', path: '/api/snapshot/nba', headers: { 'accept-encoding': 'gzip' }, conditional: true },
  { name: 'snapshot nba view=card (br)', path: '/api/snapshot/nba?view=card', headers: { 'accept-encoding': 'br, gzip' } },
  { name: 'snapshot summary', path: '/api/snapshot/summary', headers: {} },
  { name: 'ledger model', path: '/api/ledger/model', headers: { 'accept-encoding': 'gzip' }, limited: true },
  { name: 'ledger model ?sport&team', path: '/api/ledger/model?sport=nba&team=BOS', headers: { 'accept-encoding': 'gzip' }, limited: true },
  { name: 'ledger model ?date&limit', path: `/api/ledger/model?date=${sampleDate}&limit=500`, headers: { 'accept-encoding': 'gzip' }, limited: true },
  { name: 'ledger model ?player', path: '/api/ledger/model?player=Nikola%20Jokic', headers: { 'accept-encoding': 'gzip' }, limited: true },
  { name: 'accuracy', path: '/api/accuracy', headers: {}, limited: true },
  { name: 'accuracy ?sport=nba', path: '/api/accuracy?sport=nba', headers: {}, limited: true },
];
const stats = new Map(routes.map((r) => [r.name, { ms: [], statuses: new Map(), bytes: 0 }]));
const errors = [];
let etag;
let addressSeq = 0;
const nextAddress = () => {
  const n = addressSeq++ % 4096;
  return `10.77.${n >> 8}.${n & 255}`;
};
const pool = new Pool(url, { connections: clients, pipelining: 1 });
let stop = false;
let total = 0;
// The server's own heap figures every 2 s (GET /metrics with the internal key, on its own
// connection): heap used against RSS tells live objects from memory the process keeps after a GC.
const heap = [];
const metricsPool = new Pool(url, { connections: 1 });
const metricValue = (text, name) => {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) / 1048576 : null;
};
const heapSampler = setInterval(() => {
  const t = performance.now();
  const p = progress;
  metricsPool
    .request({ method: 'GET', path: '/metrics', headers: { 'x-internal-key': internalKey } })
    .then(async (res) => {
      const text = await res.body.text();
      if (res.statusCode === 200) heap.push({ t, progress: p, usedMb: metricValue(text, 'propgrade_nodejs_heap_size_used_bytes'), externalMb: metricValue(text, 'propgrade_nodejs_external_memory_bytes') });
    })
    .catch(() => {});
}, 2000);

async function client(id) {
  let i = id;
  while (!stop) {
    const route = routes[i++ % routes.length];
    const headers = { ...route.headers, ...(route.limited ? { 'x-forwarded-for': nextAddress() } : {}), ...(route.conditional && etag ? { 'if-none-match': etag } : {}) };
    const t0 = performance.now();
    try {
      const res = await pool.request({ method: 'GET', path: route.path, headers });
      const body = Buffer.from(await res.body.arrayBuffer());
      const ms = performance.now() - t0;
      const s = stats.get(route.name);
      s.ms.push(ms);
      s.bytes += body.length;
      s.statuses.set(res.statusCode, (s.statuses.get(res.statusCode) ?? 0) + 1);
      if (route.path === '/api/snapshot/nba' && res.statusCode === 200 && typeof res.headers.etag === 'string') etag = res.headers.etag;
      const ok = (res.statusCode >= 200 && res.statusCode < 300) || res.statusCode === 304;
      if (!ok && errors.length < 1000) errors.push({ route: route.name, status: res.statusCode, body: body.toString('utf8').slice(0, 200) });
      else if (!ok) errors.push({ route: route.name, status: res.statusCode });
    } catch (e) {
      errors.push({ route: route.name, status: null, body: e instanceof Error ? e.message : String(e) });
    }
    total++;
  }
}
const readers = Array.from({ length: clients }, (_, id) => client(id));
const ticker = setInterval(() => note(`${(progress * 100).toFixed(0)}% of the season, ${total} requests, ${errors.length} errors, server RSS ${((rss.at(-1)?.rssKb ?? 0) / 1024).toFixed(0)} MB, load ${os.loadavg()[0].toFixed(1)}`), 30_000);
const loadAtStart = os.loadavg();
const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), maxSeconds * 1000).unref());
const outcome = await Promise.race([simDone, timeout]);
const seasonSeconds = (performance.now() - started) / 1000;
const loadAtEnd = os.loadavg();
stop = true;
await Promise.all(readers);
clearInterval(ticker);
clearInterval(sampler);
clearInterval(heapSampler);
await metricsPool.close();
const finalStatus = readStatus();

// The server's own gauge, with the internal key, as a cross-check of /proc.
let metricsRssMb = null;
try {
  const res = await pool.request({ method: 'GET', path: '/metrics', headers: { 'x-internal-key': internalKey } });
  const text = await res.body.text();
  const m = /^propgrade_process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
  if (res.statusCode === 200 && m) metricsRssMb = Number(m[1]) / 1048576;
} catch {
  // /metrics is a cross-check; /proc already measured.
}
await pool.close();

// 5. The figures.
const pct = (xs, q) => {
  if (xs.length === 0) return null;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const round = (v, d = 1) => (v === null ? null : Number(v.toFixed(d)));
const perRoute = routes.map((r) => {
  const s = stats.get(r.name);
  return { route: r.name, path: r.path, requests: s.ms.length, statuses: Object.fromEntries(s.statuses), p50Ms: round(pct(s.ms, 0.5)), p99Ms: round(pct(s.ms, 0.99)), maxMs: round(pct(s.ms, 1)), kbPerAnswer: s.ms.length ? round(s.bytes / s.ms.length / 1024, 1) : null };
});
const all = [...stats.values()].flatMap((s) => s.ms);
// Warm-up: with one lap, the first 10% of the runs (the first snapshots fill the caches), early
// 10-30% and late 80-100%. With laps, the whole first lap (the ledger and the slates grow through
// a season, so one season's RSS climbs with its data), then the first and last fifth of the rest.
// Flat: the late peak within 10% of the early peak.
const warm = laps > 1 ? 1 / laps : 0.1;
const fifth = laps > 1 ? 0.2 * (1 - warm) : 0.2;
const windows = { early: [warm, warm + fifth], late: [laps > 1 ? 1 - fifth : 0.8, 1.01] };
const pctLabel = ([lo, hi]) => `${Math.round(lo * 100)}-${Math.min(100, Math.round(hi * 100))}%`;
const windowMb = (lo, hi) => {
  const xs = rss.filter((s) => s.progress >= lo && s.progress < hi).map((s) => s.rssKb);
  return xs.length ? { peak: round(Math.max(...xs) / 1024), median: round(pct(xs, 0.5) / 1024) } : { peak: null, median: null };
};
const earlyWindow = windowMb(...windows.early);
const lateWindow = windowMb(...windows.late);
const early = earlyWindow.peak;
const late = lateWindow.peak;
const ratio = early && late ? late / early : null;
const flat = ratio === null ? null : ratio <= 1.1;
const heapWindow = ([lo, hi]) => {
  const xs = heap.filter((h) => h.progress >= lo && h.progress < hi && h.usedMb !== null);
  if (xs.length === 0) return { usedMin: null, usedMedian: null, externalMedian: null };
  const used = xs.map((h) => h.usedMb);
  return { usedMin: round(Math.min(...used)), usedMedian: round(pct(used, 0.5)), externalMedian: round(pct(xs.map((h) => h.externalMb ?? 0), 0.5)) };
};
const heapEarly = heapWindow(windows.early);
const heapLate = heapWindow(windows.late);
if (traceFile) fs.writeFileSync(`${traceFile.replace(/\.csv$/, '')}-heap.csv`, `seconds,season_fraction,heap_used_mb,external_mb\n${heap.map((h) => `${((h.t - started) / 1000).toFixed(2)},${h.progress.toFixed(4)},${h.usedMb?.toFixed(1)},${h.externalMb?.toFixed(1)}`).join('\n')}\n`);
if (traceFile) fs.writeFileSync(traceFile, `seconds,season_fraction,rss_mb\n${rss.map((r) => `${((r.t - started) / 1000).toFixed(2)},${r.progress.toFixed(4)},${(r.rssKb / 1024).toFixed(1)}`).join('\n')}\n`);
const report = {
  range: { from: firstDay, to: lastDay, seasonFolder: `${season.from}..${season.to}` },
  clients,
  seasonSeconds: round(seasonSeconds),
  laps,
  simulate: outcome === 'timeout' ? 'timeout' : lapReports.map(({ code, signal, report: r }) => ({ exitCode: code, signal, snapshots: r?.snapshots ?? null, snapshotStatus: r?.snapshot_status ?? null, settles: r?.settles ?? null, gradedRows: r?.graded_rows ?? null, ledgerEntries: r?.ledger_entries ?? null, secondsPerSnapshot: round(r?.seconds_per_snapshot ?? null, 2) })),
  requests: all.length,
  requestsPerSecond: round(all.length / seasonSeconds),
  errors: errors.length,
  p50Ms: round(pct(all, 0.5)),
  p99Ms: round(pct(all, 0.99)),
  routes: perRoute,
  serverRssMb: { windows: { early: pctLabel(windows.early), late: pctLabel(windows.late) }, earlyPeak: early, latePeak: late, earlyMedian: earlyWindow.median, lateMedian: lateWindow.median, lateOverEarly: round(ratio, 3), flatWithin10Pct: flat, wholeRunPeak: finalStatus ? round(finalStatus.hwmKb / 1024) : null, atEnd: finalStatus ? round(finalStatus.rssKb / 1024) : null, metricsGaugeAtEnd: round(metricsRssMb), samples: rss.length },
  serverHeapMb: { early: heapEarly, late: heapLate, samples: heap.length },
  loadavg1: { start: round(loadAtStart[0], 2), end: round(loadAtEnd[0], 2) },
  cpus: os.cpus().length,
  node: process.version,
};

if (asJson) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  const lines = [
    `Soak: NBA season ${firstDay}..${lastDay}${laps > 1 ? ` x${laps} laps` : ''} under ${clients} clients, ${report.seasonSeconds} s, load average ${report.loadavg1.start} -> ${report.loadavg1.end} on ${report.cpus} CPUs`,
    ...(typeof report.simulate === 'string'
      ? [`simulate: ${report.simulate}`]
      : report.simulate.map((l, i) => `simulate lap ${i + 1}/${laps}: exit ${l.exitCode}, ${l.snapshots} snapshots (${Object.entries(l.snapshotStatus ?? {}).map(([k, v]) => `${v} ${k}`).join(', ')}), ${l.settles} settles, ${l.gradedRows} graded rows, ${l.ledgerEntries} ledger entries, ${l.secondsPerSnapshot} s per snapshot`)),
    `requests ${report.requests} (${report.requestsPerSecond}/s), errors ${report.errors}, p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms`,
    '',
    `${'route'.padEnd(30)} ${'requests'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'KB/answer'.padStart(9)}  statuses`,
    ...perRoute.map((r) => `${r.route.padEnd(30)} ${String(r.requests).padStart(8)} ${String(r.p50Ms).padStart(8)} ${String(r.p99Ms).padStart(8)} ${String(r.maxMs).padStart(8)} ${String(r.kbPerAnswer).padStart(9)}  ${Object.entries(r.statuses).map(([k, v]) => `${k}:${v}`).join(' ')}`),
    '(latency: request sent to last body byte read, loopback; KB/answer as sent, compressed where asked)',
    '',
    `server RSS (MB): early peak (${pctLabel(windows.early)} of the runs) ${early}, late peak (${pctLabel(windows.late)}) ${late}, late/early ${report.serverRssMb.lateOverEarly} -> ${flat === null ? 'not measured' : flat ? 'flat within 10%' : 'NOT flat within 10%'} (medians ${earlyWindow.median} and ${lateWindow.median})${laps === 1 ? ', one season: its data still growing (--laps n measures after a first lap)' : ''}; whole-run peak ${report.serverRssMb.wholeRunPeak}, at end ${report.serverRssMb.atEnd} (/metrics gauge ${report.serverRssMb.metricsGaugeAtEnd})`,
    `server JS heap used (MB, /metrics every 2 s): early min ${heapEarly.usedMin} median ${heapEarly.usedMedian}, late min ${heapLate.usedMin} median ${heapLate.usedMedian}; external (Buffers) medians ${heapEarly.externalMedian} and ${heapLate.externalMedian}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
for (const e of errors.slice(0, 5)) note(`error: ${e.route} ${e.status ?? 'request failed'} ${e.body ?? ''}`);
const failed = outcome === 'timeout' || outcome.code !== 0 || server.exitCode !== null;
if (outcome === 'timeout') note(`the season did not end within --max-seconds ${maxSeconds}`);
else if (outcome.code !== 0) note(`simulate exited ${outcome.code}:\n${simErr()}`);
if (server.exitCode !== null) note(`the server exited ${server.exitCode} during the soak:\n${serverErr()}`);
// The server's pipes keep this process alive: close it the way an operator does (SIGTERM), then exit.
if (server.exitCode === null) {
  const closed = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
}
process.exit(errors.length > 0 || failed || (flag('--require-flat') && flat === false) ? 1 : 0);
