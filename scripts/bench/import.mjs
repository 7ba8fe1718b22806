// Benchmark: the first-use history import (issue 18).
// Run after `npm run build`: node scripts/bench/import.mjs [rounds]
//
// importGameLogs('nba', data/replay/history/nba-gamelogs-before-2025-11-04.csv) — read, parse and
// validate the real 23,822-row NBA.com game-log CSV and upsert every row into player_game_stats —
// on a fresh migrated store each round. Baseline, same rows, same process: the rows exactly as the
// import stored them, written into another fresh store by one prepared INSERT in one transaction
// (no parse, no validation, no conflict handling): the least any import of these rows must do.
// Peak RSS: one import alone in its own Node process (what the first `propgrade snapshot` adds).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchResult, dist, median, peakRssMb, REPLAY_DIR, SMOKE, tempDir, childJson } from './_shared.mjs';

const FILE = join(REPLAY_DIR, 'history/nba-gamelogs-before-2025-11-04.csv');
const AT = new Date('2025-11-04T00:00:00Z');
const { openStore } = await dist('store/db.js');
const { importGameLogs } = await dist('jobs/import-history.js');

if (process.env.BENCH_ROLE === 'rss') {
  const store = openStore(join(process.env.BENCH_DIR, 'rss.sqlite'));
  const before = peakRssMb();
  const t0 = performance.now();
  const r = await importGameLogs(store, 'nba', FILE, AT);
  const ms = performance.now() - t0;
  await store.close();
  console.log(JSON.stringify({ before, after: peakRssMb(), ms, written: r.written }));
  process.exit(0);
}

const ROUNDS = Number(process.argv[2] ?? (SMOKE ? 1 : 5));
const dir = tempDir('import');
const columns = ['sport', 'player_key', 'player_name', 'team', 'opponent', 'date', 'game_key', 'minutes', 'stats', 'extras', 'source'];
let rows = null;
const imports = [];
const bares = [];
for (let i = 0; i < ROUNDS; i++) {
  const store = openStore(join(dir, `import-${i}.sqlite`));
  const t0 = performance.now();
  const result = await importGameLogs(store, 'nba', FILE, AT);
  imports.push({ ms: performance.now() - t0, written: result.written });
  rows ??= store.sqlite.prepare(`select ${columns.join(', ')} from player_game_stats order by id`).raw(true).all();
  await store.close();

  const bare = openStore(join(dir, `bare-${i}.sqlite`));
  const insert = bare.sqlite.prepare(`insert into player_game_stats (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
  const t1 = performance.now();
  bare.sqlite.transaction(() => {
    for (const r of rows) insert.run(r);
  })();
  bares.push(performance.now() - t1);
  await bare.close();
}
const rss = await childJson(fileURLToPath(import.meta.url), 'rss', { BENCH_DIR: dir });

const importMs = median(imports.map((r) => r.ms));
const bareMs = median(bares);
const ratio = importMs / bareMs;
console.log(`${SMOKE ? 'SMOKE MODE (one round; figures meaningless) — ' : ''}real NBA.com game logs ${FILE.replace(/^.*data\//, 'data/')}: ${rows.length.toLocaleString('en-US')} player-game rows; median of ${ROUNDS} round(s), each on a fresh store`);
console.log(`baseline: the same ${rows.length.toLocaleString('en-US')} stored rows, one prepared INSERT, one transaction   ${bareMs.toFixed(0).padStart(6)} ms  (rounds: ${bares.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`importGameLogs: read + parse + validate + upsert                         ${importMs.toFixed(0).padStart(6)} ms  (rounds: ${imports.map((x) => x.ms.toFixed(0)).join(', ')})  ${ratio.toFixed(2)}× the baseline`);
console.log(`one import alone in a process: ${Math.round(rss.ms)} ms, peak RSS ${rss.before} MB before (Node + modules + store), ${rss.after} MB after`);
const headline = `history import of ${rows.length.toLocaleString('en-US')} rows is ${ratio.toFixed(1)}× a bare prepared-insert transaction (${Math.round(importMs)} ms vs ${Math.round(bareMs)} ms)`;
console.log(headline);
benchResult('import', headline, ratio, {
  rows: rows.length,
  rounds: ROUNDS,
  importMs: Math.round(importMs),
  bareInsertMs: Math.round(bareMs),
  peakRssMbBeforeImport: rss.before,
  peakRssMbAfterImport: rss.after,
});
