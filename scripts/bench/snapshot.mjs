// Benchmark: wall time and peak RSS of the bundled snapshot run (issue 4).
// Run after `npm run build`: node scripts/bench/snapshot.mjs
//
// runSnapshot('nba') over the bundled real replay at its defaultNow (2025-11-05T17:05:00Z), on a
// temp store seeded with the replay's real history. The seed import runs in a child process so
// this process's peak RSS belongs to the snapshot runs. Cold = first run (grades and locks every
// row); warm = second run at the same clock (every grade comes from its lock, no new ledger rows).
// Baseline, same process: read and JSON.parse every replay body the run fetches (the events list
// and each event's odds at that clock): the I/O floor no implementation can go under.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchResult, dist, mb, peakRssMb, REPLAY_DIR, round, seededStore, SMOKE, SMOKE_EVENTS, snapshotAt, tempDir, timeMedian, timeOnce } from './_shared.mjs';

const NOW = '2025-11-05T17:05:00Z';

// Child: seed the store file and exit.
async function seedInto(seedDir) {
  const { store, seedMs, games } = await seededStore(seedDir);
  store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return { seedMs, games, peakRssMb: peakRssMb() };
}
if (process.env.BENCH_SNAPSHOT_SEED_DIR) {
  console.log(JSON.stringify(await seedInto(process.env.BENCH_SNAPSHOT_SEED_DIR)));
  process.exit(0);
}

const dir = tempDir('snapshot');
// Smoke mode seeds in-process: its RSS figures mean nothing anyway, and a second Node start is not free.
let seed;
if (SMOKE) {
  seed = await seedInto(dir);
} else {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, BENCH_SNAPSHOT_SEED_DIR: dir }, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`seeding child failed (${child.status}): ${child.stderr}`);
  seed = JSON.parse(child.stdout.trim().split('\n').at(-1));
}

const { openStore } = await dist('store/db.js');
const { readReplayManifest, replayKey } = await dist('feeds/transport/index.js');
const { selectReplayEntry } = await dist('feeds/transport/replay.js');
const { easternDate } = await dist('domain/time.js');

/** The files the run reads at NOW: the events list, then each slate event's odds. */
function fetchedFiles() {
  const now = new Date(NOW);
  const { entries } = readReplayManifest(REPLAY_DIR);
  const eventsUrl = 'https://api.the-odds-api.com/v4/sports/basketball_nba/events?dateFormat=iso';
  const eventsEntry = selectReplayEntry(entries, replayKey({ provider: 'odds-api', url: eventsUrl }), now);
  const slate = easternDate(now);
  let events = JSON.parse(readFileSync(join(REPLAY_DIR, eventsEntry.file), 'utf8')).filter(
    (e) => e.commence_time > now.toISOString() && easternDate(new Date(e.commence_time)) === slate,
  );
  if (SMOKE) events = events.slice(0, SMOKE_EVENTS);
  const files = [eventsEntry.file];
  for (const e of events) {
    const oddsEntry = entries.find((x) => x.provider === 'odds-api' && typeof x.url === 'string' && x.url.includes(`/events/${e.id}/odds?`));
    const chosen = oddsEntry ? selectReplayEntry(entries, oddsEntry.key, now) : null;
    if (chosen) files.push(chosen.file);
  }
  return files.map((f) => join(REPLAY_DIR, f));
}

const files = fetchedFiles();
const bytes = files.reduce((n, f) => n + readFileSync(f).length, 0);
const floor = timeMedian(() => {
  let items = 0;
  for (const f of files) {
    const body = JSON.parse(readFileSync(f, 'utf8'));
    items += Array.isArray(body) ? body.length : Object.keys(body).length; // keeps the parse observable
  }
  return items;
}, SMOKE ? 3 : 9);

const store = openStore(join(dir, 'bench.sqlite'));
const rssBefore = process.memoryUsage().rss;
const peakBefore = peakRssMb();
const cold = await timeOnce(() => snapshotAt(store, NOW));
const peakCold = peakRssMb();
const warm = await timeOnce(() => snapshotAt(store, NOW));
const peakWarm = peakRssMb();
store.close();
for (const [name, r] of [['cold', cold], ['warm', warm]]) {
  if (r.value.status !== 'ok') throw new Error(`${name} snapshot run: ${r.value.status} ${r.value.message}`);
}

const c = cold.value;
const w = warm.value;
const coldRatio = cold.ms / floor.ms;
const warmRatio = warm.ms / floor.ms;
console.log(
  `${SMOKE ? `SMOKE MODE (first ${SMOKE_EVENTS} slate event(s) only, current-season history only; figures meaningless) — ` : ''}` +
    `bundled replay, nba, clock ${NOW}: ${c.events} events, ${c.rows.toLocaleString('en-US')} rows (${c.graded} graded, ${c.refused} refused, ${c.dropped} dropped by the join invariant)`,
);
console.log(`store seeded ${SMOKE ? 'in-process' : 'in a child process'}: ${seed.games.toLocaleString('en-US')} real player-games in ${Math.round(seed.seedMs)} ms (child peak RSS ${seed.peakRssMb} MB)`);
console.log(`baseline: read + JSON.parse the ${files.length} replay bodies the run fetches (${(bytes / 1e6).toFixed(1)} MB), median of ${SMOKE ? 3 : 9}: ${floor.ms.toFixed(1)} ms`);
console.log(`cold run (grades + locks ${c.newLocks}, ledger +${c.ledgerInserted}):  ${cold.ms.toFixed(0).padStart(6)} ms  ${coldRatio.toFixed(1)}× the I/O floor`);
console.log(`warm run (${w.newLocks} new locks, ledger +${w.ledgerInserted}, closings ${w.closingsCaptured}):    ${warm.ms.toFixed(0).padStart(6)} ms  ${warmRatio.toFixed(1)}× the I/O floor`);
console.log(`RSS before the runs ${mb(rssBefore)} MB (peak so far ${peakBefore} MB); peak after cold ${peakCold} MB; after warm ${peakWarm} MB`);
const headline = `snapshot run is ${coldRatio.toFixed(1)}× the I/O floor cold (${Math.round(cold.ms)} ms), ${warmRatio.toFixed(1)}× warm (${Math.round(warm.ms)} ms)`;
console.log(headline);
benchResult('snapshot', headline, coldRatio, {
  events: c.events,
  rows: c.rows,
  graded: c.graded,
  coldMs: Math.round(cold.ms),
  warmMs: Math.round(warm.ms),
  floorMs: round(floor.ms, 1),
  floorFiles: files.length,
  floorMB: round(bytes / 1e6, 1),
  warmRatio: round(warmRatio, 2),
  peakRssMbBeforeRuns: peakBefore,
  peakRssMbCold: peakCold,
  peakRssMbWarm: peakWarm,
  seedMs: Math.round(seed.seedMs),
  seedChildPeakRssMb: seed.peakRssMb,
});
