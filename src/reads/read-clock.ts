import { syncStatus, type SyncStatus } from '../domain/sync-status.js';
import type { Store } from '../store/db.js';
import { newestSnapshotPerSport } from '../store/repo/snapshots.js';

/**
 * The clock of a read command (scan, parlay, record, ticker, slate, ledger, live, desk, serve), one
 * rule for all (README "The clock"):
 * 1. --now or PROPGRADE_NOW when given, for every sport;
 * 2. else, when the store's newest snapshot was taken from a replay folder, each sport as of its
 *    own newest snapshot, so the bundled data reads as of its recording rather than as of today,
 *    and a sport recorded on another day (WNBA 2024, MLB August) is not read on the NBA's day;
 * 3. else the system clock, and a newest snapshot that is late by the sync thresholds is stated.
 */
export interface ReadClock {
  /** The named sport's clock; without a sport, the newest snapshot's (or the explicit or system) time. */
  now: Date;
  /** The clock of each sport (the same instant for every sport unless the store is replayed). */
  forSport: (sport: string) => Date;
  source: 'explicit' | 'replay_snapshot' | 'system';
  /** One line for stderr saying which clock and why, or that the data is stale; null when there is nothing to say. */
  note: string | null;
  /** The note for another sport (null: the note of a read across sports). */
  noteFor: (sport: string | null) => string | null;
}

const fixed = (now: Date) => () => now;

export async function readClock(store: Store, explicit: Date | null, system: Date, expectedIntervalMinutes: number, sport: string | null = null): Promise<ReadClock> {
  if (explicit) return { now: explicit, forSport: fixed(explicit), source: 'explicit', note: null, noteFor: () => null };
  const newest = await newestSnapshotPerSport(store);
  const head = newest[0];
  if (head?.source === 'replay') {
    const bySport = new Map(newest.map((s) => [s.sport, new Date(s.takenAt)]));
    // A sport with no snapshot has nothing to read; it takes the newest snapshot's time.
    const forSport = (s: string): Date => bySport.get(s) ?? new Date(head.takenAt);
    const noteFor = (named: string | null): string => {
      if (named === null) {
        const each = newest.map((s) => `${s.sport} ${new Date(s.takenAt).toISOString()}`).join(', ');
        return `clock (each sport its own): ${each}, the time of each sport's newest snapshot (replayed from recorded data); pass --now to read every sport at one time`;
      }
      const why = bySport.has(named) ? `the time of the newest ${named} snapshot` : `no ${named} snapshot in the store, so the time of the newest snapshot (${head.sport})`;
      return `clock (${named}): ${forSport(named).toISOString()}, ${why} (replayed from recorded data); pass --now to read at another time`;
    };
    return { now: sport === null ? new Date(head.takenAt) : forSport(sport), forSport, source: 'replay_snapshot', note: noteFor(sport), noteFor };
  }
  const system_ = { now: system, forSport: fixed(system), source: 'system' as const };
  if (!head) return { ...system_, note: null, noteFor: () => null };
  const status: SyncStatus = syncStatus(new Date(head.takenAt), system, expectedIntervalMinutes);
  if (status === 'normal') return { ...system_, note: null, noteFor: () => null };
  const note = `the newest snapshot (${head.sport}) was taken ${ageText(system.getTime() - Date.parse(head.takenAt))} ago: sync ${status} (runs are expected every ${expectedIntervalMinutes} min)`;
  return { ...system_, note, noteFor: () => note };
}

/**
 * The server's data clock from a pinned read clock: a request about a sport reads that sport's clock,
 * a request across sports the newest snapshot's (or the explicit) time.
 */
export function requestClock(clock: ReadClock): (sport?: string) => Date {
  return (sport) => (sport === undefined ? clock.now : clock.forSport(sport));
}

/** "3 h 5 min", "2 days 4 h". */
export function ageText(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} days ${h % 24} h`;
}
