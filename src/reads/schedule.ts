import type { GradedSport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { playersExtras } from '../store/repo/game-stats.js';
import { latestSnapshot, type GradedRowRecord, type Snapshot } from '../store/repo/snapshots.js';
import { rowsOfSnapshot } from './snapshot-rows.js';

/**
 * The schedule views (lineups, injuries, probable pitchers) from what the latest snapshot stored;
 * no provider call.
 */

/** The latest snapshot of a sport and every row of it; null with none stored. */
export async function latestRows(store: Store, sport: string): Promise<{ snapshot: Snapshot; rows: readonly GradedRowRecord[] } | null> {
  const snapshot = await latestSnapshot(store, sport);
  return snapshot ? { snapshot, rows: await rowsOfSnapshot(store, snapshot.id) } : null;
}

/** One row per (game, player): the snapshot stores one per stat/line/side. */
export function perPlayer(rows: readonly GradedRowRecord[]): GradedRowRecord[] {
  const seen = new Map<string, GradedRowRecord>();
  for (const r of rows) {
    const k = `${r.eventId}|${r.playerKey}`;
    if (!seen.has(k)) seen.set(k, r);
  }
  return [...seen.values()].sort((a, b) => a.commenceTime.localeCompare(b.commenceTime) || (a.team ?? '').localeCompare(b.team ?? '') || a.player.localeCompare(b.player));
}

/** Best-effort season ERA from stored box-score lines: 9 x ER / IP, only when both are real. */
export function eraFrom(lines: ReadonlyArray<{ extras: Record<string, number | null> }>): number | null {
  let er = 0;
  let ip = 0;
  for (const l of lines) {
    const e = l.extras['earned_runs'];
    const i = l.extras['innings_pitched'];
    if (typeof e !== 'number' || typeof i !== 'number') continue;
    er += e;
    ip += i;
  }
  return ip > 0 ? Math.round(((9 * er) / ip) * 100) / 100 : null;
}

/**
 * Each pitcher's ERA over his stored lines dated in `season` (a year: "2025") before `today` (the
 * clock's ET date: a game of that date or later is after the clock, as the stats reads count),
 * keyed by player key; the lines are summed by date, one date's games in id order.
 */
export async function seasonEras(store: Store, sport: GradedSport, playerKeys: readonly string[], season: string, today: string): Promise<Map<string, number | null>> {
  const keys = [...new Set(playerKeys)];
  const lines = keys.length === 0 ? [] : await playersExtras(store, sport, keys);
  return new Map(keys.map((k) => [k, eraFrom(lines.filter((l) => l.playerKey === k && l.date.startsWith(season) && l.date < today))]));
}
