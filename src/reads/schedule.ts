import type { GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import type { Store } from '../store/db.js';
import { playersExtras } from '../store/repo/game-stats.js';
import { latestSnapshot, type GradedRowRecord, type Snapshot } from '../store/repo/snapshots.js';
import { rowsOfSnapshot } from './snapshot-rows.js';

/**
 * The schedule views (lineups, injuries, probable pitchers) from what the latest snapshot stored;
 * no provider call. As of a time (`asOf`, issue 41 item 5): the newest snapshot taken at or before
 * it, never one taken after; null reads the newest stored (a replayed store on its own clock).
 */

/** The latest snapshot of a sport (taken at or before `asOf` when given) and every row of it; null with none stored. */
export async function latestRows(store: Store, sport: string, asOf: Date | null = null): Promise<{ snapshot: Snapshot; rows: readonly GradedRowRecord[] } | null> {
  const snapshot = await latestSnapshot(store, sport, asOf);
  return snapshot ? { snapshot, rows: await rowsOfSnapshot(store, snapshot.id) } : null;
}

type Hidden = { sport: string; available: false; reason: string };
type Head = { sport: string; available: true; snapshotId: number; takenAt: string };

const hidden = (sport: string, reason: string): Hidden => ({ sport, available: false, reason });
/** None stored at all (`stored` says so, as without a clock bound), or none taken by the as-of time. */
async function noSnapshot(store: Store, sport: string, asOf: Date | null, stored = 'no snapshot stored for this sport'): Promise<Hidden> {
  const later = asOf === null ? null : await latestSnapshot(store, sport);
  return hidden(sport, later === null || asOf === null ? stored : `no ${sport} snapshot taken at or before ${asOf.toISOString()} (the first stored was taken later)`);
}
const headOf = (sport: string, snapshot: Snapshot): Head => ({ sport, available: true, snapshotId: snapshot.id, takenAt: snapshot.takenAt });

export type LineupsRead = Hidden | (Head & { players: Array<{ player: string; team: string | null; eventId: string; game: string; commenceTime: string; lineupStatus: string | null; battingSlot: number | null }> });
export type InjuriesRead = Hidden | (Head & { players: Array<{ player: string; team: string | null; eventId: string; game: string; injuryStatus: string | null }> });
export type PitchersRead = Hidden | (Head & { games: Array<{ eventId: string; game: string; commenceTime: string; pitchers: Array<{ player: string; team: string | null; era: number | null }> }> });

/** Lineup status per player on the snapshot read (GET /api/schedule/:sport/lineups). */
export async function readScheduleLineups(store: Store, sport: string, asOf: Date | null = null): Promise<LineupsRead> {
  const latest = await latestRows(store, sport, asOf);
  if (!latest) return await noSnapshot(store, sport, asOf);
  const players = perPlayer(latest.rows.filter((r) => r.lineupStatus !== null)).map((r) => ({
    player: r.player,
    team: r.team,
    eventId: r.eventId,
    game: `${r.awayTeam} @ ${r.homeTeam}`,
    commenceTime: r.commenceTime,
    lineupStatus: r.lineupStatus,
    battingSlot: r.lineupStatus === 'CONFIRMED' ? r.battingSlot : null,
  }));
  if (players.length === 0) return hidden(sport, 'the latest snapshot stored no lineup status');
  return { ...headOf(sport, latest.snapshot), players };
}

/** Injury chips per player on the snapshot read (GET /api/schedule/:sport/injuries). */
export async function readScheduleInjuries(store: Store, sport: string, asOf: Date | null = null): Promise<InjuriesRead> {
  const latest = await latestRows(store, sport, asOf);
  if (!latest) return await noSnapshot(store, sport, asOf);
  const players = perPlayer(latest.rows.filter((r) => r.injuryStatus !== null)).map((r) => ({
    player: r.player,
    team: r.team,
    eventId: r.eventId,
    game: `${r.awayTeam} @ ${r.homeTeam}`,
    injuryStatus: r.injuryStatus,
  }));
  if (players.length === 0) return hidden(sport, 'the latest snapshot stored no injury status');
  return { ...headOf(sport, latest.snapshot), players };
}

/**
 * The probable MLB starters on the snapshot read (GET /api/schedule/mlb/pitchers), each with his
 * season ERA over the games before `now`'s ET date (the data clock; `asOf` bounds the snapshot).
 */
export async function readSchedulePitchers(store: Store, now: Date, asOf: Date | null = null): Promise<PitchersRead> {
  const latest = await latestRows(store, 'mlb', asOf);
  if (!latest) return await noSnapshot(store, 'mlb', asOf, 'no snapshot stored for mlb');
  const starters = perPlayer(latest.rows.filter((r) => r.statType === 'strikeouts'));
  if (starters.length === 0) return hidden('mlb', 'the latest snapshot priced no pitcher strikeouts');
  // Only games before the clock's ET date count (issue 41 item 5: no read counts a game after its clock).
  const eras = await seasonEras(store, 'mlb', starters.map((r) => r.playerKey), latest.snapshot.slateDate.slice(0, 4), easternDate(now));
  const games = new Map<string, { eventId: string; game: string; commenceTime: string; pitchers: Array<{ player: string; team: string | null; era: number | null }> }>();
  for (const r of starters) {
    const g = games.get(r.eventId) ?? { eventId: r.eventId, game: `${r.awayTeam} @ ${r.homeTeam}`, commenceTime: r.commenceTime, pitchers: [] };
    g.pitchers.push({ player: r.player, team: r.team, era: eras.get(r.playerKey) ?? null });
    games.set(r.eventId, g);
  }
  return { ...headOf('mlb', latest.snapshot), games: [...games.values()] };
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
