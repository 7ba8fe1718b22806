import type { CloseContext } from '../../domain/settlement.js';
import type { LedgerEntry } from './ledger.js';

/**
 * Why an entry has no captured close, from the snapshots taken between its lock and its start
 * (repo/ledger.ts closeContexts): the engines' adapters read the snapshots and whether one carried
 * the game; counting them is the same on both.
 */

/** The snapshots' times by sport, each list in time order. */
export function snapshotTimes(rows: ReadonlyArray<{ id: number; sport: string; takenAt: string }>): Map<string, Array<{ id: number; at: number }>> {
  const bySport = new Map<string, Array<{ id: number; at: number }>>();
  for (const s of rows) {
    const list = bySport.get(s.sport) ?? [];
    list.push({ id: s.id, at: Date.parse(s.takenAt) });
    bySport.set(s.sport, list);
  }
  for (const list of bySport.values()) list.sort((a, b) => a.at - b.at);
  return bySport;
}

/** Each entry's snapshots strictly between its lock and its start, and whether one carried its game. */
export function contextsOf(need: readonly LedgerEntry[], bySport: Map<string, Array<{ id: number; at: number }>>, carries: (snapshotId: number, eventId: string) => boolean): Map<number, CloseContext> {
  const out = new Map<number, CloseContext>();
  for (const e of need) {
    const list = bySport.get(e.sport) ?? [];
    const start = Date.parse(e.commenceTime);
    let after = 0;
    let carriedGame = false;
    for (let i = firstAfter(list, Date.parse(e.lockedAt)); i < list.length; i++) {
      const s = list[i];
      if (s === undefined || s.at >= start) break;
      after++;
      // One carrying snapshot settles the question; the unique (snapshot, event, ...) index answers it.
      if (!carriedGame && carries(s.id, e.eventId)) carriedGame = true;
    }
    out.set(e.id, { snapshotsAfterLock: after, carriedGame });
  }
  return out;
}

/** Index of the first snapshot taken strictly after `t` (the list is sorted by time). */
function firstAfter(list: ReadonlyArray<{ at: number }>, t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid]?.at ?? Infinity) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
