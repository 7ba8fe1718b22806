import { and, desc, eq, gte, inArray, lt, max } from 'drizzle-orm';
import type { PlayerGameStat } from '../../domain/entities.js';
import type { GradedSport } from '../../domain/sports.js';
import type { Db } from '../db.js';
import { playerGameStats } from '../schema.js';
import { clientOf, columnList, columnsOf, insertColumns, insertSql, mapRow, prepared } from './_raw.js';

/** A stored player-game row as drizzle reads it. */
export type GameStatRow = typeof playerGameStats.$inferSelect;
type Row = GameStatRow;

/** A stored player-game row as the domain's PlayerGameStat (a game key equal to the date means no provider game id). */
export function toPlayerGameStat(row: Row): PlayerGameStat {
  return {
    sport: row.sport as GradedSport,
    playerKey: row.playerKey,
    playerName: row.playerName,
    team: row.team,
    opponent: row.opponent,
    date: row.date,
    gameId: row.gameKey === row.date ? null : row.gameKey,
    minutes: row.minutes,
    stats: row.stats,
    extras: row.extras,
    source: row.source,
  };
}

/** The upsert: the same player-game replaces itself (a later, fuller box score wins). */
const UPSERT_SUFFIX =
  ' on conflict ("sport", "player_key", "date", "game_key") do update set "player_name" = excluded.player_name, "team" = excluded.team, "opponent" = excluded.opponent, "minutes" = excluded.minutes, "stats" = excluded.stats, "extras" = excluded.extras, "source" = excluded.source';

/** The insert order of player_game_stats' columns the writer binds by position (checked against the schema). */
const WRITE_ORDER = ['sport', 'playerKey', 'playerName', 'team', 'opponent', 'date', 'gameKey', 'minutes', 'stats', 'extras', 'source'];

/** JSON text of a stats or extras value as drizzle writes it: JSON.stringify, unless the caller already has the text. */
const jsonOf = (value: unknown, text: string | undefined): string | null => (value === undefined || value === null ? null : (text ?? JSON.stringify(value)));

/**
 * A writer for player-game lines: one prepared upsert, reused for every line, binding what drizzle
 * would bind. The caller owns the transaction (an import streams its rows through one). A caller
 * that built the stats / extras JSON text itself (the importer) passes it to skip JSON.stringify.
 */
export function gameStatsWriter(db: Db): (r: PlayerGameStat, json?: { stats: string; extras: string }) => void {
  const cols = insertColumns(playerGameStats);
  if (cols.map((c) => c.key).join() !== WRITE_ORDER.join()) throw new Error('player_game_stats columns changed: update gameStatsWriter');
  const upsert = prepared(clientOf(db), insertSql(playerGameStats, cols, UPSERT_SUFFIX));
  return (r, json) => {
    upsert.run(
      r.sport ?? null,
      r.playerKey ?? null,
      r.playerName ?? null,
      r.team ?? null,
      r.opponent ?? null,
      r.date ?? null,
      r.gameId ?? r.date ?? null,
      r.minutes ?? null,
      jsonOf(r.stats, json?.stats),
      jsonOf(r.extras, json?.extras),
      r.source ?? null,
    );
  };
}

/** Idempotent: the same player-game replaces itself (a later, fuller box score wins). */
export function upsertGameStats(db: Db, rows: readonly PlayerGameStat[]): number {
  const client = clientOf(db);
  const write = gameStatsWriter(db);
  client.transaction(() => {
    for (const r of rows) write(r);
  })();
  return rows.length;
}

const playerRows = (db: Db, sql: string) => prepared(clientOf(db), sql).raw(true);

/**
 * The order readers give same-date lines. The table's one index, its unique key (sport, player key,
 * date, game key), orders a player's lines of one date by game key; they were read in id order when
 * a (sport, player key, date) index served the reads, and every reader keeps that order: it orders
 * by player key and date (or date alone for one player), which the key index gives without a sort,
 * and this puts each run of one player's lines of one date in id order, ascending or descending with
 * the read. Such a run is rare and short (an MLB doubleheader, one game stored from two sources);
 * rows are reordered in place and returned. (An `id` term in the ORDER BY instead made SQLite sort
 * every row read: ~20% more for the history read a snapshot makes per player.)
 */
export function sameDateInIdOrder<T extends { playerKey: string; date: string; id: number }>(rows: T[], direction: 'asc' | 'desc'): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  for (let i = 0; i < rows.length - 1; ) {
    const first = rows[i] as T;
    let end = i + 1;
    while (end < rows.length && (rows[end] as T).date === first.date && (rows[end] as T).playerKey === first.playerKey) end++;
    if (end - i > 1) {
      const run = rows.slice(i, end).sort((a, b) => sign * (a.id - b.id));
      for (let k = 0; k < run.length; k++) rows[i + k] = run[k] as T;
    }
    i = end;
  }
  return rows;
}

const historyColumns = () => columnsOf(playerGameStats);

/** The player's real games strictly before `beforeDate` (ET), newest first (one date's games newest id first). */
export function historyBefore(db: Db, sport: GradedSport, playerKey: string, beforeDate: string, limit = 120): PlayerGameStat[] {
  const cols = historyColumns();
  // One row past the limit: it says whether the limit cuts a date's games, which are then read
  // whole so the ones kept are that date's newest ids.
  const stmt = playerRows(db, `select ${columnList(cols)} from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" < ?) order by "date" desc limit ?`);
  let rows = (stmt.all(sport, playerKey, beforeDate, limit < 0 ? limit : limit + 1) as unknown[][]).map((r) => mapRow<Row>(cols, r));
  if (limit >= 0 && rows.length > limit) {
    const cut = (rows[limit] as Row).date;
    if (limit > 0 && (rows[limit - 1] as Row).date === cut) {
      const whole = playerRows(db, `select ${columnList(cols)} from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" = ?)`);
      rows = [...rows.filter((r) => r.date !== cut), ...(whole.all(sport, playerKey, cut) as unknown[][]).map((r) => mapRow<Row>(cols, r))];
    }
    rows = sameDateInIdOrder(rows, 'desc').slice(0, limit);
  } else sameDateInIdOrder(rows, 'desc');
  return rows.map(toPlayerGameStat);
}

/** Team of the player's most recent real game before the date (of that date's games, the newest id); null when unknown. */
export function latestTeam(db: Db, sport: GradedSport, playerKey: string, beforeDate: string): string | null {
  const stmt = playerRows(db, `select "team" from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" < ?) order by "date" desc, "id" desc limit ?`);
  const row = stmt.get(sport, playerKey, beforeDate, 1) as [string | null] | undefined;
  return row?.[0] ?? null;
}

/** Every line of a sport on a date, by player key (one player's games in id order). */
export function gameStatsOn(db: Db, sport: GradedSport, date: string): PlayerGameStat[] {
  const cols = historyColumns();
  const stmt = playerRows(db, `select ${columnList(cols)} from "player_game_stats" where ("sport" = ? and "date" = ?) order by "player_key", "date"`);
  return sameDateInIdOrder((stmt.all(sport, date) as unknown[][]).map((r) => mapRow<Row>(cols, r)), 'asc').map(toPlayerGameStat);
}

// ---- the read models' reads (stats views, player lookup, team hub, schedule) ----

/** The newest stored line id of a sport (0 with none): with the newest snapshot, the version a stats view was computed from. */
export function newestLineId(db: Db, sport: GradedSport): number {
  return db.select({ id: max(playerGameStats.id) }).from(playerGameStats).where(eq(playerGameStats.sport, sport)).get()?.id ?? 0;
}

/** One player's lines before `today`, newest first (one date's games newest id first). */
export function playerLinesBefore(db: Db, sport: GradedSport, playerKey: string, today: string): PlayerGameStat[] {
  const lines = db
    .select()
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), eq(playerGameStats.playerKey, playerKey), lt(playerGameStats.date, today)))
    .orderBy(desc(playerGameStats.date))
    .all();
  return sameDateInIdOrder(lines, 'desc').map(toPlayerGameStat);
}

/** Every line of a sport in [from, end), by player key and date. */
export function sportLinesBetween(db: Db, sport: GradedSport, from: string, end: string): PlayerGameStat[] {
  const lines = db
    .select()
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), gte(playerGameStats.date, from), lt(playerGameStats.date, end)))
    .orderBy(playerGameStats.playerKey, playerGameStats.date)
    .all();
  return sameDateInIdOrder(lines, 'asc').map(toPlayerGameStat);
}

/** Every line of one team in [from, end), by player key and date. */
export function teamLinesBetween(db: Db, sport: GradedSport, team: string, from: string, end: string): PlayerGameStat[] {
  const lines = db
    .select()
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), eq(playerGameStats.team, team), gte(playerGameStats.date, from), lt(playerGameStats.date, end)))
    .orderBy(playerGameStats.playerKey, playerGameStats.date)
    .all();
  return sameDateInIdOrder(lines, 'asc').map(toPlayerGameStat);
}

/** The lines of the teams on a date, by player key and date (one player's games of the date in id order). */
export function teamsLinesOn(db: Db, sport: GradedSport, date: string, teams: readonly string[]): PlayerGameStat[] {
  if (teams.length === 0) return [];
  const team = teams.length === 1 ? eq(playerGameStats.team, teams[0] as string) : inArray(playerGameStats.team, [...teams]);
  const rows = db.select().from(playerGameStats).where(and(eq(playerGameStats.sport, sport), eq(playerGameStats.date, date), team)).orderBy(playerGameStats.playerKey, playerGameStats.date).all();
  return sameDateInIdOrder(rows, 'asc').map(toPlayerGameStat);
}

/** The lines stored under a provider game key before `before`, by player key and date. */
export function gameKeyLinesBefore(db: Db, sport: GradedSport, gameKey: string, before: string): PlayerGameStat[] {
  const rows = db
    .select()
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), eq(playerGameStats.gameKey, gameKey), lt(playerGameStats.date, before)))
    .orderBy(playerGameStats.playerKey, playerGameStats.date)
    .all();
  return sameDateInIdOrder(rows, 'asc').map(toPlayerGameStat);
}

/** Whether the store holds any line of the sport for one of the team codes. */
export function hasTeamLines(db: Db, sport: string, teams: readonly string[]): boolean {
  if (teams.length === 0) return false;
  const team = teams.length === 1 ? eq(playerGameStats.team, teams[0] as string) : inArray(playerGameStats.team, [...teams]);
  return db.select({ id: playerGameStats.id }).from(playerGameStats).where(and(eq(playerGameStats.sport, sport), team)).limit(1).get() !== undefined;
}

/**
 * The distinct names of a sport's stored lines (or one player key's), each where its first line by
 * player key, date and id puts it: the order a DISTINCT over the (sport, player key, date) index gave
 * them. The key index orders one date's games by game key, so the lines are read by player key and
 * date and each same-date run is put in id order (sameDateInIdOrder) before the names are taken.
 * Read as raw rows through one prepared statement: a sport's ~24k lines as drizzle objects made
 * name resolution (scan, parlay) ~40 ms slower than the DISTINCT it replaces.
 */
export function storedNames(db: Db, sport: GradedSport, playerKey?: string): string[] {
  if (playerKey === undefined) return allStoredNames(db, sport);
  const sql = `select "player_name", "player_key", "date", "id" from "player_game_stats" where "sport" = ?${playerKey === undefined ? '' : ' and "player_key" = ?'} order by "player_key", "date"`;
  const args = playerKey === undefined ? [sport] : [sport, playerKey];
  const lines = (prepared(clientOf(db), sql).raw(true).all(...args) as Array<[string, string, string, number]>).map(([name, key, date, id]) => ({ name, playerKey: key, date, id }));
  return [...new Set(sameDateInIdOrder(lines, 'asc').map((l) => l.name))];
}

/**
 * Every distinct name of a sport, in the order storedNames gives: a name's place is its first line
 * by (player key, date, id), so ordering the names by the least such tuple of their lines (one
 * string: key, date and the zero-padded id, split by a byte below any a key holds) is that order.
 * SQLite groups the ~24k lines itself: a third of the CPU of reading them all into JS.
 */
function allStoredNames(db: Db, sport: GradedSport): string[] {
  const sql = `select "player_name", min("player_key" || char(1) || "date" || char(1) || printf('%015d', "id")) as "first" from "player_game_stats" where "sport" = ? group by "player_name" order by "first"`;
  return (prepared(clientOf(db), sql).raw(true).all(sport) as Array<[string, string]>).map(([name]) => name);
}

/**
 * A fingerprint of a sport's stored lines (how many, and the newest id): it changes whenever a
 * line is added or removed, so a cache built from storedNames knows when to rebuild. One index scan.
 */
export function storedLinesVersion(db: Db, sport: GradedSport): string {
  const row = prepared(clientOf(db), 'select count(*), max("id") from "player_game_stats" where "sport" = ?').raw(true).get(sport) as [number, number | null];
  return `${row[0]}:${row[1] ?? 0}`;
}

/**
 * Each stored (name, team, date) of a sport, newest date first, by player key then id within a date:
 * the order a DISTINCT over the lines in (player key, date, id) order gave them (the player search).
 */
export function nameTeamDates(db: Db, sport: GradedSport): Array<{ player: string; team: string | null; seen: string }> {
  const lines = db
    .select({ player: playerGameStats.playerName, team: playerGameStats.team, seen: playerGameStats.date })
    .from(playerGameStats)
    .where(eq(playerGameStats.sport, sport))
    .orderBy(desc(playerGameStats.date), playerGameStats.playerKey, playerGameStats.id)
    .all();
  const seen = new Set<string>();
  return lines.filter((r) => {
    const key = JSON.stringify([r.player, r.team, r.seen]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The extras and dates of the players' lines, by player key and date, one date's games in id order. */
export function playersExtras(db: Db, sport: GradedSport, playerKeys: readonly string[]): Array<{ playerKey: string; extras: Record<string, number | null>; date: string }> {
  return db
    .select({ playerKey: playerGameStats.playerKey, extras: playerGameStats.extras, date: playerGameStats.date })
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), inArray(playerGameStats.playerKey, [...playerKeys])))
    .orderBy(playerGameStats.playerKey, playerGameStats.date, playerGameStats.id)
    .all();
}

/** Every line of a sport from `from` on, newest date first; one date's lines by player key, then id. */
export function sportLinesSince(db: Db, sport: GradedSport, from: string): GameStatRow[] {
  return db
    .select()
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), gte(playerGameStats.date, from)))
    .orderBy(desc(playerGameStats.date), playerGameStats.playerKey, playerGameStats.id)
    .all();
}
