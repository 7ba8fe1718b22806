/**
 * How fresh a provider-backed answer is, and the one sentence every view prints for it (issue 41
 * item 8: replayed views said "fetched <data clock> (age 0 s)" for a May news file and 2021
 * outrights). Two shapes, never mixed:
 * - live: fetched from the provider at `fetchedAt` (wall clock), `ageSeconds` old;
 * - replay: answered from a recording made at `recordedAt` (the newest manifest entry the answer
 *   read; null when the manifest gives no time), read as of the data clock `readAsOf`. It has no age:
 *   an age would set the data clock against a fetch that never happened then.
 */
export interface LiveFreshness {
  fetchedAt: string;
  ageSeconds: number;
  stale: boolean;
  staleReason?: string;
}

export interface ReplayFreshness {
  replay: true;
  recordedAt: string | null;
  readAsOf: string;
  stale: boolean;
  staleReason?: string;
}

export type Freshness = LiveFreshness | ReplayFreshness;

export function isReplayed(f: Freshness): f is ReplayFreshness {
  return 'replay' in f;
}

/** "90 s", "12 min", "3 h". */
export function ageText(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/**
 * The line a view prints about `what` ("ESPN news", "box scores"); `when` renders an instant in
 * the reader's zone. `stale` says whether the caller should mark it (the text already says why).
 *   live:   "ESPN news fetched Wed, Nov 5, 12:05 PM EST (age 2 min)"
 *   replay: "ESPN news recorded Tue, May 20, 1:15 AM EDT (replayed, read as of Wed, Nov 5, 12:05 PM EST)"
 */
export function freshnessText(f: Freshness, what: string, when: (iso: string) => string): { text: string; stale: boolean } {
  const base = isReplayed(f)
    ? `${what} recorded ${f.recordedAt === null ? 'at a time the replay manifest does not give' : when(f.recordedAt)} (replayed, read as of ${when(f.readAsOf)})`
    : `${what} fetched ${when(f.fetchedAt)} (age ${ageText(f.ageSeconds)})`;
  if (!f.stale) return { text: base, stale: false };
  const last = isReplayed(f) ? 'this is the last answer read from the recording' : 'this is the last good answer';
  return { text: `${base}, STALE: the provider failed (${f.staleReason ?? 'unavailable'}); ${last}`, stale: true };
}
