import { PARLAY_LEG_CAP } from '../domain/tiers.js';
import type { SlipBet } from './schema.js';

/**
 * The `propgrade` command that grades a parsed bet: `propgrade parlay --leg "Player|stat|line|side" …`
 * for two or more gradeable legs, `propgrade scan …` for one. Only legs the reader vouches for
 * (gradeable: player, stat, line and side read, none flagged) go in; the others are listed as
 * left out with their reason, never completed.
 */

/** Global options to repeat so the printed command reads the same store, recording and clock. */
export interface CommandGlobals {
  db?: string | undefined;
  replay?: string | undefined;
  now?: string | undefined;
}

export interface GradeCommand {
  /** One line, safe to paste into a POSIX shell. */
  command: string;
  /** 1-based numbers of the legs the command grades. */
  legs: number[];
  /** Legs left out, with the reason the reader gives. */
  leftOut: Array<{ leg: number; reason: string }>;
  /** A note the reader should see (e.g. more legs than `parlay` takes). */
  note: string | null;
}

/**
 * Quotes one argument for a POSIX shell: bare when it holds only safe characters, in double quotes
 * when it holds spaces or apostrophes but nothing a shell expands inside them ($ ` \ " !), and in
 * single quotes otherwise.
 */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9._+:/=@%-]+$/.test(arg)) return arg;
  if (/^[\p{L}\p{M}\p{N} ._,'|+:/@%=-]+$/u.test(arg)) return `"${arg}"`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

function globalArgs(globals: CommandGlobals): string[] {
  const out: string[] = [];
  if (globals.db) out.push('--db', shellQuote(globals.db));
  if (globals.replay) out.push('--replay', shellQuote(globals.replay));
  if (globals.now) out.push('--now', shellQuote(globals.now));
  return out;
}

/** The command that grades a bet's gradeable legs, or null when it has none. */
export function gradeCommand(bet: SlipBet, globals: CommandGlobals = {}): GradeCommand | null {
  const legs: Array<{ n: number; player: string; stat: string; line: number; side: string }> = [];
  const leftOut: Array<{ leg: number; reason: string }> = [];
  bet.legs.forEach((leg, i) => {
    const { player, stat, line, side } = leg;
    if (player.value?.includes('|')) {
      leftOut.push({ leg: i + 1, reason: 'the name holds "|", which --leg uses as its separator' });
    } else if (leg.gradeable && player.value !== null && stat.value !== null && line.value !== null && side.value !== null) {
      legs.push({ n: i + 1, player: player.value, stat: stat.value, line: line.value, side: side.value });
    } else {
      leftOut.push({ leg: i + 1, reason: leg.ungradeableReason ?? 'not gradeable' });
    }
  });
  if (legs.length === 0) return null;
  const head = ['propgrade', ...globalArgs(globals)];
  let args: string[];
  let note: string | null = null;
  if (legs.length === 1) {
    const l = legs[0]!;
    args = ['scan', '--player', shellQuote(l.player), '--stat', l.stat, '--line', String(l.line), '--direction', l.side];
  } else {
    args = ['parlay', ...legs.flatMap((l) => ['--leg', shellQuote(`${l.player}|${l.stat}|${l.line}|${l.side}`)])];
    const cap = PARLAY_LEG_CAP.desk;
    if (legs.length > cap) note = `propgrade parlay grades at most ${cap} legs; this command has ${legs.length}`;
  }
  return { command: [...head, ...args].join(' '), legs: legs.map((l) => l.n), leftOut, note };
}
