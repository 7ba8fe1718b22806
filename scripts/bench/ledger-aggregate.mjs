// Benchmark: the public-record aggregate over 1M ledger rows IN THE STORE (issue 5).
// Run after `npm run build`: node scripts/bench/ledger-aggregate.mjs [rows]
//
// The rows are SYNTHETIC (seeded PRNG, shaped like real ledger_entries rows, 120 game dates so a
// 30-day window keeps about a quarter; 10% belong to users, whom the public record excludes).
// They are inserted into a temp store with one prepared statement in one transaction, then
// readModelRecord (the CLI's and the API's read: SQL narrowing by window, then the pure domain
// aggregate and tier table) is timed for a 30-day window and with a team scope.
// Baseline, same DB, same process: `SELECT count(*), sum(outcome='hit') ... WHERE game_date
// BETWEEN` the same window, the least work any record read must do.
import { join } from 'node:path';
import { benchResult, dist, peakRssMb, prng, round, SMOKE, tempDir, timeMedian } from './_shared.mjs';

const ROWS = Number(process.argv[2] ?? (SMOKE ? 20_000 : 1_000_000));
const REPEATS = SMOKE ? 3 : 7;
const NOW = new Date('2025-12-15T17:00:00Z');
const USERS = 50;

const { openStore } = await dist('store/db.js');
const { readModelRecord } = await dist('pipeline/record-read.js');
const { modelAggregate, recordWindow, tierCalibration } = await dist('domain/records.js');

const dir = tempDir('ledger-aggregate');
const store = openStore(join(dir, 'bench.sqlite'));
const { sqlite } = store;

function insertRows(n) {
  const rand = prng(20251121);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const teams = ['ATL', 'BOS', 'CLE', 'DAL', 'DEN', 'GSW', 'IND', 'LAL', 'MIA', 'MIL', 'NYK', 'OKC', 'PHX', 'POR'];
  const grades = ['A+', 'A', 'B', 'C', 'F', null];
  const outcomes = ['hit', 'hit', 'miss', 'miss', 'push', 'void', 'pending'];
  const verdicts = ['beat', 'faded', 'flat', null];
  const sports = ['nba', 'mlb', 'wnba', 'soccer'];
  const stats = ['points', 'rebounds', 'assists', 'threes', 'pra', 'hits', 'strikeouts'];
  const start = Date.UTC(2025, 7, 18); // 120 game dates ending on NOW's date
  const addUser = sqlite.prepare(`insert into users (email, tier, created_at) values (?, 'free', '2025-08-01T00:00:00Z')`);
  const add = sqlite.prepare(
    `insert into ledger_entries (user_id, source, sport, event_id, commence_time, game_date, player, player_key, team, stat_type, line, side, grade, p_win, locked_at, outcome, clv_verdict)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (let u = 1; u <= USERS; u++) addUser.run(`bench-user-${u}@example.invalid`);
    for (let i = 0; i < n; i++) {
      const day = start + Math.floor(rand() * 120) * 86_400_000;
      const gameDate = new Date(day).toISOString().slice(0, 10);
      const commence = new Date(day + 23 * 3_600_000).toISOString();
      const p = Math.floor(rand() * 2000);
      const user = rand() < 0.1 ? 1 + Math.floor(rand() * USERS) : null;
      const outcome = pick(outcomes);
      add.run(
        user,
        user === null ? 'pipeline' : 'scan',
        pick(sports),
        `synthetic-${i}`,
        commence,
        gameDate,
        `Player ${p}`,
        `player ${p}`,
        pick(teams),
        pick(stats),
        0.5 + Math.floor(rand() * 30),
        rand() < 0.5 ? 'over' : 'under',
        pick(grades),
        rand() < 0.8 ? 0.45 + rand() * 0.2 : null,
        new Date(day).toISOString(),
        outcome,
        outcome === 'pending' ? null : pick(verdicts),
      );
    }
  })();
}

const t0 = performance.now();
insertRows(ROWS);
const insertMs = performance.now() - t0;
const peakAfterInsert = peakRssMb();
sqlite.pragma('wal_checkpoint(TRUNCATE)');
sqlite.pragma('optimize');

const w = recordWindow(NOW, 30);
const countStmt = sqlite.prepare(`select count(*) as n, sum(outcome = 'hit') as hits from ledger_entries where game_date between ? and ?`);
const baseline = timeMedian(() => countStmt.get(w.from, w.to), REPEATS);
// One record read before any other read, so its memory is visible apart from the repeats' garbage.
readModelRecord(store, { now: NOW, days: 30 });
const peakAfterOneRead = peakRssMb();

// Diagnostics: the same window rows through better-sqlite3 without drizzle, and the domain alone.
const rawStmt = sqlite.prepare(
  `select user_id as userId, sport, game_date as gameDate, team, player, player_key as playerKey, grade, outcome, p_win as pWin, clv_verdict as clvVerdict
   from ledger_entries where user_id is null and game_date >= ? and game_date <= ?`,
);
const raw = timeMedian(() => rawStmt.all(w.from, w.to), REPEATS);
const windowRows = raw.sink;
const domainOnly = timeMedian(() => ({ aggregate: modelAggregate(windowRows, { now: NOW }), tiers: tierCalibration(windowRows, { now: NOW }) }), REPEATS);

const window = timeMedian(() => readModelRecord(store, { now: NOW, days: 30 }), REPEATS);
const team = timeMedian(() => readModelRecord(store, { now: NOW, days: 30, team: 'CLE' }), REPEATS);
const sizeMb = (sqlite.pragma('page_count', { simple: true }) * sqlite.pragma('page_size', { simple: true })) / 1e6;
store.close();

// The store's answer must equal the domain's on the same rows.
const agree = JSON.stringify(window.sink.aggregate) === JSON.stringify(domainOnly.sink.aggregate);
const agg = window.sink.aggregate;
const ratio = window.ms / baseline.ms;
const teamRatio = team.ms / baseline.ms;
const line = (name, ms, extra = '') => console.log(`${name.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms${extra}`);
console.log(
  `${SMOKE ? 'SMOKE MODE (small table; figures meaningless) — ' : ''}${ROWS.toLocaleString('en-US')} SYNTHETIC ledger rows inserted in ${Math.round(insertMs)} ms ` +
    `(one prepared statement, one transaction); DB ${sizeMb.toFixed(0)} MB; window ${w.from}..${w.to}: ${baseline.sink.n.toLocaleString('en-US')} rows, ` +
    `${windowRows.length.toLocaleString('en-US')} public`,
);
console.log(`median of ${REPEATS} runs each, same process, same DB; peak RSS after the insert ${peakAfterInsert} MB, after one record read ${peakAfterOneRead} MB, after all the repeats ${peakRssMb()} MB`);
line('baseline: SELECT count(*), sum(outcome=hit) WHERE game_date BETWEEN', baseline.ms);
line('readModelRecord, 30-day window', window.ms, `  ${ratio.toFixed(1)}× baseline`);
line('readModelRecord, 30-day window, team CLE', team.ms, `  ${teamRatio.toFixed(1)}× baseline (team filtered in JS, not SQL)`);
line('  diagnostic: same window rows via better-sqlite3, no drizzle', raw.ms);
line('  diagnostic: modelAggregate + tierCalibration on those rows', domainOnly.ms);
console.log(`(sanity: ${agg.counts.entries.toLocaleString('en-US')} public entries in window, hit rate n=${agg.hitRate.n}; store read equals the domain on raw rows: ${agree})`);
const headline = `record aggregate over ${ROWS.toLocaleString('en-US')} rows is ${ratio.toFixed(1)}× a SQL count (${Math.round(window.ms)} ms vs ${baseline.ms.toFixed(0)} ms); team scope ${teamRatio.toFixed(1)}×`;
console.log(headline);
benchResult('ledger-aggregate', headline, ratio, {
  rows: ROWS,
  synthetic: true,
  windowRows: baseline.sink.n,
  publicWindowRows: windowRows.length,
  insertMs: Math.round(insertMs),
  dbMb: Math.round(sizeMb),
  baselineMs: round(baseline.ms, 1),
  windowMs: round(window.ms, 1),
  teamMs: round(team.ms, 1),
  teamRatio: round(teamRatio, 2),
  rawSelectMs: round(raw.ms, 1),
  domainMs: round(domainOnly.ms, 1),
  agree,
  peakRssMbAfterInsert: peakAfterInsert,
  peakRssMbAfterOneRead: peakAfterOneRead,
});
if (!agree) process.exitCode = 1;
