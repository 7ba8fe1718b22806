/**
 * Keeps the benches under scripts/bench/ from rotting: each runs in smoke mode (BENCH_SMOKE=1,
 * tiny sizes) against the built dist/, must exit 0, print its ratio sentence and a parseable
 * BENCH_RESULT line whose own consistency checks held. Timings are never asserted: the figures
 * of a smoke run mean nothing, and speed targets live in the benches' ratios, not in tests.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runNode(args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, BENCH_SMOKE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function benchResult(stdout: string): Record<string, unknown> {
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  expect(line, 'a BENCH_RESULT line').toBeDefined();
  return JSON.parse(line!.slice('BENCH_RESULT '.length)) as Record<string, unknown>;
}

/** All started at once in beforeAll and awaited per test, so the file takes as long as the slowest. */
const runs = new Map<string, Promise<Run>>();
const bench = (name: string) => runs.get(name)!;

describe('benches in smoke mode', () => {
  beforeAll(() => {
    if (!existsSync(resolve(ROOT, 'dist/jobs/snapshot-run.js'))) throw new Error('dist/ is missing: run `npm run build` before this test');
    for (const name of ['grading', 'snapshot', 'settle', 'import', 'snapshot-scaling', 'startup']) runs.set(name, runNode([`scripts/bench/${name}.mjs`]));
    // ledger-aggregate runs through run-all, which echoes its output: one process checks both.
    runs.set('run-all', runNode(['scripts/bench/run-all.js', '--smoke', '--json', 'ledger-aggregate']));
  });

  it('grading: re-grades the real slate rows identically and prints the ratio to de-vig', async () => {
    const r = await bench('grading');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^grading is \d+(\.\d)?× the de-vig baseline \([\d,]+ rows\/s\)$/m);
    const res = benchResult(r.stdout);
    expect(res).toMatchObject({ bench: 'grading', smoke: true, mismatches: 0 });
    expect(res['rows']).toBeGreaterThan(0);
    expect(res['graded']).toBeGreaterThan(0);
    expect(res['ratio']).toBeGreaterThan(0);
  });

  it('snapshot: fresh and warm snapshot processes against the floor process', async () => {
    const r = await bench('snapshot');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^snapshot process is \d+(\.\d)?× the floor fresh \(\d+ ms\), \d+(\.\d)?× warm \(\d+ ms\); floor \d+ ms$/m);
    const res = benchResult(r.stdout);
    expect(res).toMatchObject({ bench: 'snapshot', smoke: true, events: 11, warmNewLocks: 0 });
    expect(res['graded']).toBeGreaterThan(0);
    expect(res['rowsWritten']).toBeGreaterThan(0);
    // The warm run re-reads every grade from its lock: nothing new is locked or written to the ledger.
    expect(r.stdout).toMatch(/^warm run \(0 new locks, ledger \+0,/m);
  });

  it('import: the first-use history import against a bare prepared-insert transaction of the same rows', async () => {
    const r = await bench('import');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^history import of 23,822 rows is \d+(\.\d)?× a bare prepared-insert transaction \(\d+ ms vs \d+ ms\)$/m);
    expect(benchResult(r.stdout)).toMatchObject({ bench: 'import', smoke: true, rows: 23_822 });
  });

  it('startup: propgrade --help and one command help against node -e 0', async () => {
    const r = await bench('startup');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^propgrade --help is \d+(\.\d)?× node -e 0 \(\d+ ms vs \d+ ms\); snapshot --help \d+(\.\d)?×$/m);
    const res = benchResult(r.stdout);
    expect(res).toMatchObject({ bench: 'startup', smoke: true, rounds: 3 });
    expect(res['helpMs']).toBeGreaterThan(0);
    expect(res['floorMs']).toBeGreaterThan(0);
  });

  it('snapshot-scaling: one process per slate size, replicated events said so, an exponent fitted', async () => {
    const r = await bench('snapshot-scaling');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('REPLICATED EVENTS (cost only)');
    expect(r.stdout).toMatch(/^snapshot time grows as rows\^-?\d+\.\d+ cold, rows\^-?\d+\.\d+ warm/m);
    const res = benchResult(r.stdout);
    expect(res).toMatchObject({ bench: 'snapshot-scaling', smoke: true });
    expect((res['sizes'] as unknown[]).length).toBe(2);
  });

  it('settle: settles every synthetic copy consistently, and the re-run settles nothing', async () => {
    const r = await bench('settle');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^settling [\d,]+ entries is \d+(\.\d)?× a bulk UPDATE \(\d+ ms vs \d+ ms\); idempotent re-run \d+ ms$/m);
    expect(r.stdout).toMatch(/^fit: runSettle time ∝ entries\^-?\d+\.\d+/m);
    expect(r.stdout).toContain('SYNTHETIC pending public entries');
    const res = benchResult(r.stdout);
    expect(res).toMatchObject({ bench: 'settle', smoke: true, synthetic: true, entries: 2000, disagreeing: 0, secondRunSettled: 0 });
    expect(res['settled']).toBeGreaterThan(0);
  });

  it('ledger-aggregate (through run-all): the store read agrees with the domain; run-all summarises it', async () => {
    const r = await bench('run-all');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}record aggregate over [\d,]+ rows is \d+(\.\d)?× a SQL count \(\d+ ms vs \d+ ms\); team scope \d+(\.\d)?×$/m);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Array<Record<string, unknown>>;
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatchObject({ bench: 'ledger-aggregate', exitCode: 0 });
    expect(summary[0]!['headline']).toMatch(/× a SQL count/);
    // Measured by run-all's exit hook inside the child, not reported by the bench itself.
    expect(summary[0]!['peakRssMb']).toBeGreaterThan(0);
    expect(summary[0]!['figures']).toMatchObject({ bench: 'ledger-aggregate', smoke: true, synthetic: true, rows: 20000, agree: true });
    expect((summary[0]!['figures'] as { sizes: unknown[] }).sizes).toHaveLength(2);
  });
});
