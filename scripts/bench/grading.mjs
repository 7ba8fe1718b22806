// Benchmark: grading throughput of gradeProp over the REAL rows of the bundled slate (issue 4).
// Run after `npm run build`: node scripts/bench/grading.mjs
//
// Inputs are real: the bundled NBA replay is snapshotted once (clock 2025-11-05T17:05:00Z, the
// replay's defaultNow, as `propgrade snapshot nba --replay data/replay` does) into a temp store seeded with
// the replay's real game history; every stored graded row is then re-graded from its recorded
// market pricing (graded price and market fair) and the player's history read with historyBefore
// (the snapshot's own query).
// History is read once per player before timing, so the loop measures the model only. gradeProp
// memoises a player-stat's projection per history array (every line and side of it share one), so
// each timed pass gets FRESH copies of the history arrays, made before the pass starts: every pass
// pays each projection once, as a snapshot run does. The same rows re-graded on warm memos are a
// diagnostic only.
// Baseline, same rows, same process: devigTwoWay(over, under, 'shin') alone, the irreducible
// per-row price work (gradeProp does it too), timed in turn with the grading passes after both are
// warmed. No pass/fail: the ratio is the figure.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { benchResult, dist, median, round, seededStore, SMOKE, SMOKE_EVENTS, snapshotAt, tempDir, timeMedian } from './_shared.mjs';

const REPEATS = SMOKE ? 3 : 41;
const WARMUP = SMOKE ? 1 : 10;
const NOW = '2025-11-05T17:05:00Z';

const { gradeProp } = await dist('domain/model/index.js');
const { devigTwoWay } = await dist('domain/devig.js');
const { historyBefore } = await dist('store/repo/game-stats.js');
const { snapshotRows } = await dist('store/repo/snapshots.js');
const { storedMarketPricing } = await dist('domain/slate.js');

const dir = tempDir('grading');
const { store, seedMs, games } = await seededStore(dir);
const summary = await snapshotAt(store, NOW);
if (summary.status !== 'ok') throw new Error(`snapshot did not run: ${summary.status} ${summary.message}`);
const rows = await snapshotRows(store, summary.snapshotId);

const histories = new Map();
for (const r of rows) if (!histories.has(r.playerKey)) histories.set(r.playerKey, await historyBefore(store, 'nba', r.playerKey, summary.slateDate));
const inputs = rows.map((r) => {
  return {
    sport: 'nba',
    stat: r.statType,
    line: r.line,
    side: r.side,
    overOdds: r.overOdds,
    underOdds: r.underOdds,
    market: storedMarketPricing(r),
    history: histories.get(r.playerKey),
    gameDate: summary.slateDate,
  };
});
await store.close();
const historyGames = [...histories.values()].reduce((n, h) => n + h.length, 0);

console.log(
  `${SMOKE ? `SMOKE MODE (first ${SMOKE_EVENTS} slate event(s) only, current-season history only; figures meaningless) — ` : ''}` +
    `real slate ${summary.slateDate}: ${inputs.length.toLocaleString('en-US')} graded rows (${summary.events} events, ${histories.size} players, ` +
    `${historyGames.toLocaleString('en-US')} history games in memory; store seeded with ${games.toLocaleString('en-US')} real player-games in ${Math.round(seedMs)} ms)`,
);

/** One de-vig pass over every row: the baseline. */
function devigPass() {
  let ok = 0;
  for (const input of inputs) if (devigTwoWay(input.overOdds, input.underOdds, 'shin').ok) ok++;
  return ok;
}

/** The inputs with a fresh copy of each player's history (untimed): the memo starts empty, as in a run. */
function freshInputs() {
  const copies = new Map([...histories].map(([k, h]) => [k, [...h]]));
  return inputs.map((input, i) => ({ ...input, history: copies.get(rows[i].playerKey) }));
}
function gradePass(batch) {
  let graded = 0;
  for (const input of batch) if (gradeProp(input).grade !== null) graded++;
  return graded;
}
// A young-generation collection before each timed pass (untimed), so a pass pays for its own
// garbage, not for a scavenge the other side's allocations left due: without it a 1 ms de-vig pass
// took 4-5 ms whenever one landed in it (every third pass), and the ratio moved 0.9-8x between
// runs. (A full collection instead left the grading passes spread 4.6-23 ms.)
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');
const msOf = (fn) => {
  collect({ type: 'minor' });
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
};

// Both sides are a few milliseconds a pass, so each is warmed (WARMUP passes, untimed: the JIT
// tiers up over the first ones) and then timed in alternation, a baseline pass next to a grading
// pass: a burst of load on the machine hits both alike.
for (let i = 0; i < WARMUP; i++) {
  devigPass();
  gradePass(freshInputs());
}
const devigMs = [];
const gradeMs = [];
let baselineSink = 0;
let gradedSink = 0;
for (let pass = 0; pass < REPEATS; pass++) {
  const b = msOf(devigPass);
  const batch = freshInputs();
  const g = msOf(() => gradePass(batch));
  devigMs.push(b.ms);
  gradeMs.push(g.ms);
  baselineSink = b.value;
  gradedSink = g.value;
}
const baseline = { ms: median(devigMs), sink: baselineSink };
const grading = { ms: median(gradeMs), sink: gradedSink };
const middleHalf = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[Math.floor(s.length / 4)].toFixed(2)}-${s[Math.floor((3 * s.length) / 4)].toFixed(2)} ms`;
};
const warmMemo = timeMedian(() => gradePass(inputs), REPEATS);

// gradeProp is pure: re-grading must reproduce the grades the snapshot locked in the same run.
const mismatches = inputs.filter((input, i) => (gradeProp(input).grade ?? null) !== (rows[i].grade ?? null)).length;

const perSec = (ms) => (inputs.length / ms) * 1000;
const ratio = grading.ms / baseline.ms;
console.log(`median of ${REPEATS} passes each after ${WARMUP} untimed, a baseline pass and a grading pass in turn; same process, same rows`);
console.log(`baseline: devigTwoWay (shin) per row   ${baseline.ms.toFixed(2).padStart(9)} ms  ${Math.round(perSec(baseline.ms)).toLocaleString('en-US').padStart(11)} rows/s  (${baseline.sink} two-way pairs; middle half ${middleHalf(devigMs)})`);
console.log(`gradeProp per row                      ${grading.ms.toFixed(2).padStart(9)} ms  ${Math.round(perSec(grading.ms)).toLocaleString('en-US').padStart(11)} rows/s  (${grading.sink} graded, ${inputs.length - grading.sink} refused; fresh history arrays each pass; middle half ${middleHalf(gradeMs)})`);
console.log(`  diagnostic: same rows, memo warm    ${warmMemo.ms.toFixed(2).padStart(9)} ms  ${Math.round(perSec(warmMemo.ms)).toLocaleString('en-US').padStart(11)} rows/s  (every projection already made: not what a run sees)`);
console.log(`gradeProp: ${(1000 * grading.ms / inputs.length).toFixed(1)} µs per row; re-graded rows differing from the snapshot's locks: ${mismatches}`);
const headline = `grading is ${ratio.toFixed(1)}× the de-vig baseline (${Math.round(perSec(grading.ms)).toLocaleString('en-US')} rows/s)`;
console.log(headline);
benchResult('grading', headline, ratio, {
  rows: inputs.length,
  graded: grading.sink,
  players: histories.size,
  gradeMs: round(grading.ms, 2),
  gradeRowsPerSec: Math.round(perSec(grading.ms)),
  devigMs: round(baseline.ms, 2),
  devigRowsPerSec: Math.round(perSec(baseline.ms)),
  warmMemoMs: round(warmMemo.ms, 2),
  mismatches,
});
if (mismatches > 0) process.exitCode = 1;
