import { Command, CommanderError } from 'commander';
import { AppError } from '../errors.js';
import { processIO, type CliIO } from './_io.js';
import { COMMANDS } from './_registry.js';

export const VERSION = '0.1.0';

/** Builds the program; each subcommand registers itself from its own file. */
export function buildProgram(io: CliIO): Command {
  const program = new Command('propgrade')
    .description('Pre-grade player-prop markets from real data and keep an honest record of how the grades did.')
    .version(VERSION)
    .option('--db <file>', 'SQLite store (env PROPGRADE_DB, default var/propgrade.sqlite)')
    .option('--json', 'machine-readable output on stdout', false)
    .option('--now <iso-datetime>', 'the clock for the whole run (env PROPGRADE_NOW)')
    .option('--verbose', 'more detail on stderr, stack traces on failure', false)
    .option('--replay <dir>', 'answer provider requests from a recorded folder (env PROPGRADE_REPLAY)')
    .option('--record <dir>', 'call providers live and record every response into a folder')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      outputError: (s, write) => write(s),
    });
  for (const register of COMMANDS) register(program, io);
  // Every subcommand inherits the output routing and exit behaviour.
  for (const cmd of program.commands) applyDefaults(cmd, io);
  return program;
}

function applyDefaults(cmd: Command, io: CliIO): void {
  cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  cmd.showHelpAfterError('(run with --help for usage)');
  for (const sub of cmd.commands) applyDefaults(sub, io);
}

/** Runs the CLI and returns the exit code: 0 ok, 1 runtime failure, 2 bad usage or input. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const program = buildProgram(io);
  const verbose = argv.includes('--verbose');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode ?? 0;
  } catch (error) {
    return handleError(error, io, verbose);
  }
}

export function handleError(error: unknown, io: CliIO, verbose: boolean): number {
  if (error instanceof CommanderError) {
    // help and version are successful exits; every other commander error is bad usage.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
    if (error.code === 'commander.help') return 0;
    return 2;
  }
  if (error instanceof AppError) {
    io.stderr(`propgrade: ${error.message}\n`);
    if (verbose && error.stack) io.stderr(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`propgrade: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  else io.stderr('(run with --verbose for details)\n');
  return 1;
}
