import type Database from 'better-sqlite3';
import type { PlayerGameStat } from '../../domain/entities.js';
import type { GradedSport } from '../../domain/sports.js';
import type { Db, Store } from '../db.js';
import { playerGameStats } from '../schema.js';
import { clientOf, columnList, columnsOf, mapRow, prepared } from './_raw.js';
import { numbered, pgRows } from './_pg-raw.js';
import { sqliteOf } from './handle.js';

/**
 * What the model reads of a player's past: the games before a date (historyBefore) and the team of
 * the latest (latestTeam), for one player or for a whole slate's at once (historyForPlayers,
 * latestTeams; issue 39). game-stats.ts re-exports all of it.
 *
 * On PostgreSQL every statement is a round trip: a slate's run asked each player's history and team
 * one at a time (1,284 of a `snapshot all`'s 1,627 statements), so there the batched reads are one
 * statement for the slate, each player's lines ranked newest first by a window function. On SQLite
 * the same reads stay one prepared statement per player, run in one synchronous loop: there is no
 * round trip to save, and the one-statement read sorts every line read (about 1.4x the time of the
 * per-player reads for a 160-player slate, docs/scale.md).
 */

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
const playerRows = (db: Db, sql: string) => prepared(clientOf(db), sql).raw(true);

// ---- SQLite: one prepared statement per player ----

const HISTORY_SQL = `select ${columnList(historyColumns())} from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" < ?) order by "date" desc limit ?`;
const DATE_SQL = `select ${columnList(historyColumns())} from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" = ?)`;
const TEAM_SQL = 'select "team" from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" < ?) order by "date" desc, "id" desc limit ?';

/** One player's history on SQLite (see historyBefore), read through prepared statements. */
function sqliteHistory(db: Db, sport: GradedSport, playerKey: string, beforeDate: string, limit: number): PlayerGameStat[] {
  const cols = historyColumns();
  const read = (stmt: Database.Statement, ...args: unknown[]) => (stmt.all(...args) as unknown[][]).map((r) => mapRow<Row>(cols, r));
  // One row past the limit: it says whether the limit cuts a date's games, which are then read
  // whole so the ones kept are that date's newest ids.
  let rows = read(playerRows(db, HISTORY_SQL), sport, playerKey, beforeDate, limit < 0 ? limit : limit + 1);
  if (limit >= 0 && rows.length > limit) {
    const cut = (rows[limit] as Row).date;
    if (limit > 0 && (rows[limit - 1] as Row).date === cut) rows = [...rows.filter((r) => r.date !== cut), ...read(playerRows(db, DATE_SQL), sport, playerKey, cut)];
    rows = sameDateInIdOrder(rows, 'desc').slice(0, limit);
  } else sameDateInIdOrder(rows, 'desc');
  return rows.map(toPlayerGameStat);
}

function sqliteTeam(db: Db, sport: GradedSport, playerKey: string, beforeDate: string): string | null {
  const row = playerRows(db, TEAM_SQL).get(sport, playerKey, beforeDate, 1) as [string | null] | undefined;
  return row?.[0] ?? null;
}

// ---- PostgreSQL: one statement for many players ----

/** Keys per statement: far below PostgreSQL's 65,535 bound parameters. */
const KEYS_PER_STATEMENT = 5000;

/**
 * The players' lines before the date, newest first, each numbered from 1 (the latest date's
 * highest id: the order historyBefore and latestTeam read), at most `limit` each (negative: all).
 * Grouped by player key, not ordered by it: the order within a player's lines is all a caller keeps.
 */
function rankedSql(columns: string, keys: number, limited: boolean): string {
  const list = Array.from({ length: keys }, () => '?').join(', ');
  return numbered(
    `select ${columns} from (select ${columnList(historyColumns())}, row_number() over (partition by "player_key" order by "date" desc, "id" desc) as "rank" ` +
      `from "player_game_stats" where "sport" = ? and "date" < ? and "player_key" in (${list})) as "ranked"` +
      `${limited ? ' where "rank" <= ?' : ''} order by "player_key", "rank"`,
  );
}

function* keySlices(keys: readonly string[]): Generator<string[]> {
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += KEYS_PER_STATEMENT) yield unique.slice(i, i + KEYS_PER_STATEMENT);
}

// ---- the reads ----

/** The player's real games strictly before `beforeDate` (ET), newest first (one date's games newest id first), at most `limit` (negative: all). */
export async function historyBefore(store: Store, sport: GradedSport, playerKey: string, beforeDate: string, limit = 120): Promise<PlayerGameStat[]> {
  return (await historyForPlayers(store, sport, [playerKey], beforeDate, limit)).get(playerKey) ?? [];
}

/**
 * historyBefore for every asked player at once: each key maps to what historyBefore gives it (an
 * empty list for a player with no games). One statement per 5,000 players on PostgreSQL.
 */
export async function historyForPlayers(store: Store, sport: GradedSport, playerKeys: readonly string[], beforeDate: string, limit = 120): Promise<Map<string, PlayerGameStat[]>> {
  const out = new Map<string, PlayerGameStat[]>();
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    for (const key of playerKeys) if (!out.has(key)) out.set(key, sqliteHistory(db, sport, key, beforeDate, limit));
    return out;
  }
  for (const key of playerKeys) out.set(key, []);
  if (limit === 0) return out;
  const cols = historyColumns();
  for (const keys of keySlices(playerKeys)) {
    const text = rankedSql(columnList(cols), keys.length, limit > 0);
    const rows = await pgRows<unknown[]>(store, text, limit > 0 ? [sport, beforeDate, ...keys, limit] : [sport, beforeDate, ...keys]);
    for (const raw of rows) {
      // PostgreSQL's driver has already parsed each value (json included): no column mapping left.
      const row: Record<string, unknown> = {};
      for (let i = 0; i < cols.length; i++) row[(cols[i] as { key: string }).key] = raw[i];
      out.get(row['playerKey'] as string)?.push(toPlayerGameStat(row as Row));
    }
  }
  return out;
}

/** Team of the player's most recent real game before the date (of that date's games, the newest id); null when unknown. */
export async function latestTeam(store: Store, sport: GradedSport, playerKey: string, beforeDate: string): Promise<string | null> {
  return (await latestTeams(store, sport, [playerKey], beforeDate)).get(playerKey) ?? null;
}

/** latestTeam for every asked player at once (null for a player with no games); one statement per 5,000 players on PostgreSQL. */
export async function latestTeams(store: Store, sport: GradedSport, playerKeys: readonly string[], beforeDate: string): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (store.engine === 'sqlite') {
    const { db } = await sqliteOf(store);
    for (const key of playerKeys) if (!out.has(key)) out.set(key, sqliteTeam(db, sport, key, beforeDate));
    return out;
  }
  for (const key of playerKeys) out.set(key, null);
  for (const keys of keySlices(playerKeys)) {
    const rows = await pgRows<[string, string | null]>(store, rankedSql('"player_key", "team"', keys.length, true), [sport, beforeDate, ...keys, 1]);
    for (const [key, team] of rows) out.set(key, team);
  }
  return out;
}
