import { Command, CommanderError } from 'commander';
import { formatLogLine, redact, secretsOf } from '../log.js';
import { processIO, type CliIO } from './_process-io.js';
import { COMMANDS, moduleFor, type CommandModule } from './_registry.js';

export const VERSION = '0.1.0';

/** Global options that take a value: their value is never the command name. */
const VALUE_OPTIONS = new Set(['--db', '--now', '--replay', '--record']);

/** The program with its global options; commands are added by the caller. */
function baseProgram(io: CliIO): Command {
  return new Command('propgrade')
    .description('Pre-grade player-prop markets from real data and keep an honest record of how the grades did.')
    .version(VERSION)
    .option('--db <target>', "the store: an SQLite file or a postgres:// URL (env PROPGRADE_DB, default var/propgrade.sqlite in propgrade's folder)")
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
}

function applyDefaults(cmd: Command, io: CliIO): void {
  cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  cmd.showHelpAfterError('(run with --help for usage)');
  for (const sub of cmd.commands) applyDefaults(sub, io);
}

async function finish(program: Command, modules: readonly CommandModule[], io: CliIO): Promise<Command> {
  for (const m of modules) (await m.load())(program, io);
  // Every subcommand inherits the output routing and exit behaviour.
  for (const cmd of program.commands) applyDefaults(cmd, io);
  return program;
}

/** The whole program, every command loaded (tests, and any invocation naming no known command). */
export async function buildProgram(io: CliIO): Promise<Command> {
  return finish(baseProgram(io), COMMANDS, io);
}

/** The command an argv names: the first word that is not an option or a global option's value. */
export function commandName(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (VALUE_OPTIONS.has(a)) {
      i += 1;
      continue;
    }
    if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/**
 * Only what this invocation needs: the named command's module (`help <cmd>` loads <cmd>); for
 * top-level help every command is listed from its summary without loading any module.
 */
async function programFor(argv: readonly string[], io: CliIO): Promise<Command> {
  const name = commandName(argv);
  const target = name === 'help' ? argv[argv.indexOf('help') + 1] : name;
  const module = target === undefined ? undefined : moduleFor(target);
  if (module) return finish(baseProgram(io), [module], io);
  if (name === undefined || name === 'help') {
    const program = baseProgram(io);
    for (const m of COMMANDS) for (const [n, summary] of m.commands) program.command(n).description(summary);
    return program;
  }
  // An unknown word: the full program, so commander names it and suggests the nearest command.
  return buildProgram(io);
}

/** Runs the CLI and returns the exit code: 0 ok, 1 runtime failure, 2 bad usage or input. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const verbose = argv.includes('--verbose');
  try {
    const program = await programFor(argv, io);
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode ?? 0;
  } catch (error) {
    return handleError(isAppError(error) ? error : await knownFailure(error, argv, io), io, verbose);
  }
}

/**
 * A driver failure the error family can name (a PostgreSQL role without a right: which one, for the
 * user of the store's URL, never its password), else the error itself. Loaded on failure only, so
 * start-up stays free of zod.
 */
async function knownFailure(error: unknown, argv: readonly string[], io: CliIO): Promise<unknown> {
  const { privilegeRefusal } = await import('../errors.js');
  const at = argv.findIndex((a) => a === '--db' || a.startsWith('--db='));
  const target = at < 0 ? io.env['PROPGRADE_DB'] : argv[at]!.startsWith('--db=') ? argv[at]!.slice('--db='.length) : argv[at + 1];
  let role: string | null = null;
  try {
    role = target && /^postgres(ql)?:/.test(target) ? decodeURIComponent(new URL(target).username) || null : null;
  } catch {
    role = null;
  }
  return privilegeRefusal(error, role) ?? error;
}

/** An AppError (src/errors.ts) without importing it: start-up stays free of zod. */
function isAppError(error: unknown): error is Error & { exitCode: 1 | 2 } {
  return error instanceof Error && error.name === 'AppError' && 'exitCode' in error;
}

export function handleError(error: unknown, io: CliIO, verbose: boolean): number {
  if (error instanceof CommanderError) {
    // help and version are successful exits; every other commander error is bad usage.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
    if (error.code === 'commander.help') return 0;
    return 2;
  }
  if (isAppError(error)) {
    io.stderr(`${errorLine(io, error.message)}\n`);
    if (verbose && error.stack) io.stderr(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`${errorLine(io, message)}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  else io.stderr('(run with --verbose for details)\n');
  return 1;
}

/** The failure's line: `propgrade: <message>`, or a JSON object under PROPGRADE_LOG_FORMAT=json; secrets redacted either way. */
function errorLine(io: CliIO, message: string): string {
  const json = io.env['PROPGRADE_LOG_FORMAT'] === 'json';
  return json ? formatLogLine('json', { level: 'error', message, time: new Date() }, secretsOf(io.env)) : redact(`propgrade: ${message}`, secretsOf(io.env));
}
