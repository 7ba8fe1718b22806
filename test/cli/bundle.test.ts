/**
 * bin/propgrade.js runs the esbuild bundle (dist/bundle/, scripts/bundle.mjs), while the other
 * tests run src/. This holds the two together: every command's help, a replayed snapshot and the
 * reads after it print the same bytes from either, and the launcher itself runs as a process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/_registry.js';
import type { CliIO } from '../../src/cli/_io.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BUNDLE = join(ROOT, 'dist/bundle/main.js');

type Main = (argv: string[], io: CliIO) => Promise<number>;
let bundledMain: Main;
const dir = mkdtempSync(join(tmpdir(), 'pg-cli-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runBundled(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, env };
  const code = await bundledMain(argv, io);
  return { code, stdout, stderr };
}

describe('the bundled CLI', () => {
  beforeAll(async () => {
    if (!existsSync(BUNDLE)) throw new Error('dist/bundle/ is missing: run `npm run build` before this test');
    bundledMain = ((await import(pathToFileURL(BUNDLE).href)) as { main: Main }).main;
  });

  it('prints the same help as src/ for the program and every command', async () => {
    const names = COMMANDS.flatMap((m) => m.commands.map(([name]) => name));
    expect(names.length).toBeGreaterThan(20);
    for (const argv of [['--help'], ...names.map((n) => [n, '--help'])]) {
      const [fromSrc, fromBundle] = [await runCli(argv), await runBundled(argv)];
      expect(fromBundle, argv.join(' ')).toEqual(fromSrc);
      expect(fromBundle.code).toBe(0);
      expect(fromBundle.stdout).toContain('Usage: propgrade');
    }
  });

  it('runs a replayed snapshot and the reads after it with the same output as src/', async () => {
    const runs: Array<[string, string[]]> = [
      ['snapshot', ['snapshot', 'nba', '--replay', 'data/replay', '--json']],
      ['slate', ['slate', 'nba', '--json']],
      ['record', ['record', '--json']],
      ['db status', ['db', 'status']],
    ];
    for (const [label, argv] of runs) {
      const fromSrc = await runCli(['--db', join(dir, 'src.sqlite'), ...argv]);
      const fromBundle = await runBundled(['--db', join(dir, 'bundle.sqlite'), ...argv]);
      const sameStore = (r: CliRun) => ({ ...r, stdout: r.stdout.replaceAll('bundle.sqlite', 'src.sqlite') });
      expect(sameStore(fromBundle), label).toEqual(fromSrc);
      expect(fromBundle.code, `${label}: ${fromBundle.stderr}`).toBe(0);
    }
  }, 60_000);

  it('is what bin/propgrade.js runs', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/propgrade.js'), '--version'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
