import { and, desc, eq, gte, inArray, lt, max } from 'drizzle-orm';
import type { PlayerGameStat } from '../../domain/entities.js';
import type { GradedSport } from '../../domain/sports.js';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import { on } from './handle.js';
import { sameDateInIdOrder, toPlayerGameStat, type GameStatRow } from './game-stats-history.js';

export { gameStatsWriter, upsertGameStats, type GameStatsWriter } from './game-stats-write.js';
// A player's history before a date, one player or a slate's at once (the model's reads).
export { historyBefore, historyForPlayers, latestTeam, latestTeams, sameDateInIdOrder, toPlayerGameStat, type GameStatRow } from './game-stats-history.js';

/** Every line of a sport on a date, by player key (one player's games in id order). */
export async function gameStatsOn(store: Store, sport: GradedSport, date: string): Promise<PlayerGameStat[]> {
  return opsOf(store).gameStats.gameStatsOn(sport, date);
}

// ---- the read models' reads (stats views, player lookup, team hub, schedule) ----

/** The newest stored line id of a sport (0 with none): with the newest snapshot, the version a stats view was computed from. */
export async function newestLineId(store: Store, sport: GradedSport): Promise<number> {
  const { db, t } = await on(store);
  const [row] = await db.select({ id: max(t.playerGameStats.id) }).from(t.playerGameStats).where(eq(t.playerGameStats.sport, sport));
  return row?.id ?? 0;
}

/** One player's lines before `today`, newest first (one date's games newest id first). */
export async function playerLinesBefore(store: Store, sport: GradedSport, playerKey: string, today: string): Promise<PlayerGameStat[]> {
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  const lines = await db
    .select()
    .from(g)
    .where(and(eq(g.sport, sport), eq(g.playerKey, playerKey), lt(g.date, today)))
    .orderBy(desc(g.date));
  return sameDateInIdOrder(lines, 'desc').map(toPlayerGameStat);
}

/** Every line of a sport in [from, end), by player key and date. */
export async function sportLinesBetween(store: Store, sport: GradedSport, from: string, end: string): Promise<PlayerGameStat[]> {
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  const lines = await db
    .select()
    .from(g)
    .where(and(eq(g.sport, sport), gte(g.date, from), lt(g.date, end)))
    .orderBy(opsOf(store).byBytes(g.playerKey), g.date);
  return sameDateInIdOrder(lines, 'asc').map(toPlayerGameStat);
}

/** Every line of one team in [from, end), by player key and date. */
export async function teamLinesBetween(store: Store, sport: GradedSport, team: string, from: string, end: string): Promise<PlayerGameStat[]> {
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  const lines = await db
    .select()
    .from(g)
    .where(and(eq(g.sport, sport), eq(g.team, team), gte(g.date, from), lt(g.date, end)))
    .orderBy(opsOf(store).byBytes(g.playerKey), g.date);
  return sameDateInIdOrder(lines, 'asc').map(toPlayerGameStat);
}

/** The lines of the teams on a date, by player key and date (one player's games of the date in id order). */
export async function teamsLinesOn(store: Store, sport: GradedSport, date: string, teams: readonly string[]): Promise<PlayerGameStat[]> {
  if (teams.length === 0) return [];
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  const team = teams.length === 1 ? eq(g.team, teams[0] as string) : inArray(g.team, [...teams]);
  const rows = await db.select().from(g).where(and(eq(g.sport, sport), eq(g.date, date), team)).orderBy(opsOf(store).byBytes(g.playerKey), g.date);
  return sameDateInIdOrder(rows, 'asc').map(toPlayerGameStat);
}

/** The lines stored under a provider game key before `before`, by player key and date. */
export async function gameKeyLinesBefore(store: Store, sport: GradedSport, gameKey: string, before: string): Promise<PlayerGameStat[]> {
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  const rows = await db
    .select()
    .from(g)
    .where(and(eq(g.sport, sport), eq(g.gameKey, gameKey), lt(g.date, before)))
    .orderBy(opsOf(store).byBytes(g.playerKey), g.date);
  return sameDateInIdOrder(rows, 'asc').map(toPlayerGameStat);
}

/** Whether the store holds any line of the sport for one of the team codes. */
export async function hasTeamLines(store: Store, sport: string, teams: readonly string[]): Promise<boolean> {
  if (teams.length === 0) return false;
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  const team = teams.length === 1 ? eq(g.team, teams[0] as string) : inArray(g.team, [...teams]);
  const rows = await db.select({ id: g.id }).from(g).where(and(eq(g.sport, sport), team)).limit(1);
  return rows.length > 0;
}

/**
 * The distinct names of a sport's stored lines (or one player key's), each where its first line by
 * player key, date and id puts it: the order a DISTINCT over the (sport, player key, date) index gave
 * them. The key index orders one date's games by game key, so the lines are read by player key and
 * date and each same-date run is put in id order (sameDateInIdOrder) before the names are taken.
 * Read as raw rows through one prepared statement: a sport's ~24k lines as drizzle objects made
 * name resolution (scan, parlay) ~40 ms slower than the DISTINCT it replaces.
 */
export async function storedNames(store: Store, sport: GradedSport, playerKey?: string): Promise<string[]> {
  if (playerKey === undefined) return opsOf(store).gameStats.allStoredNames(sport);
  return opsOf(store).gameStats.storedNamesOf(sport, playerKey);
}

/**
 * A fingerprint of a sport's stored lines (how many, and the newest id): it changes whenever a
 * line is added or removed, so a cache built from storedNames knows when to rebuild. One index scan.
 */
export async function storedLinesVersion(store: Store, sport: GradedSport): Promise<string> {
  return opsOf(store).gameStats.storedLinesVersion(sport);
}

/**
 * Each stored (name, team, date) of a sport, newest date first, by player key then id within a date:
 * the order a DISTINCT over the lines in (player key, date, id) order gave them (the player search).
 */
export async function nameTeamDates(store: Store, sport: GradedSport): Promise<Array<{ player: string; team: string | null; seen: string }>> {
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  const lines = await db
    .select({ player: g.playerName, team: g.team, seen: g.date })
    .from(g)
    .where(eq(g.sport, sport))
    .orderBy(desc(g.date), opsOf(store).byBytes(g.playerKey), g.id);
  const seen = new Set<string>();
  return lines.filter((r) => {
    const key = JSON.stringify([r.player, r.team, r.seen]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The extras and dates of the players' lines, by player key and date, one date's games in id order. */
export async function playersExtras(store: Store, sport: GradedSport, playerKeys: readonly string[]): Promise<Array<{ playerKey: string; extras: Record<string, number | null>; date: string }>> {
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  return db
    .select({ playerKey: g.playerKey, extras: g.extras, date: g.date })
    .from(g)
    .where(and(eq(g.sport, sport), inArray(g.playerKey, [...playerKeys])))
    .orderBy(opsOf(store).byBytes(g.playerKey), g.date, g.id);
}

/** Every line of a sport from `from` on, newest date first; one date's lines by player key, then id. */
export async function sportLinesSince(store: Store, sport: GradedSport, from: string): Promise<GameStatRow[]> {
  const { db, t } = await on(store);
  const g = t.playerGameStats;
  return db
    .select()
    .from(g)
    .where(and(eq(g.sport, sport), gte(g.date, from)))
    .orderBy(desc(g.date), opsOf(store).byBytes(g.playerKey), g.id);
}
