#!/usr/bin/env node
/**
 * Season simulation bench (issue 26): builds a season folder (unless --replay is given), runs
 * `propgrade simulate <sport>` on a fresh store in a child process, and prints seconds per simulated
 * snapshot, the child's peak RSS and the store's size. Short by default (a week of WNBA); pass
 * --sport/--from/--to for a whole season.
 *
 *   npm run build && node scripts/bench/simulate.mjs [--sport wnba] [--from 2024-06-01] [--to 2024-06-09] [--replay <dir>]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const sport = arg('--sport', 'wnba');
const from = arg('--from', sport === 'wnba' ? '2024-06-01' : undefined);
const to = arg('--to', sport === 'wnba' ? '2024-06-09' : undefined);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'propgrade-bench-simulate-'));
try {
  const replay = arg('--replay', path.join(tmp, 'season'));
  if (!process.argv.includes('--replay')) {
    const args = [path.join(ROOT, 'scripts/build-season-replay.mjs'), sport, replay, ...(from ? ['--from', from] : []), ...(to ? ['--to', to] : [])];
    execFileSync(process.execPath, args, { stdio: 'pipe' });
  }
  const db = path.join(tmp, 'sim.sqlite');
  const cliArgs = [path.join(ROOT, 'bin/propgrade.js'), '--db', db, '--replay', replay, '--json', 'simulate', sport, ...(from ? ['--from', from] : []), ...(to ? ['--to', to] : [])];
  // /usr/bin/time -v reports the child's peak RSS where it exists; otherwise RSS is not measured (said so).
  const time = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const started = process.hrtime.bigint();
  const run = time ? spawnSync(time, ['-v', process.execPath, ...cliArgs], { encoding: 'utf8', maxBuffer: 64 << 20 }) : spawnSync(process.execPath, cliArgs, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`simulate exited ${run.status}: ${run.stderr.slice(-2000)}`);
  const report = JSON.parse(run.stdout);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr ?? '');
  const size = ['', '-wal'].reduce((s, ext) => s + (fs.existsSync(db + ext) ? fs.statSync(db + ext).size : 0), 0);
  const line = {
    sport,
    from: from ?? 'folder start',
    to: to ?? 'folder end',
    snapshots: report.snapshots,
    settles: report.settles,
    seconds_per_snapshot: Number(report.seconds_per_snapshot?.toFixed(4)),
    settle_seconds: Number(report.settle_seconds.toFixed(2)),
    simulate_wall_seconds: Number(report.wall_seconds.toFixed(2)),
    process_wall_seconds: Number(wall.toFixed(2)),
    peak_rss_mb: rss ? Number((Number(rss[1]) / 1024).toFixed(1)) : null,
    store_mb: Number((size / 1048576).toFixed(1)),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
