/**
 * Where the record is when a window holds none of it (docs/ledger.md, "Where the record is"):
 * pure, clock-free, every suggestion checked against the window rule.
 */
import { easternDate } from './time.js';
import { recordWindow, type RecordWindow } from './records.js';

/** What the store holds outside an empty window: settled public entries in the same scope. */
export type SettledOutside = {
  /** Settled (hit, miss, push or void) public entries in scope, any date. */
  settled: number;
  /** Their latest game date and the latest settle time on that date. */
  latestGameDate: string | null;
  latestSettledAt: string | null;
};

/**
 * Where the record is when the window holds no settled entry but settled entries exist elsewhere
 * in the same scope: the latest settled date, and settings that would reach it. Every suggestion
 * is checked against the window rule, so following it does show that date.
 */
export type SettledElsewhere = {
  settled: number;
  latestGameDate: string;
  /** A clock whose window (same `days`) holds the latest settled date: that date's settle time. */
  tryNow: string | null;
  /** A window length, at most `maxDays`, that reaches back from the current window's end to that date. */
  tryDays: number | null;
  /** The single date to read instead (always valid). */
  tryDate: string;
};

export function settledElsewhere(window: RecordWindow, days: number, outside: SettledOutside, maxDays = 365): SettledElsewhere | null {
  const latest = outside.latestGameDate;
  if (outside.settled === 0 || latest === null) return null;
  let tryNow: string | null = null;
  if (outside.latestSettledAt !== null) {
    const to = easternDate(new Date(outside.latestSettledAt));
    const w = recordWindow(new Date(outside.latestSettledAt), days);
    if (w.from <= latest && latest <= to) tryNow = new Date(outside.latestSettledAt).toISOString();
  }
  let tryDays: number | null = null;
  if (latest < window.from) {
    const needed = daysBetween(latest, window.to) + 1;
    if (needed <= maxDays) tryDays = needed;
  }
  return { settled: outside.settled, latestGameDate: latest, tryNow, tryDays, tryDate: latest };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
