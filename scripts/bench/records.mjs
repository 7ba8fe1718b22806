// Benchmark: the public-record aggregate over 1M ledger rows (issue 5).
// Run after `npm run build`: node scripts/bench/records.mjs [rows]
//
// The rows are SYNTHETIC (seeded PRNG, shaped like ledger_entries rows): a benchmark measures
// the code path, not the record, so no real data is needed or implied. Timings are reported as
// rows/s and as a ratio against a baseline measured in the same process on the same rows (a
// plain loop summing one field), so the figures compare across machines; there is no pass/fail.
import { accuracyByTier, modelAggregate, tierCalibration } from '../../dist/domain/records.js';
import { prng } from './_shared.mjs';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const REPEATS = 7;

const pick = (rand, list) => list[Math.floor(rand() * list.length)];

function buildRows(n) {
  const rand = prng(20251121);
  const teams = ['ATL', 'BOS', 'CLE', 'DAL', 'DEN', 'GSW', 'IND', 'LAL', 'MIA', 'MIL', 'NYK', 'OKC', 'PHX', 'POR'];
  const grades = ['A+', 'A', 'B', 'C', 'F', null];
  const outcomes = ['hit', 'hit', 'miss', 'miss', 'push', 'void', 'pending'];
  const verdicts = ['beat', 'faded', 'flat', null];
  const sports = ['nba', 'mlb', 'wnba', 'soccer'];
  const start = Date.UTC(2025, 8, 1); // 120 days of game dates, so a 30-day window keeps about a quarter
  const rows = new Array(n);
  for (let i = 0; i < n; i++) {
    const day = new Date(start + Math.floor(rand() * 120) * 86_400_000).toISOString().slice(0, 10);
    const p = Math.floor(rand() * 2000);
    rows[i] = {
      id: i + 1,
      userId: rand() < 0.1 ? 1 + Math.floor(rand() * 50) : null,
      sport: pick(rand, sports),
      gameDate: day,
      team: pick(rand, teams),
      player: `Player ${p}`,
      playerKey: `player ${p}`,
      grade: pick(rand, grades),
      pWin: rand() < 0.8 ? 0.45 + rand() * 0.2 : null,
      line: 0.5 + Math.floor(rand() * 30),
      outcome: pick(rand, outcomes),
      clvVerdict: pick(rand, verdicts),
    };
  }
  return rows;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn) {
  fn(); // warm-up
  const samples = [];
  let sink;
  for (let i = 0; i < REPEATS; i++) {
    const t0 = process.hrtime.bigint();
    sink = fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: median(samples), sink };
}

const t0 = performance.now();
const rows = buildRows(ROWS);
console.log(`built ${ROWS.toLocaleString('en-US')} synthetic ledger rows in ${(performance.now() - t0).toFixed(0)} ms`);

const now = new Date('2025-12-15T17:00:00Z');
const baseline = time(() => {
  let sum = 0;
  for (let i = 0; i < rows.length; i++) sum += rows[i].line;
  return sum;
});

const cases = [
  ['modelAggregate (30-day window)', () => modelAggregate(rows, { now })],
  ['modelAggregate (team + sport scope)', () => modelAggregate(rows, { now, team: 'CLE', sport: 'nba' })],
  ['modelAggregate (player scope)', () => modelAggregate(rows, { now, player: 'Player 42' })],
  ['tierCalibration (30-day window)', () => tierCalibration(rows, { now })],
  ['accuracyByTier (30-day window)', () => accuracyByTier(rows, { now })],
];

const rate = (ms) => `${((ROWS / ms) * 1000 / 1e6).toFixed(1)}M rows/s`;
console.log(`median of ${REPEATS} runs each, same process, same rows`);
console.log(`baseline: plain loop summing one field   ${baseline.ms.toFixed(1).padStart(8)} ms  ${rate(baseline.ms)}`);
for (const [name, fn] of cases) {
  const r = time(fn);
  console.log(`${name.padEnd(40)} ${r.ms.toFixed(1).padStart(8)} ms  ${rate(r.ms)}  ${(r.ms / baseline.ms).toFixed(1)}x baseline`);
}
const agg = modelAggregate(rows, { now });
console.log(`(sanity: window ${agg.window.from}..${agg.window.to}, ${agg.counts.entries.toLocaleString('en-US')} public rows in window, hit rate n=${agg.hitRate.n})`);
