import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/_io.js';
import { COMMANDS } from '../../src/cli/_registry.js';
import { buildProgram, commandName } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli.js';

const io: CliIO = { stdout: () => undefined, stderr: () => undefined, isTTY: false, env: {} };

describe('the lazy command registry', () => {
  it('lists every command its modules register, each summary equal to the command description', async () => {
    const program = await buildProgram(io);
    const registered = program.commands.map((c) => [c.name(), c.description()]);
    expect(registered).toEqual(COMMANDS.flatMap((m) => m.commands.map(([n, s]) => [n, s])));
  });

  it('finds the command word past global options and their values', () => {
    expect(commandName(['--db', 'x.sqlite', '--json', 'scan', '--player', 'a'])).toBe('scan');
    expect(commandName(['--now', '2025-11-05T17:05:00Z', 'slate', 'nba'])).toBe('slate');
    expect(commandName(['--help'])).toBeUndefined();
  });

  it('top-level help lists every command without loading one; help <cmd> shows that command', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    for (const m of COMMANDS) for (const [n] of m.commands) expect(top.stdout).toContain(n);
    const one = await runCli(['help', 'scan']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('--direction');
    const unknown = await runCli(['scna']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Did you mean scan?");
  });
});
