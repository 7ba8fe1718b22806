/**
 * What a figure block's render gets (scripts/docs-figures.mjs): the real CLI (the built bin) on a
 * temp store, shared setups, and the docs' number formats.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function createContext(root) {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-figures-'));
  const bin = join(root, 'bin', 'propgrade.js');
  if (!existsSync(join(root, 'dist'))) throw new Error('dist/ is missing: run npm run build first (the figures come from the built CLI)');
  const shared = new Map();
  // The docs' clock and zone: no figure may depend on the machine's.
  const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', PROPGRADE_TZ: 'America/New_York', PROPGRADE_LOG_FORMAT: 'text' };

  const cli = (args, { db, env = {} } = {}) => {
    if (!db) throw new Error(`ctx.cli(${args.join(' ')}): pass { db } (ctx.store(name))`);
    return execFileSync(process.execPath, [bin, ...args], {
      cwd: root,
      env: { ...baseEnv, PROPGRADE_DB: db, ...env },
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  };

  return {
    root,
    dir,
    /** The CLI's stdout; a non-zero exit throws with its stderr. */
    cli,
    /** `--json <args>`, parsed. */
    json: (args, opts) => JSON.parse(cli(['--json', ...args], opts)),
    /** A fresh store path in the run's temp folder (nothing there yet). */
    store: (name) => join(dir, `${name}.sqlite`),
    /** A folder path in the run's temp folder (e.g. a season replay's). */
    path: (name) => join(dir, name),
    /** Runs `fn` once per key for the whole run (a setup several blocks read). */
    once: (key, fn) => {
      if (!shared.has(key)) shared.set(key, Promise.resolve().then(fn));
      return shared.get(key);
    },
    /** A node script of the repo (e.g. scripts/build-season-replay.mjs), its stdout. */
    script: (file, args = [], env = {}) =>
      execFileSync(process.execPath, [join(root, file), ...args], { cwd: root, env: { ...baseEnv, ...env }, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] }),
    fmt: {
      /** 4808 -> "4,808". */
      int: (n) => n.toLocaleString('en-US'),
      /** -1.04 -> "−1.0%" with a real minus, +0.66 -> "+0.7%". */
      pct: (n, digits = 1) => `${n < 0 ? '−' : '+'}${Math.abs(n).toFixed(digits)}%`,
      /** 0.479 -> "47.9%". */
      share: (n, digits = 1) => `${(n * 100).toFixed(digits)}%`,
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
