import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

/**
 * Every command the CLI prints as a next step runs as printed (issue 41 item 9): the README loop's
 * commands run in order on one store, every suggested command they print ("Next:" lines, "to grade"
 * commands, "next:" and "Run `...`" hints) is collected, and each one runs on the same store and
 * exits 0; a suggested scan or parlay grades (no refused leg). The loop's extra reads a new user
 * tries (two sports the recording holds but the store has not snapshotted, the parse-slip help
 * example) are in it too.
 */

/** Splits a printed command the way a POSIX shell does (quotes, and a trailing `# comment`). */
function shellWords(command: string): string[] {
  return execFileSync('sh', ['-c', `args() { printf '%s\\0' "$@"; }; args ${command}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
}

/** The propgrade commands a run's output suggests, as printed (without `npx`). */
export function suggestedCommands(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const indented = /^\s+(?:npx )?(propgrade .+)$/.exec(line);
    if (indented) out.push(indented[1]!);
    for (const m of line.matchAll(/`(propgrade [^`]+)`/g)) out.push(m[1]!);
    const next = /^next: (propgrade .+)$/.exec(line);
    if (next) out.push(next[1]!);
  }
  return out;
}

/** A legend naming a command by its argument (`propgrade fight <id>`): a form, not a command to run. */
const isTemplate = (command: string) => /<[a-z]+>/.test(command);

describe('the README loop: every printed next step runs as printed', () => {
  let dir: string;
  let db: string;
  const runs: Array<{ argv: string[]; run: CliRun }> = [];
  const cli = (argv: string[], env: NodeJS.ProcessEnv = {}) => runCli(['--db', db, ...argv], { NO_COLOR: '1', ...env });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-loop-next-'));
    db = join(dir, 'loop.sqlite');
    await seededStoreFile(db);
    const slip = join(dir, 'slip.txt');
    // The parse-slip help example's text (`printf '...' | propgrade parse-slip - --text`), from a file.
    writeFileSync(slip, 'Jalen Brunson over 27.5 points\nJosh Hart o6.5 reb\n');
    const loop: Array<[string[], NodeJS.ProcessEnv?]> = [
      [['snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T15:05:00Z']],
      [['snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T17:05:00Z']],
      [['slate', 'nba']],
      [['scan', '--player', 'Jalen Brunson', '--stat', 'points', '--line', '27.5', '--direction', 'over']],
      [['parlay', '--leg', 'Jalen Brunson|points|27.5|over', '--leg', 'Karl-Anthony Towns|rebounds|11.5|over']],
      [['parse-slip', 'test/fixtures/slips/text/fanduel_straight_points.txt', '--text']],
      [['parse-slip', slip, '--text']],
      [['ticker']],
      [['settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z']],
      [['record']],
      [['ledger', '--date', '2025-11-05']],
      [['live', 'nba', '--date', '2025-11-05', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z']],
      [['news', 'mlb', '--replay', 'data/replay']],
      [['combat', '2025-09-27', '--replay', 'data/replay']],
      [['fight', '401801745', '--replay', 'data/replay']],
      [['desk']],
      [['newsletter', 'build', '--out', join(dir, 'report')]],
      [['newsletter', 'send']],
      [['drafts']],
      [['futures', 'mlb', '--replay', 'data/replay'], { FUTURES_ENABLED: '1' }],
      [['stats', 'player', 'Jalen Brunson', '--replay', 'data/replay']],
      [['showcase']],
      // What a new user tries next: sports the recording holds (the EPL matchday, the WNBA day) but this store has not snapshotted.
      [['slate', 'soccer']],
      [['slate', 'wnba']],
    ];
    for (const [argv, env] of loop) runs.push({ argv, run: await cli(argv, env) });
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the loop itself', () => {
    for (const { argv, run } of runs) expect(run.code, `${argv.join(' ')}\n${run.stderr}`).toBe(0);
  });

  it('prints only next steps that run as printed on the same store, and each suggested scan or parlay grades', async () => {
    const printed = runs.flatMap(({ run }) => suggestedCommands(`${run.stdout}\n${run.stderr}`));
    const commands = [...new Set(printed.filter((c) => !isTemplate(c)))];
    // The loop prints a slate, a scan and a settle per snapshot, the graded slip's parlay, the newsletter's send and the WNBA snapshot.
    expect(commands.some((c) => c.includes(' scan --player '))).toBe(true);
    expect(commands.some((c) => c.includes(' parlay --leg '))).toBe(true);
    expect(commands).toContain('propgrade snapshot wnba --replay data/replay');
    expect(commands).toContain('propgrade newsletter send --date 2025-11-05');
    // The recording holds the EPL matchday (2025-08-30) too: its snapshot is suggested as the WNBA's is.
    expect(commands).toContain('propgrade snapshot soccer --replay data/replay');
    // Nothing is suggested for the refused FanDuel leg.
    expect(commands.filter((c) => c.includes('Ausar Thompson'))).toEqual([]);
    // The only form printed with a placeholder is the fight card's legend.
    expect([...new Set(printed.filter(isTemplate))]).toEqual(['propgrade fight <id>']);
    for (const command of commands) {
      const argv = shellWords(command).slice(1);
      const run = await cli(argv, { FUTURES_ENABLED: '1' });
      expect(run.code, `${command}\n${run.stderr}`).toBe(0);
      // The command word after any global options (--db, --replay, --now and their values).
      const verb = argv.find((w, i) => !w.startsWith('--') && !['--db', '--replay', '--now'].includes(argv[i - 1] ?? ''));
      if (verb === 'scan' || verb === 'parlay') expect(`${run.stdout}${run.stderr}`, command).not.toMatch(/refused/i);
    }
  }, 300_000);
});
