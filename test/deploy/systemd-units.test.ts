import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** The systemd units an operator installs (deploy/, docs/operations.md), checked as systemd reads them. */
const DIR = join('deploy', 'systemd');
const UNITS = readdirSync(DIR).filter((f) => f.endsWith('.service') || f.endsWith('.timer'));
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('deploy/systemd', () => {
  it.skipIf(!hasAnalyze)('systemd-analyze verify accepts every unit (unknown keys, bad calendars and missing binaries fail it)', () => {
    for (const unit of UNITS) {
      const out = spawnSync('systemd-analyze', ['verify', '--man=no', `./${unit}`], { cwd: DIR, encoding: 'utf8' });
      expect({ unit, status: out.status, stderr: out.stderr.trim() }).toEqual({ unit, status: 0, stderr: '' });
    }
  });

  it.skipIf(!hasAnalyze)('the timers fire at the documented UTC hours', () => {
    const next = (unit: string) => {
      const spec = /^OnCalendar=(.+)$/m.exec(readFileSync(join(DIR, unit), 'utf8'))![1]!;
      return execFileSync('systemd-analyze', ['calendar', spec], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
    };
    expect(next('propgrade-snapshot.timer')).toMatch(/Normalized form: \*-\*-\* 01,03,14,19,22:00:00 UTC/);
    expect(next('propgrade-settle.timer')).toMatch(/Normalized form: \*-\*-\* 10,16:00:00 UTC/);
  });

  it('every timer starts a service of its own name, and every ExecStart is a real propgrade command line', async () => {
    for (const timer of UNITS.filter((u) => u.endsWith('.timer'))) expect(UNITS).toContain(timer.replace(/\.timer$/, '.service'));
    for (const unit of UNITS.filter((u) => u.endsWith('.service'))) {
      const exec = /^ExecStart=\S+ \S+\/bin\/propgrade\.js (.+)$/m.exec(readFileSync(join(DIR, unit), 'utf8'));
      expect(exec, unit).not.toBeNull();
      // The unit's own arguments with --help: commander refuses an unknown command or option (exit 2).
      const run = await runCli([...exec![1]!.split(' '), '--help']);
      expect({ unit, code: run.code, stderr: run.stderr }).toEqual({ unit, code: 0, stderr: '' });
    }
  });
});
