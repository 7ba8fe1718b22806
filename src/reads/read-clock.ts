import { syncStatus, type SyncStatus } from '../domain/sync-status.js';
import type { Store } from '../store/db.js';

/**
 * The clock of a read command (scan, parlay, record, ticker, slate, ledger, serve), one rule for
 * all (README "The clock"):
 * 1. --now or PROPGRADE_NOW when given;
 * 2. else, when the store's newest snapshot was taken from a replay folder, that snapshot's time,
 *    so the bundled data reads as of its recording rather than as of today;
 * 3. else the system clock, and a newest snapshot that is late by the sync thresholds is stated.
 */
export interface ReadClock {
  now: Date;
  source: 'explicit' | 'replay_snapshot' | 'system';
  /** One line for stderr saying which clock and why, or that the data is stale; null when there is nothing to say. */
  note: string | null;
}

interface NewestSnapshot {
  sport: string;
  takenAt: string;
  source: string | null;
}

function newestSnapshot(store: Store): NewestSnapshot | null {
  const row = store.sqlite.prepare('SELECT sport, taken_at AS takenAt, source FROM snapshots ORDER BY taken_at DESC, id DESC LIMIT 1').get() as NewestSnapshot | undefined;
  return row ?? null;
}

export function readClock(store: Store, explicit: Date | null, system: Date, expectedIntervalMinutes: number): ReadClock {
  if (explicit) return { now: explicit, source: 'explicit', note: null };
  const newest = newestSnapshot(store);
  if (newest?.source === 'replay') {
    return {
      now: new Date(newest.takenAt),
      source: 'replay_snapshot',
      note: `clock: ${newest.takenAt}, the time of the newest snapshot (${newest.sport}, replayed from recorded data); pass --now to read at another time`,
    };
  }
  if (!newest) return { now: system, source: 'system', note: null };
  const status: SyncStatus = syncStatus(new Date(newest.takenAt), system, expectedIntervalMinutes);
  if (status === 'normal') return { now: system, source: 'system', note: null };
  return { now: system, source: 'system', note: `the newest snapshot (${newest.sport}) was taken ${ageText(system.getTime() - Date.parse(newest.takenAt))} ago: sync ${status} (runs are expected every ${expectedIntervalMinutes} min)` };
}

/** "3 h 5 min", "2 days 4 h". */
export function ageText(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} days ${h % 24} h`;
}
