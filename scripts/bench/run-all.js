#!/usr/bin/env node
// Runs every bench in scripts/bench/ (each *.mjs not starting with "_"), one after another, each in
// its own Node process so its peak RSS is its own, and prints a summary.
//
//   npm run build && npm run bench                 # everything (several minutes: see README.md)
//   npm run bench -- grading snapshot              # only benches whose file name contains a word
//   npm run bench -- --smoke                       # tiny sizes (BENCH_SMOKE=1): checks they run, figures meaningless
//   npm run bench -- --json                        # summary as JSON on the last line
//
// A bench prints its own figures and ratio; run-all adds wall time and peak RSS (read in the child
// by a preloaded exit hook) and collects the `BENCH_RESULT {json}` line where the bench prints one.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const json = args.includes('--json');
const filters = args.filter((a) => !a.startsWith('--'));

const benches = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && !f.startsWith('_'))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();
if (benches.length === 0) {
  console.error(`no bench matches ${filters.join(', ')} in ${here}`);
  process.exit(2);
}
if (!existsSync(join(root, 'dist'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(2);
}

// Printed by the child itself at exit: its own peak resident set, in KiB.
const PEAK_HOOK = `data:text/javascript,${encodeURIComponent("process.on('exit', () => process.stdout.write('BENCH_PEAK_RSS ' + process.resourceUsage().maxRSS + '\\n'));")}`;

function runBench(file) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', PEAK_HOOK, join(here, file)], {
      cwd: root,
      env: { ...process.env, ...(smoke ? { BENCH_SMOKE: '1' } : {}) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let result = null;
    let peakKiB = null;
    let pending = '';
    const onLine = (line) => {
      if (line.startsWith('BENCH_PEAK_RSS ')) {
        peakKiB = Number(line.slice('BENCH_PEAK_RSS '.length));
        return;
      }
      if (line.startsWith('BENCH_RESULT ')) {
        try {
          result = JSON.parse(line.slice('BENCH_RESULT '.length));
        } catch {
          result = null;
        }
      }
      console.log(`  ${line}`);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    child.on('close', (code, signal) => {
      if (pending) onLine(pending);
      done({
        bench: file.replace(/\.mjs$/, ''),
        exitCode: code,
        signal,
        wallS: Math.round((performance.now() - started) / 100) / 10,
        peakRssMb: peakKiB === null ? null : Math.round(peakKiB / 1024),
        headline: result?.headline ?? null,
        ratio: result?.ratio ?? null,
        result,
      });
    });
  });
}

console.log(`propgrade benches${smoke ? ' (SMOKE MODE: tiny sizes, figures meaningless)' : ''}: ${benches.join(', ')}`);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} cores, load average ${load()} (other processes skew the figures)`);
const summary = [];
for (const file of benches) {
  console.log(`\n▶ ${file}`);
  summary.push(await runBench(file));
}

console.log(`\nsummary (load average now ${load()})`);
const width = Math.max(...summary.map((s) => s.bench.length));
for (const s of summary) {
  const status = s.exitCode === 0 ? 'ok  ' : `FAIL(${s.exitCode ?? s.signal})`;
  const rss = s.peakRssMb === null ? '   ? MB' : `${String(s.peakRssMb).padStart(4)} MB`;
  console.log(`${s.bench.padEnd(width)}  ${status}  ${String(s.wallS).padStart(6)} s  peak ${rss}  ${s.headline ?? '(prints no BENCH_RESULT line; see its output above)'}`);
}
if (json) console.log(JSON.stringify(summary.map(({ result, ...rest }) => ({ ...rest, figures: result }))));
process.exitCode = summary.every((s) => s.exitCode === 0) ? 0 : 1;
