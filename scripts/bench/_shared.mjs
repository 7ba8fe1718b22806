// Helpers shared by the benches (not a bench itself: run-all skips files starting with "_").
//
// Every bench works in its own temp dir, prints absolute figures and a ratio against a baseline
// measured in the same process, and ends with one `BENCH_RESULT {json}` line for run-all.
// BENCH_SMOKE=1 shrinks every size so test/bench/bench-smoke.test.ts can keep the scripts alive;
// smoke figures mean nothing and say so.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This folder (the benches and their helper children live here) and the package root above it. */
export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(BENCH_DIR, '../..');
export const REPLAY_DIR = join(ROOT, 'data/replay');
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** Imports a compiled module from dist/, with a clear message when `npm run build` was not run. */
export async function dist(path) {
  try {
    return await import(join(ROOT, 'dist', path));
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') {
      console.error(`dist/${path} not found: run \`npm run build\` first`);
      process.exit(2);
    }
    throw error;
  }
}

/** A temp dir removed on exit, even when the bench throws. */
export function tempDir(label) {
  const dir = mkdtempSync(join(tmpdir(), `propgrade-bench-${label}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const silentLog = { info: () => {}, warn: () => {} };

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall time in ms of `repeats` runs after one warm-up. */
export function timeMedian(fn, repeats) {
  let sink = fn();
  const samples = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = process.hrtime.bigint();
    sink = fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: median(samples), samples, sink };
}

/** timeMedian for an async `fn` (the store reads): each run awaited before the next starts. */
export async function timeMedianAsync(fn, repeats) {
  let sink = await fn();
  const samples = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = process.hrtime.bigint();
    sink = await fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: median(samples), samples, sink };
}

/** Wall time in ms of one call (sync or async). */
export async function timeOnce(fn) {
  const t0 = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

export const mb = (bytes) => Math.round(bytes / 1024 / 1024);
/** Peak resident set of this process so far, in MB (maxRSS is reported in KiB). */
export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
export const round = (x, digits = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/** mulberry32, the same seeded generator the back-test resamples with. */
export const prng = (await dist('domain/model/resample.js')).seededRandom;

/** The machine-readable last line run-all collects. `headline` is the ratio sentence. */
export function benchResult(bench, headline, ratio, figures) {
  // The load average says how much of the machine other processes were using meanwhile.
  const load = round(loadavg()[0], 2);
  console.log(`BENCH_RESULT ${JSON.stringify({ bench, smoke: SMOKE, headline, ratio: round(ratio, 2), peakRssMb: peakRssMb(), node: process.version, loadavg1: load, ...figures })}`);
}

/**
 * A temp store holding the replay's real projection history, imported through the same
 * importer the CLI uses. Smoke mode imports only the current season's rows (from 2025-10-21)
 * so it stays fast; the full run imports the whole seed file (23.8k player-games).
 */
export async function seededStore(dir) {
  const { openStore } = await dist('store/db.js');
  const { readReplayManifest } = await dist('feeds/transport/index.js');
  const { ensureReplaySeed, importGameLogs } = await dist('jobs/import-history.js');
  const store = openStore(join(dir, 'bench.sqlite'));
  const seed = readReplayManifest(REPLAY_DIR).seed;
  const at = new Date('2025-11-04T00:00:00Z');
  const t0 = performance.now();
  if (SMOKE) {
    for (const item of seed.gamelogs) {
      const lines = readFileSync(join(REPLAY_DIR, item.file), 'utf8').split('\n');
      const kept = [lines[0], ...lines.slice(1).filter((l) => (l.match(/,(\d{4}-\d{2}-\d{2}),/)?.[1] ?? '') >= '2025-10-21')];
      const file = join(dir, 'smoke-gamelogs.csv');
      writeFileSync(file, kept.join('\n'));
      await importGameLogs(store, item.sport, file, at);
    }
  } else {
    await ensureReplaySeed(store, REPLAY_DIR, seed, at, silentLog);
  }
  const ms = performance.now() - t0;
  const games = store.sqlite.prepare('select count(*) as n from player_game_stats').get().n;
  return { store, seedMs: ms, games };
}

/**
 * Odds from the bundled replay at `iso`, through the real adapters (buildOddsSource). Smoke mode
 * keeps the first `SMOKE_EVENTS` events of the slate only.
 */
export const SMOKE_EVENTS = 1;
export async function replayOdds(iso) {
  const { loadConfig } = await dist('config.js');
  const { buildOddsSource } = await dist('feeds/factory.js');
  const now = new Date(iso);
  const sources = await buildOddsSource(loadConfig({}), { replayDir: REPLAY_DIR, recordDir: null, now, log: silentLog });
  if (!SMOKE) return { now, sources, odds: sources.odds };
  const odds = {
    ...sources.odds,
    events: async (sport) => {
      const all = await sources.odds.events(sport);
      return all === null ? null : all.filter((e) => e.commenceTime > now.toISOString()).slice(0, SMOKE_EVENTS);
    },
    propQuotes: (sport, event) => sources.odds.propQuotes(sport, event),
    credits: () => sources.odds.credits(),
  };
  return { now, sources, odds };
}

/** Runs the real snapshot pipeline for nba over the replay at `iso`. */
export async function snapshotAt(store, iso) {
  const { runSnapshot } = await dist('jobs/snapshot-run.js');
  const { now, sources, odds } = await replayOdds(iso);
  try {
    return await runSnapshot('nba', { store, odds, now, allowedBooks: null, log: silentLog });
  } finally {
    await sources.close();
  }
}

// ---- process-level measurement and scaling fits (issue 18) ----

/** Preloaded into a measured child: prints its own peak RSS (KiB) on stderr as it exits. */
export const PEAK_RSS_HOOK = `data:text/javascript,${encodeURIComponent("process.on('exit', () => process.stderr.write('\\nBENCH_CHILD_PEAK_RSS ' + process.resourceUsage().maxRSS + '\\n'));")}`;

/**
 * Runs `node <args>` as a whole process and measures it from spawn to exit: wall ms, the child's
 * own peak RSS (MB), exit code and output. The child's stderr keeps everything but the RSS line.
 */
export async function measureProcess(args, { env = {}, cwd = ROOT } = {}) {
  const { spawn } = await import('node:child_process');
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', PEAK_RSS_HOOK, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const m = /\nBENCH_CHILD_PEAK_RSS (\d+)\n/.exec(stderr);
      done({ ms, code, stdout, stderr: stderr.replace(/\nBENCH_CHILD_PEAK_RSS \d+\n/, ''), peakRssMb: m ? Math.round(Number(m[1]) / 1024) : null });
    });
  });
}

/** Runs this same bench file as a child in a role (env BENCH_ROLE), returning the JSON its last stdout line holds. */
export async function childJson(file, role, env = {}, args = []) {
  const r = await measureProcess([file, ...args], { env: { ...env, BENCH_ROLE: role } });
  if (r.code !== 0) throw new Error(`${role} child failed (${r.code}): ${r.stderr.slice(-2000)}`);
  return { ...JSON.parse(r.stdout.trim().split('\n').at(-1)), childMs: r.ms, childPeakRssMb: r.peakRssMb };
}

/**
 * Least-squares exponent b of y = a·x^b over (x, y) points (slope of log y on log x): 1 is linear,
 * below 1 better than linear.
 */
export function fitExponent(points) {
  const pts = points.filter(([x, y]) => x > 0 && y > 0).map(([x, y]) => [Math.log(x), Math.log(y)]);
  if (pts.length < 2) return null;
  const mx = pts.reduce((s, [x]) => s + x, 0) / pts.length;
  const my = pts.reduce((s, [, y]) => s + y, 0) / pts.length;
  let num = 0;
  let den = 0;
  for (const [x, y] of pts) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? null : num / den;
}

/** One line of a scaling table. */
export function scalingLine(label, size, ms, peakMb, extra = '') {
  return `  ${label.padEnd(16)} ${String(size).padStart(12)}  ${ms.toFixed(0).padStart(8)} ms  peak RSS ${String(peakMb ?? '?').padStart(5)} MB${extra}`;
}

/** A seeded store file (the replay's history imported once), built in a child so the caller's RSS stays its own. */
export async function seededTemplate(dir) {
  const path = join(dir, 'template.sqlite');
  const r = await measureProcess([join(BENCH_DIR, '_seed-template.mjs'), path]);
  if (r.code !== 0) throw new Error(`seeding the template store failed (${r.code}): ${r.stderr}`);
  return { path, ...JSON.parse(r.stdout.trim().split('\n').at(-1)) };
}

/**
 * The API over a temp store holding the bundled NBA slate's real snapshot (the replay's history
 * imported, the snapshot pipeline run at the recording's clock): what the HTTP diagnostics serve.
 * `await close()` closes the store and removes the temp dir.
 */
export async function replaySnapshotApp(label) {
  const { loadConfig } = await dist('config.js');
  const { ensureReplaySeed } = await dist('jobs/import-history.js');
  const { runSnapshot } = await dist('jobs/snapshot-run.js');
  const { buildOddsSource } = await dist('feeds/factory.js');
  const { createApp } = await dist('server/app.js');
  const { openStore } = await dist('store/db.js');
  const dir = mkdtempSync(join(tmpdir(), `pg-${label}-`));
  const store = openStore(join(dir, 'pg.sqlite'));
  const now = new Date('2025-11-05T17:05:00Z');
  const config = loadConfig({});
  const sources = await buildOddsSource(config, { replayDir: REPLAY_DIR, recordDir: null, now, log: silentLog });
  await ensureReplaySeed(store, REPLAY_DIR, sources.seed, now, silentLog);
  await runSnapshot('nba', { store, odds: sources.odds, now, allowedBooks: null, log: silentLog });
  await sources.close();
  const api = createApp({ store, config, now: () => now });
  return {
    store,
    api,
    now,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `count` GETs of `path` over `connections` keep-alive sockets of an undici Pool, every body read
 * to the end; requests/s and the bytes read. Any status but 200 fails the bench.
 */
export async function loadPool(pool, { count, connections, path, headers = {} }) {
  let next = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const res = await pool.request({ path, method: 'GET', headers });
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      for await (const chunk of res.body) bytes += chunk.length;
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { rps: count / seconds, seconds, bytes };
}
