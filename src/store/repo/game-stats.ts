import type { PlayerGameStat } from '../../domain/entities.js';
import type { GradedSport } from '../../domain/sports.js';
import type { Db } from '../db.js';
import { playerGameStats } from '../schema.js';
import { bindValues, clientOf, columnList, columnsOf, insertColumns, insertSql, mapRow, prepared } from './_raw.js';

type Row = typeof playerGameStats.$inferSelect;

function toDomain(row: Row): PlayerGameStat {
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

/**
 * A writer for player-game lines: one prepared upsert, reused for every line. The caller owns the
 * transaction (an import streams its rows through one).
 */
export function gameStatsWriter(db: Db): (r: PlayerGameStat) => void {
  const cols = insertColumns(playerGameStats);
  const upsert = prepared(clientOf(db), insertSql(playerGameStats, cols, UPSERT_SUFFIX));
  return (r) => {
    upsert.run(
      bindValues(cols, {
        sport: r.sport,
        playerKey: r.playerKey,
        playerName: r.playerName,
        team: r.team,
        opponent: r.opponent,
        date: r.date,
        gameKey: r.gameId ?? r.date,
        minutes: r.minutes,
        stats: r.stats,
        extras: r.extras,
        source: r.source,
      }),
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
  return (stmt.all(sport, playerKey, beforeDate, limit) as unknown[][]).map((r) => toDomain(mapRow<Row>(cols, r)));
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
  return (stmt.all(sport, date) as unknown[][]).map((r) => toDomain(mapRow<Row>(cols, r)));
}
