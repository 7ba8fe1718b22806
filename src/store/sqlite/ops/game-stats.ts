import type { PlayerGameStat } from '../../../domain/entities.js';
import type { GradedSport } from '../../../domain/sports.js';
import { columnList, columnsOf, insertColumns, mapRow } from '../../_columns.js';
import type { GameStatOps } from '../../engine-ops.js';
import { sameDateInIdOrder, toPlayerGameStat, type GameStatRow } from '../../repo/game-stats-history.js';
import { UPSERT_SUFFIX, type GameStatsWriter } from '../../repo/game-stats-write.js';
import { playerGameStats } from '../../schema.js';
import type { Db, SqliteStore } from '../../store.js';
import { clientOf, insertSql, prepared } from '../_raw.js';

type Row = GameStatRow;

const playerRows = (db: Db, sql: string) => prepared(clientOf(db), sql).raw(true);
const historyColumns = () => columnsOf(playerGameStats);

/** The insert order of player_game_stats' columns the writer binds by position (checked against the schema). */
const WRITE_ORDER = ['sport', 'playerKey', 'playerName', 'team', 'opponent', 'date', 'gameKey', 'minutes', 'stats', 'extras', 'source'];

/** JSON text of a stats or extras value as drizzle writes it: JSON.stringify, unless the caller already has the text. */
const jsonOf = (value: unknown, text: string | undefined): string | null => (value === undefined || value === null ? null : (text ?? JSON.stringify(value)));

/** SQLite's per-line writer: the prepared upsert, reused for every line, binding what drizzle would bind. */
function sqliteGameStatsWriter(db: Db): (r: PlayerGameStat, json?: { stats: string; extras: string }) => void {
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

const resolved = Promise.resolve();

/** The player-game lines' reads as raw rows through prepared statements, and their writes one prepared upsert at a time. */
export class SqliteGameStatOps implements GameStatOps {
  constructor(private readonly store: SqliteStore) {}

  async gameStatsOn(sport: GradedSport, date: string): Promise<PlayerGameStat[]> {
    const { db } = this.store.conn;
    const cols = historyColumns();
    const stmt = playerRows(db, `select ${columnList(cols)} from "player_game_stats" where ("sport" = ? and "date" = ?) order by "player_key", "date"`);
    return sameDateInIdOrder((stmt.all(sport, date) as unknown[][]).map((r) => mapRow<Row>(cols, r)), 'asc').map(toPlayerGameStat);
  }

  async storedNamesOf(sport: GradedSport, playerKey: string): Promise<string[]> {
    const { db } = this.store.conn;
    const sql = 'select "player_name", "player_key", "date", "id" from "player_game_stats" where "sport" = ? and "player_key" = ? order by "player_key", "date"';
    const lines = (prepared(clientOf(db), sql).raw(true).all(sport, playerKey) as Array<[string, string, string, number]>).map(([name, key, date, id]) => ({ name, playerKey: key, date, id }));
    return [...new Set(sameDateInIdOrder(lines, 'asc').map((l) => l.name))];
  }

  /**
   * Every distinct name of a sport, in the order storedNames gives: a name's place is its first line
   * by (player key, date, id), so ordering the names by the least such tuple of their lines (one
   * string: key, date and the zero-padded id, split by a byte below any a key holds) is that order.
   * SQLite groups the ~24k lines itself: a third of the CPU of reading them all into JS.
   */
  async allStoredNames(sport: GradedSport): Promise<string[]> {
    const { db } = this.store.conn;
    const sql = `select "player_name", min("player_key" || char(1) || "date" || char(1) || printf('%015d', "id")) as "first" from "player_game_stats" where "sport" = ? group by "player_name" order by "first"`;
    return (prepared(clientOf(db), sql).raw(true).all(sport) as Array<[string, string]>).map(([name]) => name);
  }

  async storedLinesVersion(sport: GradedSport): Promise<string> {
    const { db } = this.store.conn;
    const row = prepared(clientOf(db), 'select count(*), max("id") from "player_game_stats" where "sport" = ?').raw(true).get(sport) as [number, number | null];
    return `${row[0]}:${row[1] ?? 0}`;
  }

  /** Each line is written as it comes: nothing is left for flush. */
  async gameStatsWriter(): Promise<GameStatsWriter> {
    return { write: sqliteGameStatsWriter(this.store.conn.db), flush: () => resolved };
  }

  async upsertGameStats(rows: readonly PlayerGameStat[]): Promise<number> {
    const s = this.store.conn;
    const client = clientOf(s.db);
    const put = sqliteGameStatsWriter(s.db);
    client.transaction(() => {
      for (const r of rows) put(r);
    })();
    return rows.length;
  }
}
