import type Database from 'better-sqlite3';
import type { PlayerGameStat } from '../../../domain/entities.js';
import type { GradedSport } from '../../../domain/sports.js';
import { columnList, columnsOf, mapRow } from '../../_columns.js';
import type { HistoryOps } from '../../engine-ops.js';
import { sameDateInIdOrder, toPlayerGameStat, type GameStatRow } from '../../repo/game-stats-history.js';
import { playerGameStats } from '../../schema.js';
import type { Db, SqliteStore } from '../../store.js';
import { clientOf, prepared } from '../_raw.js';

type Row = GameStatRow;

/**
 * A player's history read one player at a time through prepared statements, in one synchronous
 * loop: there is no round trip to save, and the one-statement read PostgreSQL uses sorts every line
 * read (about 1.4x the time of the per-player reads for a 160-player slate, docs/scale.md).
 */

const historyColumns = () => columnsOf(playerGameStats);
const playerRows = (db: Db, sql: string) => prepared(clientOf(db), sql).raw(true);

const HISTORY_SQL = `select ${columnList(historyColumns())} from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" < ?) order by "date" desc limit ?`;
const DATE_SQL = `select ${columnList(historyColumns())} from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" = ?)`;
const TEAM_SQL = 'select "team" from "player_game_stats" where ("sport" = ? and "player_key" = ? and "date" < ?) order by "date" desc, "id" desc limit ?';

/** One player's history (see historyBefore), read through prepared statements. */
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

export class SqliteHistoryOps implements HistoryOps {
  constructor(private readonly store: SqliteStore) {}

  async historyForPlayers(sport: GradedSport, playerKeys: readonly string[], beforeDate: string, limit: number): Promise<Map<string, PlayerGameStat[]>> {
    const out = new Map<string, PlayerGameStat[]>();
    const { db } = this.store.conn;
    for (const key of playerKeys) if (!out.has(key)) out.set(key, sqliteHistory(db, sport, key, beforeDate, limit));
    return out;
  }

  async latestTeams(sport: GradedSport, playerKeys: readonly string[], beforeDate: string): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    const { db } = this.store.conn;
    for (const key of playerKeys) if (!out.has(key)) out.set(key, sqliteTeam(db, sport, key, beforeDate));
    return out;
  }
}
