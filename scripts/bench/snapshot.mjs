// Benchmark: the bundled snapshot as whole processes, against the floor (issues 4 and 18).
// Run after `npm run build`: node scripts/bench/snapshot.mjs [rounds]
//
// Each round, in this order (so machine load hits every figure alike), each a whole Node process
// timed from spawn to exit, with its own peak RSS:
//   fresh: `propgrade --db <new file> snapshot nba --replay data/replay --quiet --json` on a store that does
//          not exist yet: migrations, the first-use import of the replay's 23,822 history rows, the
//          run (grades and locks every row) and its summary;
//   warm:  the same command again on that store (every grade read from its lock, a new snapshot
//          written);
//   floor: scripts/bench/_floor.mjs: a Node process that reads and parses EVERY replay file and
//          writes as many rows as the fresh run wrote (all tables) into SQLite in one transaction;
//   all:   `propgrade snapshot all --replay data/replay --quiet` on a new store (peak RSS goal).
// The figures are medians over the rounds; the ratios are fresh/floor and warm/floor.
import { join } from 'node:path';
import { BENCH_DIR, benchResult, measureProcess, median, ROOT, round, SMOKE, tempDir } from './_shared.mjs';
import Database from 'better-sqlite3';

const ROUNDS = Number(process.argv[2] ?? (SMOKE ? 1 : 5));
const dir = tempDir('snapshot');
const CLI = join(ROOT, 'bin/propgrade.js');

/** Rows in every table of a store file (the migrations' own bookkeeping left out). */
function rowsWritten(path) {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'`).pluck().all();
    return tables.reduce((n, t) => n + db.prepare(`select count(*) from "${t}"`).pluck().get(), 0);
  } finally {
    db.close();
  }
}

async function cli(db, sport) {
  const r = await measureProcess([CLI, '--db', db, 'snapshot', sport, '--replay', 'data/replay', '--quiet', '--json']);
  if (r.code !== 0) throw new Error(`snapshot ${sport} exited ${r.code}: ${r.stderr}`);
  const nba = JSON.parse(r.stdout).runs.find((x) => x.sport === 'nba');
  if (nba?.status !== 'ok') throw new Error(`snapshot ${sport}: nba ${nba?.status}`);
  return { ...r, nba };
}

const samples = { fresh: [], warm: [], floor: [], all: [] };
let written = null;
for (let i = 0; i < ROUNDS; i++) {
  const db = join(dir, `round-${i}.sqlite`);
  samples.fresh.push(await cli(db, 'nba'));
  samples.warm.push(await cli(db, 'nba'));
  written ??= rowsWritten(db);
  const floor = await measureProcess([join(BENCH_DIR, '_floor.mjs'), String(written), join(dir, `floor-${i}.sqlite`)]);
  if (floor.code !== 0) throw new Error(`floor exited ${floor.code}: ${floor.stderr}`);
  samples.floor.push(floor);
  if (!SMOKE) samples.all.push(await cli(join(dir, `all-${i}.sqlite`), 'all'));
}

const ms = (k) => median(samples[k].map((s) => s.ms));
const rss = (k) => (samples[k].length === 0 ? null : median(samples[k].map((s) => s.peakRssMb)));
const floorMs = ms('floor');
const freshRatio = ms('fresh') / floorMs;
const warmRatio = ms('warm') / floorMs;
const floorInfo = JSON.parse(samples.floor[0].stdout.trim().split('\n').at(-1));
const line = (name, k, extra = '') =>
  console.log(`${name.padEnd(58)} ${ms(k).toFixed(0).padStart(6)} ms  peak RSS ${String(rss(k)).padStart(4)} MB  (rounds: ${samples[k].map((s) => s.ms.toFixed(0)).join(', ')})${extra}`);

console.log(
  `${SMOKE ? 'SMOKE MODE (one round, no `snapshot all`; figures meaningless) — ' : ''}bundled replay data/replay, nba at its recorded clock 2025-11-05T17:05Z; whole processes, median of ${ROUNDS} round(s)`,
);
line('floor: read+parse every replay file, write the rows, 1 tx', 'floor', `  (${floorInfo.bytes.toLocaleString('en-US')} bytes, ${written.toLocaleString('en-US')} rows)`);
line('fresh: snapshot nba on a new store (import included)', 'fresh', `  ${freshRatio.toFixed(2)}× the floor`);
line('warm: snapshot nba again (every grade from its lock)', 'warm', `  ${warmRatio.toFixed(2)}× the floor`);
const f = samples.fresh[0].nba;
const w = samples.warm[0].nba;
console.log(`fresh run: ${f.events} events, ${f.rows.toLocaleString('en-US')} rows, ${f.graded.toLocaleString('en-US')} graded, ${f.new_locks.toLocaleString('en-US')} locks, ledger +${f.ledger_inserted}`);
console.log(`warm run (${w.new_locks} new locks, ledger +${w.ledger_inserted}, closings ${w.closings_captured})`);
if (samples.all.length > 0) line('fresh: snapshot all on a new store', 'all');
const headline = `snapshot process is ${freshRatio.toFixed(1)}× the floor fresh (${Math.round(ms('fresh'))} ms), ${warmRatio.toFixed(1)}× warm (${Math.round(ms('warm'))} ms); floor ${Math.round(floorMs)} ms`;
console.log(headline);
// The warm run grades nothing anew: every grade comes from its lock.
const consistent = samples.warm.every((s) => s.nba.new_locks === 0 && s.nba.ledger_inserted === 0);
if (!consistent) process.exitCode = 1;
benchResult('snapshot', headline, freshRatio, {
  events: f.events,
  rows: f.rows,
  graded: f.graded,
  warmNewLocks: w.new_locks,
  rounds: ROUNDS,
  rowsWritten: written,
  floorMs: round(floorMs, 1),
  freshMs: Math.round(ms('fresh')),
  warmMs: Math.round(ms('warm')),
  freshRatio: round(freshRatio, 2),
  warmRatio: round(warmRatio, 2),
  peakRssMbFresh: rss('fresh'),
  peakRssMbWarm: rss('warm'),
  peakRssMbFloor: rss('floor'),
  allMs: samples.all.length ? Math.round(ms('all')) : null,
  peakRssMbAll: rss('all'),
});
