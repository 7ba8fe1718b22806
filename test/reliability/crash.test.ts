import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/domain/model/resample.js';
import { openStore } from '../../src/store/db.js';
import { checkStore } from '../../src/store/maintenance.js';
import { replayLoopFiles } from '../helpers/replay-store.js';

/**
 * Crash safety (issue 19, suite 3): kill -9 the real CLI (a separate process over dist/) at random
 * points of a first-use snapshot (history import + run), a warm snapshot and a settle; after
 * each kill the store passes its integrity checks, holds no duplicate ledger row by natural key
 * and no half-written snapshot, and the next run succeeds at once (the lock died with its holder).
 * `npm run test:reliability` runs KILLS per phase (default 20); `npm test` runs a fast subset.
 */

const KILLS = Number(process.env.RELIABILITY_KILLS ?? 2);
const BIN = 'bin/propgrade.js';

interface Outcome {
  killed: boolean;
  code: number | null;
}

/** Runs the CLI and SIGKILLs it after `afterMs` unless it finished first. */
function runAndKill(args: string[], afterMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    let killed = false;
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, afterMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ killed: killed && code === null, code });
    });
  });
}

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** What a reader could see after a crash: the store's own checks plus the product's invariants. */
function inspect(path: string): { integrityOk: boolean; duplicateLedgerKeys: number; halfWrittenSnapshots: number } {
  const check = checkStore(path);
  const store = openStore(path);
  try {
    const dup = store.sqlite
      .prepare(
        'select count(*) as n from (select 1 from ledger_entries group by coalesce(user_id, 0), event_id, player_key, stat_type, line, side having count(*) > 1)',
      )
      .get() as { n: number };
    const half = store.sqlite
      .prepare('select count(*) as n from snapshots s where s.row_count != (select count(*) from graded_rows g where g.snapshot_id = s.id)')
      .get() as { n: number };
    return { integrityOk: check.ok, duplicateLedgerKeys: dup.n, halfWrittenSnapshots: half.n };
  } finally {
    void store.close();
  }
}

describe(`crash safety: kill -9 at random points (${KILLS} per phase)`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const rnd = seededRandom(19);
  const figures = { kills: 0, finishedBeforeKill: 0, integrityFailures: 0, duplicateLedgerKeys: 0, halfWrittenSnapshots: 0, nextRunFailures: 0 };

  it('first-use snapshot (import + run), warm snapshot and settle survive kill -9, and the next run succeeds', async () => {
    const loop = await replayLoopFiles(dir);
    const phases: Array<{ name: string; prepare: (i: number) => string; args: (db: string) => string[]; maxMs: number }> = [
      {
        name: 'first-use snapshot',
        prepare: (i) => join(dir, `fresh-${i}.sqlite`),
        args: (db) => ['--db', db, 'snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T15:05:00Z', '--quiet'],
        maxMs: 2200,
      },
      {
        name: 'warm snapshot',
        prepare: (i) => {
          const p = join(dir, `warm-${i}.sqlite`);
          copyFileSync(loop.presettle, p);
          return p;
        },
        args: (db) => ['--db', db, 'snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T17:20:00Z', '--quiet'],
        maxMs: 900,
      },
      {
        name: 'settle',
        prepare: (i) => {
          const p = join(dir, `settle-${i}.sqlite`);
          copyFileSync(loop.presettle, p);
          return p;
        },
        args: (db) => ['--db', db, 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z'],
        maxMs: 450,
      },
    ];
    for (const phase of phases) {
      for (let i = 0; i < KILLS; i++) {
        const db = phase.prepare(i);
        const at = Math.round(60 + rnd() * phase.maxMs);
        const outcome = await runAndKill(phase.args(db), at);
        figures.kills += outcome.killed ? 1 : 0;
        figures.finishedBeforeKill += outcome.killed ? 0 : 1;
        // Killed before it created the file: nothing to inspect, and nothing a reader could see.
        if (existsSync(db)) {
          const seen = inspect(db);
          if (!seen.integrityOk) figures.integrityFailures += 1;
          figures.duplicateLedgerKeys += seen.duplicateLedgerKeys;
          figures.halfWrittenSnapshots += seen.halfWrittenSnapshots;
        }
        const next = await run(phase.args(db));
        if (next.code !== 0) figures.nextRunFailures += 1;
        expect(next.code, `${phase.name} #${i} after a kill at ${at} ms: ${next.stderr}`).toBe(0);
        const after = inspect(db);
        expect(after).toEqual({ integrityOk: true, duplicateLedgerKeys: 0, halfWrittenSnapshots: 0 });
      }
    }
    console.log(`crash safety: ${JSON.stringify(figures)}`);
    expect(figures.integrityFailures).toBe(0);
    expect(figures.duplicateLedgerKeys).toBe(0);
    expect(figures.halfWrittenSnapshots).toBe(0);
    expect(figures.nextRunFailures).toBe(0);
    expect(figures.kills).toBeGreaterThan(0);
  }, 600_000);
});
