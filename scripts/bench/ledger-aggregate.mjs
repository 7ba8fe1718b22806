// Benchmark: the public-record aggregate over ledger rows IN THE STORE, at several sizes (issues 5 and 18).
// Run after `npm run build`: node scripts/bench/ledger-aggregate.mjs [rows...]   (default 100000 1000000 10000000)
//
// The rows are SYNTHETIC (seeded PRNG, shaped like real ledger_entries rows, 120 game dates so a
// 30-day window keeps about a quarter; 10% belong to users, whom the public record excludes).
// They are inserted into a temp store with one prepared statement in one transaction, then
// readModelRecord (the CLI's and the API's read: the window and scope narrowed in SQL, then the
// domain aggregate and tier table) is timed for a 30-day window and with a team scope.
// Baseline, same DB, same process: `SELECT count(*), sum(outcome='hit') ... WHERE game_date
// BETWEEN` the same window, the least work any record read must do.
// Each size runs in its own Node process (peak RSS its own); the headline is the 1,000,000 size,
// where the diagnostics (the same rows via better-sqlite3, the domain alone) and the check that the
// store read equals the domain on raw rows also run. The exponent is fitted over every size.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchResult, childJson, dist, fitExponent, peakRssMb, prng, round, scalingLine, SMOKE, tempDir, timeMedian, timeMedianAsync } from './_shared.mjs';

const argSizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = argSizes.length ? argSizes : SMOKE ? [5_000, 20_000] : [100_000, 1_000_000, 10_000_000];
const HEADLINE = SIZES.includes(SMOKE ? 20_000 : 1_000_000) ? (SMOKE ? 20_000 : 1_000_000) : SIZES.at(-1);
const NOW = new Date('2025-12-15T17:00:00Z');
const USERS = 50;

function insertRows(sqlite, n) {
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
  })();
  // Committed every million rows so the WAL of a 10M-row insert stays bounded; the rows are the same.
  const CHUNK = 1_000_000;
  for (let from = 0; from < n; from += CHUNK) {
    sqlite.transaction(() => {
      for (let i = from; i < Math.min(n, from + CHUNK); i++) {
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
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  }
}

/** One size in its own process: insert the rows, time the baseline and the record reads. */
async function measureSize(dir, ROWS) {
  const { openStore } = await dist('store/db.js');
  const { readModelRecord } = await dist('reads/record.js');
  const { modelAggregate, recordWindow, tierCalibration } = await dist('domain/records.js');
  const REPEATS = SMOKE ? 3 : ROWS >= 5_000_000 ? 3 : 7;
  const headline = ROWS === HEADLINE;

  const store = openStore(join(dir, `rows-${ROWS}.sqlite`));
  const { sqlite } = store;
  const t0 = performance.now();
  insertRows(sqlite, ROWS);
  const insertMs = performance.now() - t0;
  const peakAfterInsert = peakRssMb();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.pragma('optimize');

  const w = recordWindow(NOW, 30);
  const countStmt = sqlite.prepare(`select count(*) as n, sum(outcome = 'hit') as hits from ledger_entries where game_date between ? and ?`);
  const baseline = timeMedian(() => countStmt.get(w.from, w.to), REPEATS);
  // One record read before any other read, so its memory is visible apart from the repeats' garbage.
  await readModelRecord(store, { now: NOW, days: 30 });
  const peakAfterOneRead = peakRssMb();

  let raw = null;
  let domainOnly = null;
  let windowRows = null;
  if (headline) {
    // Diagnostics: the same window rows through better-sqlite3 without drizzle, and the domain alone.
    const rawStmt = sqlite.prepare(
      `select user_id as userId, sport, game_date as gameDate, team, player, player_key as playerKey, grade, outcome, p_win as pWin, clv_verdict as clvVerdict, locked_price as lockedPrice
       from ledger_entries where user_id is null and game_date >= ? and game_date <= ?`,
    );
    raw = timeMedian(() => rawStmt.all(w.from, w.to), REPEATS);
    windowRows = raw.sink;
    domainOnly = timeMedian(() => ({ aggregate: modelAggregate(windowRows, { now: NOW }), tiers: tierCalibration(windowRows, { now: NOW }) }), REPEATS);
  }
  const window = await timeMedianAsync(() => readModelRecord(store, { now: NOW, days: 30 }), REPEATS);
  const team = await timeMedianAsync(() => readModelRecord(store, { now: NOW, days: 30, team: 'CLE' }), REPEATS);
  const sizeMb = (sqlite.pragma('page_count', { simple: true }) * sqlite.pragma('page_size', { simple: true })) / 1e6;
  await store.close();
  // The store's answer must equal the domain's on the same rows.
  const agree = headline ? JSON.stringify(window.sink.aggregate) === JSON.stringify(domainOnly.sink.aggregate) && JSON.stringify(window.sink.tiers) === JSON.stringify(domainOnly.sink.tiers) : null;
  return {
    rows: ROWS,
    repeats: REPEATS,
    insertMs,
    sizeMb,
    window: w,
    windowRows: baseline.sink.n,
    publicWindowRows: windowRows?.length ?? null,
    baselineMs: baseline.ms,
    windowMs: window.ms,
    teamMs: team.ms,
    rawMs: raw?.ms ?? null,
    domainMs: domainOnly?.ms ?? null,
    agree,
    entries: window.sink.aggregate.counts.entries,
    hitRateN: window.sink.aggregate.hitRate.n,
    peakAfterInsert,
    peakAfterOneRead,
    peakEnd: peakRssMb(),
  };
}

if (process.env.BENCH_ROLE === 'size') {
  console.log(JSON.stringify(await measureSize(process.env.BENCH_DIR, Number(process.env.BENCH_ROWS))));
  process.exit(0);
}

const dir = tempDir('ledger-aggregate');
const runs = [];
for (const n of SIZES) runs.push(await childJson(fileURLToPath(import.meta.url), 'size', { BENCH_DIR: dir, BENCH_ROWS: String(n) }));
const h = runs[SIZES.indexOf(HEADLINE)];
const ratio = h.windowMs / h.baselineMs;
const teamRatio = h.teamMs / h.baselineMs;
const line = (name, ms, extra = '') => console.log(`${name.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms${extra}`);
console.log(`${SMOKE ? 'SMOKE MODE (small tables; figures meaningless) — ' : ''}SYNTHETIC ledger rows (one prepared statement, committed per million rows); 30-day window ${h.window.from}..${h.window.to}; one process per size`);
console.log('sizes (readModelRecord, 30-day window; baseline = SELECT count(*), sum(outcome=hit) WHERE game_date BETWEEN, same DB):');
for (const r of runs) {
  console.log(
    scalingLine('readModelRecord', `${r.rows.toLocaleString('en-US')} rows`, r.windowMs, r.peakEnd, `  ${(r.windowMs / r.baselineMs).toFixed(2)}× count ${r.baselineMs.toFixed(1)} ms; team CLE ${r.teamMs.toFixed(1)} ms (${(r.teamMs / r.baselineMs).toFixed(2)}×); median of ${r.repeats}; ${r.windowRows.toLocaleString('en-US')} window rows; DB ${r.sizeMb.toFixed(0)} MB inserted in ${(r.insertMs / 1000).toFixed(1)} s; RSS after insert ${r.peakAfterInsert} MB, after one read ${r.peakAfterOneRead} MB`),
  );
}
const exp = fitExponent(runs.map((r) => [r.rows, r.windowMs]));
const countExp = fitExponent(runs.map((r) => [r.rows, r.baselineMs]));
const rssExp = fitExponent(runs.map((r) => [r.rows, r.peakAfterOneRead]));
console.log(`fit: readModelRecord time ∝ rows^${exp?.toFixed(2)} (SQL count ∝ rows^${countExp?.toFixed(2)}); peak RSS after one read ∝ rows^${rssExp?.toFixed(2)}`);
console.log(`at ${h.rows.toLocaleString('en-US')} rows (median of ${h.repeats}):`);
line('baseline: SELECT count(*), sum(outcome=hit) WHERE game_date BETWEEN', h.baselineMs);
line('readModelRecord, 30-day window', h.windowMs, `  ${ratio.toFixed(2)}× baseline`);
line('readModelRecord, 30-day window, team CLE', h.teamMs, `  ${teamRatio.toFixed(2)}× baseline`);
line('  diagnostic: same window rows via better-sqlite3, no drizzle', h.rawMs);
line('  diagnostic: modelAggregate + tierCalibration on those rows', h.domainMs);
console.log(`(sanity: ${h.entries.toLocaleString('en-US')} public entries in window, hit rate n=${h.hitRateN}; store read equals the domain on raw rows: ${h.agree})`);
const headline = `record aggregate over ${h.rows.toLocaleString('en-US')} rows is ${ratio.toFixed(1)}× a SQL count (${Math.round(h.windowMs)} ms vs ${h.baselineMs.toFixed(0)} ms); team scope ${teamRatio.toFixed(1)}×`;
console.log(headline);
benchResult('ledger-aggregate', headline, ratio, {
  rows: h.rows,
  synthetic: true,
  windowRows: h.windowRows,
  publicWindowRows: h.publicWindowRows,
  insertMs: Math.round(h.insertMs),
  dbMb: Math.round(h.sizeMb),
  baselineMs: round(h.baselineMs, 1),
  windowMs: round(h.windowMs, 1),
  teamMs: round(h.teamMs, 1),
  teamRatio: round(teamRatio, 2),
  rawSelectMs: round(h.rawMs, 1),
  domainMs: round(h.domainMs, 1),
  agree: h.agree,
  peakRssMbAfterInsert: h.peakAfterInsert,
  peakRssMbAfterOneRead: h.peakAfterOneRead,
  sizes: runs.map((r) => ({ rows: r.rows, windowMs: round(r.windowMs, 1), countMs: round(r.baselineMs, 1), teamMs: round(r.teamMs, 1), ratio: round(r.windowMs / r.baselineMs, 2), peakRssMbAfterOneRead: r.peakAfterOneRead, peakRssMbEnd: r.peakEnd })),
  exponent: round(exp, 2),
});
if (!h.agree) process.exitCode = 1;
