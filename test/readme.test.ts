import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from './helpers/cli.js';

/**
 * The README's promise, run as a newcomer would: every `propgrade` command in its ```sh blocks,
 * exactly as written (in order, on a fresh store, with its `export`s), then every read command
 * again without --now. Commands that need a key, a placeholder or a long-running server are the
 * ones the README marks as such; they are listed here so a new one is a conscious choice.
 */

interface ReadmeCommand {
  line: string;
  argv: string[];
}

/** Shell words of one command line: quotes group, a `#` after whitespace starts a comment. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  let any = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (any) words.push(cur);
      cur = '';
      any = false;
    } else if (ch === '#' && !any) {
      break;
    } else {
      cur += ch;
      any = true;
    }
  }
  if (any) words.push(cur);
  return words;
}

const README = readFileSync('README.md', 'utf8');
const SH_BLOCKS = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);

/** Not runnable here by design: live keys, placeholders, the server (its own tests cover it). */
const NEEDS_OUTSIDE = (words: string[], line: string) =>
  line.includes('ODDS_API_KEY=') || /<[^>]+>/.test(line) || line.includes('...') || words.includes('serve') || /\$[A-Z]/.test(line);

function readmeCommands(): { commands: ReadmeCommand[]; exports: Array<[string, string]> } {
  const commands: ReadmeCommand[] = [];
  const exports: Array<[string, string]> = [];
  for (const block of SH_BLOCKS) {
    for (const raw of block.split('\n')) {
      const segment = raw.split('&&').at(-1)!.trim();
      const words = shellWords(segment);
      if (words[0] === 'export' && words[1]?.includes('=')) {
        const [k, v] = words[1].split('=') as [string, string];
        exports.push([k, v]);
        commands.push({ line: segment, argv: ['export', k, v] });
        continue;
      }
      const at = words[0] === 'npx' ? 1 : 0;
      if (words[at] !== 'propgrade' || NEEDS_OUTSIDE(words, segment)) continue;
      commands.push({ line: segment, argv: words.slice(at + 1) });
    }
  }
  return { commands, exports };
}

const READS = new Set(['scan', 'parlay', 'record', 'ledger', 'slate', 'ticker', 'parse-slip']);

describe('README commands, as a newcomer runs them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-readme-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const { commands } = readmeCommands();
  // The default store is propgrade's own var/: point it (and any exported one) at a temp dir.
  const env: NodeJS.ProcessEnv = { PROPGRADE_DB: join(dir, 'quickstart.sqlite'), NO_COLOR: '1' };
  const runs: Array<{ cmd: ReadmeCommand; run: CliRun; env: NodeJS.ProcessEnv }> = [];

  it('the README has a quick start and a loop to run', () => {
    expect(commands.filter((c) => c.argv[0] !== 'export').length).toBeGreaterThanOrEqual(8);
    expect(commands[0]?.argv.slice(0, 2)).toEqual(['snapshot', 'all']);
  });

  it('every command exits 0 with output on stdout', async () => {
    for (const cmd of commands) {
      if (cmd.argv[0] === 'export') {
        const [, k, v] = cmd.argv as [string, string, string];
        env[k] = k === 'PROPGRADE_DB' ? join(dir, v.replace(/[\\/]/g, '_')) : v;
        continue;
      }
      const run = await runCli(cmd.argv, { ...env });
      runs.push({ cmd, run, env: { ...env } });
      expect(run.code, `${cmd.line}\n${run.stderr}`).toBe(0);
      expect(run.stdout.trim().length, cmd.line).toBeGreaterThan(0);
      expect(run.stderr, cmd.line).not.toMatch(/\n\s+at .*\(.*\.ts:\d+/); // no stack trace
    }
  }, 120_000);

  it('the answers are truthful: a graded slate, settled entries, a record with figures', () => {
    const first = runs[0]!.run;
    expect(first.stdout).toMatch(/NBA slate 2025-11-05/);
    expect(first.stdout).toMatch(/│ nba +│ ok +│ 11 /);
    const settle = runs.find((r) => r.cmd.argv[0] === 'settle');
    if (settle) expect(settle.run.stdout).toMatch(/│ nba +│ ok +│ 2025-11-05 +│ [1-9]\d* +│/);
    const record = runs.find((r) => r.cmd.argv[0] === 'record');
    if (record) expect(record.run.stdout).toMatch(/\d+\.\d%/);
    for (const r of runs.filter((x) => x.cmd.argv[0] === 'scan')) expect(r.run.stdout, r.cmd.line).not.toMatch(/Refused/);
  });

  it('read commands without --now answer as of the replayed snapshot, and say so', async () => {
    const reads = runs.filter((r) => READS.has(r.cmd.argv[0] as string));
    expect(reads.length).toBeGreaterThanOrEqual(3);
    for (const r of reads) {
      const at = r.cmd.argv.indexOf('--now');
      const argv = at >= 0 ? [...r.cmd.argv.slice(0, at), ...r.cmd.argv.slice(at + 2)] : r.cmd.argv;
      const again = await runCli(argv, r.env);
      expect(again.code, `${argv.join(' ')}\n${again.stderr}`).toBe(0);
      expect(again.stdout.trim().length).toBeGreaterThan(0);
      expect(again.stderr).toMatch(/clock \((nba|each sport its own|desk)\): (nba )?2025-11-05T\d\d:\d\d:\d\d.*replayed from recorded data/);
      expect(again.stdout, argv.join(' ')).not.toMatch(/only 0 played game|Ticker hidden: 0 real items/);
    }
  }, 120_000);
});
