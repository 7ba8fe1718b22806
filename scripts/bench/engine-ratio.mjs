// Benchmark (issue 39): what PostgreSQL costs against SQLite for the runs, measured in one run.
// Needs PROPGRADE_BENCH_PG_URL, an admin URL of a PostgreSQL server the bench may create databases
// on (it creates propgrade_bench_<pid>_er_* and drops each after use, failure or not); unset, it
// says so and exits 0 (run-all runs every bench).
//
// Each repetition, on a fresh store per engine (engine order alternating between repetitions), two
// whole CLI processes, each timed from spawn to exit:
//   snapshot: `propgrade --db <new store> snapshot nba --replay data/replay --quiet --json`
//             (migrations, the first-use import of the replay's history, the run at its recorded clock);
//   settle:   `propgrade --db <that store> settle nba --replay data/replay --now 2025-11-06T12:00:00Z --json`.
// The figure is pg/sqlite: medians of the wall times, and the median of each repetition's own
// ratio. Each process also reports (scripts/bench/_count-pg.mjs, preloaded) its CPU time, the
// statements it sent to PostgreSQL, each a round trip, and the CPU of the server processes that
// served it ("server": the bench's PostgreSQL runs on this machine; `-` where /proc does not show them). The two engines' summaries must agree
// (rows, grades, locks, ledger, settlements), else the bench exits 1.
//
// `--base <root>` (repeatable) runs the same against another build too (a checkout with its own
// dist/, e.g. the commit before a change, made with `git archive <rev> | tar -x -C <root>`,
// node_modules linked and `npm run build` there), interleaved with this one, and prints this/<base>
// per engine: a before/after measured on the same loaded machine in the same minutes.
//
// `--calm <load>` makes each repetition wait (up to 2 minutes) for the 1-minute load average to
// fall below <load> first, and the bench prints the load each repetition began at.
//
//   PROPGRADE_BENCH_PG_URL=postgres://postgres@127.0.0.1:55432/postgres node scripts/bench/engine-ratio.mjs [reps] [--base <root>]... [--calm <load>]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import pg from 'pg';
import { BENCH_DIR, benchResult, median, REPLAY_DIR, ROOT, round, SMOKE } from './_shared.mjs';

const args = process.argv.slice(2);
/** Every `--base <root>`: other builds run beside this one, each named by its folder. */
const BASES = args.flatMap((a, i) => (a === '--base' && args[i + 1] ? [resolve(args[i + 1])] : []));
const REPS = Number(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--base' && args[i - 1] !== '--calm') ?? (SMOKE ? 1 : 5));
/** `--calm <load>`: each repetition first waits (up to 2 minutes) for the 1-minute load average to fall below it: on a shared machine, fewer samples taken under someone else's build. */
const CALM = args.includes('--calm') ? Number(args[args.indexOf('--calm') + 1]) : null;
const ADMIN_URL = process.env.PROPGRADE_BENCH_PG_URL;
const COUNTER = join(BENCH_DIR, '_count-pg.mjs');
const STEPS = [
  ['snapshot', ['snapshot', 'nba', '--replay', REPLAY_DIR, '--quiet', '--json']],
  ['settle', ['settle', 'nba', '--replay', REPLAY_DIR, '--now', '2025-11-06T12:00:00Z', '--json']],
];
const BUILDS = [['this', ROOT], ...BASES.map((root) => [basename(root), root])];
const ENGINES = ['sqlite', 'pg'];

if (!ADMIN_URL) {
  console.log('engine-ratio: skipped, PROPGRADE_BENCH_PG_URL is not set (an admin URL of a PostgreSQL server the bench may create databases on)');
  benchResult('engine-ratio', 'skipped: no PROPGRADE_BENCH_PG_URL', null, { skipped: true });
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'propgrade-bench-engines-'));
const databases = new Set();
const admin = async (sql) => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
};
let counter = 0;
async function freshStore(engine) {
  if (engine === 'sqlite') return { db: join(dir, `store-${counter++}.sqlite`), name: null };
  const name = `propgrade_bench_${process.pid}_er_${counter++}`;
  databases.add(name);
  await admin(`create database "${name}"`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return { db: u.toString(), name };
}
async function dropStore({ db, name }) {
  if (name === null) return rmSync(db, { force: true });
  await admin(`drop database if exists "${name}" with (force)`);
  databases.delete(name);
}

/** One CLI process of a build to its end: wall ms, its CPU ms and PostgreSQL statements, its JSON answer. */
function cli(root, db, argv) {
  return new Promise((ok, fail) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', COUNTER, join(root, 'bin/propgrade.js'), '--db', db, ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const m = /\nBENCH_ENGINE_CHILD (\{.*\})\n/.exec(stderr);
      if (code !== 0 || !m) return fail(new Error(`${argv.slice(0, 2).join(' ')} on ${db.startsWith('postgres') ? 'postgres' : 'sqlite'} (${root}) exited ${code}: ${stderr.slice(-800)}`));
      ok({ ms, ...JSON.parse(m[1]), answer: JSON.parse(stdout) });
    });
  });
}

/** What must not differ between engines or builds: the run's counts, not its ids or times. */
function outcome(step, answer) {
  const r = answer.runs.find((x) => x.sport === 'nba');
  if (step === 'snapshot') return [r.status, r.rows, r.graded, r.refused, r.dropped, r.new_locks, r.ledger_inserted, r.closings_captured];
  return [r.status, r.settled, r.clv, r.still_pending, r.player_games_written, r.final_games];
}

const fmt = (x, d = 0) => (x === null || x === undefined ? '-' : x.toFixed(d));
const samples = {}; // samples[build][step][engine] = [{ ms, cpuMs, statements }]
let expected = null;
let mismatches = 0;
try {
  console.log(`engine-ratio: fresh \`snapshot nba --replay data/replay\`, then \`settle nba --now 2025-11-06T12:00:00Z\`, per engine on a fresh store; ${REPS} repetitions${BASES.length ? `, this build and ${BASES.join(', ')} interleaved` : ''}${SMOKE ? ' (smoke: figures meaningless)' : ''}`);
  const loads = [];
  for (let rep = 0; rep < REPS; rep++) {
    for (let waited = 0; CALM !== null && loadavg()[0] >= CALM && waited < 120; waited += 5) await new Promise((r) => setTimeout(r, 5000));
    loads.push(loadavg()[0]);
    const builds = rep % 2 === 0 ? BUILDS : [...BUILDS].reverse();
    for (const [build, root] of builds) {
      for (const engine of (rep + BUILDS.findIndex(([b]) => b === build)) % 2 === 0 ? ENGINES : [...ENGINES].reverse()) {
        const store = await freshStore(engine);
        try {
          for (const [step, argv] of STEPS) {
            const r = await cli(root, store.db, argv);
            ((samples[build] ??= {})[step] ??= { sqlite: [], pg: [] })[engine].push(r);
            const got = JSON.stringify(outcome(step, r.answer));
            (expected ??= {})[step] ??= got;
            if (got !== expected[step]) {
              mismatches += 1;
              console.error(`MISMATCH ${build} ${engine} ${step}: ${got} (first run: ${expected[step]})`);
            }
          }
        } finally {
          await dropStore(store);
        }
      }
    }
  }

  const table = {};
  console.log(`  ${'build'.padEnd(5)} ${'run'.padEnd(9)} ${'sqlite ms'.padStart(10)} ${'pg ms'.padStart(8)} ${'pg/sqlite'.padStart(10)} ${'per-rep'.padStart(8)} ${'sqlite cpu'.padStart(11)} ${'pg cpu'.padStart(8)} ${'server'.padStart(7)} ${'pg stmts'.padStart(9)}   samples sqlite | pg`);
  for (const [build] of BUILDS) {
    table[build] = {};
    for (const [step] of STEPS) {
      const s = samples[build][step];
      const ms = (e) => median(s[e].map((x) => x.ms));
      const perRep = median(s.pg.map((x, i) => x.ms / s.sqlite[i].ms));
      const row = {
        sqliteMs: ms('sqlite'),
        pgMs: ms('pg'),
        ratio: ms('pg') / ms('sqlite'),
        perRepRatio: perRep,
        sqliteCpuMs: median(s.sqlite.map((x) => x.cpuMs)),
        pgCpuMs: median(s.pg.map((x) => x.cpuMs)),
        pgServerCpuMs: s.pg.some((x) => x.serverCpuMs === null) ? null : median(s.pg.map((x) => x.serverCpuMs)),
        pgStatements: median(s.pg.map((x) => x.statements)),
      };
      table[build][step] = row;
      console.log(
        `  ${build.padEnd(5)} ${step.padEnd(9)} ${fmt(row.sqliteMs).padStart(10)} ${fmt(row.pgMs).padStart(8)} ${fmt(row.ratio, 2).padStart(10)} ${fmt(row.perRepRatio, 2).padStart(8)} ${fmt(row.sqliteCpuMs).padStart(11)} ${fmt(row.pgCpuMs).padStart(8)} ${fmt(row.pgServerCpuMs).padStart(7)} ${fmt(row.pgStatements).padStart(9)}   ` +
          `${s.sqlite.map((x) => x.ms.toFixed(0)).join(', ')} | ${s.pg.map((x) => x.ms.toFixed(0)).join(', ')}`,
      );
    }
  }
  const vsBase = {};
  for (const [base] of BUILDS.slice(1)) {
    console.log(`  this/${base} (medians of the paired repetitions: wall, CPU)`);
    vsBase[base] = {};
    for (const [step] of STEPS) {
      vsBase[base][step] = {};
      for (const engine of ENGINES) {
        const t = samples.this[step][engine];
        const b = samples[base][step][engine];
        const wall = median(t.map((x, i) => x.ms / b[i].ms));
        const cpu = median(t.map((x, i) => x.cpuMs / b[i].cpuMs));
        vsBase[base][step][engine] = { wall: round(wall, 3), cpu: round(cpu, 3) };
        console.log(`    ${step.padEnd(9)} ${engine.padEnd(6)} wall ${fmt(wall, 3)}  cpu ${fmt(cpu, 3)}`);
      }
    }
  }
  const t = table.this;
  const others = BUILDS.slice(1).map(([b]) => `; ${b} ${fmt(table[b].snapshot.ratio, 2)} (${fmt(table[b].snapshot.pgStatements)}), ${fmt(table[b].settle.ratio, 2)}`).join('');
  const headline = `pg/sqlite: fresh snapshot nba ${fmt(t.snapshot.ratio, 2)} (${fmt(t.snapshot.pgStatements)} statements), settle ${fmt(t.settle.ratio, 2)}${others}; ${mismatches} mismatches`;
  console.log(`  1-minute load average as each repetition began: ${loads.map((l) => l.toFixed(1)).join(', ')}${CALM !== null ? ` (each waited up to 2 minutes for one below ${CALM})` : ''}`);
  console.log(headline);
  const out = Object.fromEntries(Object.entries(table).map(([b, steps]) => [b, Object.fromEntries(Object.entries(steps).map(([k, r]) => [k, Object.fromEntries(Object.entries(r).map(([f, v]) => [f, round(v, f.toLowerCase().includes('ratio') ? 2 : 0)]))]))]));
  benchResult('engine-ratio', headline, t.snapshot.ratio, { reps: REPS, bases: BASES, loads: loads.map((l) => round(l, 1)), runs: out, vsBase, mismatches });
  if (mismatches > 0) process.exitCode = 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const name of [...databases]) await admin(`drop database if exists "${name}" with (force)`).catch((e) => console.error(`could not drop database ${name}: ${e.message}`));
  rmSync(dir, { recursive: true, force: true });
}
