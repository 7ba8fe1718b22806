import type { PlayerGameStat } from '../../domain/entities.js';
import type { GradedSport } from '../../domain/sports.js';
import type { Db } from '../db.js';
import { playerGameStats } from '../schema.js';
import { clientOf, columnList, columnsOf, insertColumns, insertSql, mapRow, prepared } from './_raw.js';

type Row = typeof playerGameStats.$inferSelect;

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

/** The player's real games strictly before `beforeDate` (ET), newest first. */
export function historyBefore(db: Db, sport: GradedSport, playerKey: string, beforeDate: string, limit = 120): PlayerGameStat[] {
  const cols = columnsOf(playerGameStats);
  const stmt = playerRows(db, `select ${columnList(cols)} from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" < ?) order by "date" desc limit ?`);
  return (stmt.all(sport, playerKey, beforeDate, limit) as unknown[][]).map((r) => toPlayerGameStat(mapRow<Row>(cols, r)));
}

/** Team of the player's most recent real game before the date; null when unknown. */
export function latestTeam(db: Db, sport: GradedSport, playerKey: string, beforeDate: string): string | null {
  const stmt = playerRows(db, `select "team" from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" < ?) order by "date" desc limit ?`);
  const row = stmt.get(sport, playerKey, beforeDate, 1) as [string | null] | undefined;
  return row?.[0] ?? null;
}

export function gameStatsOn(db: Db, sport: GradedSport, date: string): PlayerGameStat[] {
  const cols = columnsOf(playerGameStats);
  const stmt = playerRows(db, `select ${columnList(cols)} from "player_game_stats" where ("sport" = ? and "date" = ?)`);
  return (stmt.all(sport, date) as unknown[][]).map((r) => toPlayerGameStat(mapRow<Row>(cols, r)));
}
