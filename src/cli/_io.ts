import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';

export { processIO, type CliIO } from './_process-io.js';
import type { CliIO } from './_process-io.js';

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

/** A team in running text: its code, or says it is not known (never a stand-in code). */
export function teamText(team: string | null | undefined): string {
  return team ?? 'team unknown';
}

export function signedAmerican(v: number): string {
  const r = Math.round(v);
  return r > 0 ? `+${r}` : String(r);
}

export function pct(v: number, digits = 1): string {
  return `${(v * 100).toFixed(digits)}%`;
}
