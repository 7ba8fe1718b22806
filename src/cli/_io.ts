import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';

/** Where a command writes. Injected so tests capture output without spawning a process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is an interactive terminal (colour, prompts). */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Set by a command whose work completed but whose outcome is a failure (e.g. a failed run). */
  exitCode?: 0 | 1 | 2;
}

export function processIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
  };
}

/** Colour only on a TTY, never with NO_COLOR (any value), TERM=dumb or --json. Decided once. */
export function colorEnabled(io: CliIO, json: boolean): boolean {
  if (json || !io.isTTY) return false;
  if (io.env.NO_COLOR !== undefined) return false;
  if (io.env.TERM === 'dumb') return false;
  return true;
}

export function makeChalk(enabled: boolean): ChalkInstance {
  return new Chalk({ level: enabled ? 1 : 0 });
}

/** A cli-table3 table; without colour the head/border styles are emptied so no escapes leak. */
export function renderTable(head: string[], rows: Array<Array<string | number>>, color: boolean): string {
  const table = new Table({
    head,
    style: color ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] },
  });
  for (const row of rows) table.push(row.map((c) => String(c)));
  return table.toString();
}

/** Display for a value that may be absent: absent shows as a dash, never as 0. */
export function show(value: string | number | null | undefined, format?: (v: number) => string): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'number') return format ? format(value) : String(value);
  return value;
}

export function signedAmerican(v: number): string {
  const r = Math.round(v);
  return r > 0 ? `+${r}` : String(r);
}

export function pct(v: number, digits = 1): string {
  return `${(v * 100).toFixed(digits)}%`;
}
