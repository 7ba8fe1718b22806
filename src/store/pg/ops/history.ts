import type { PlayerGameStat } from '../../../domain/entities.js';
import type { GradedSport } from '../../../domain/sports.js';
import { columnList, columnsOf } from '../../_columns.js';
import type { HistoryOps } from '../../engine-ops.js';
import { toPlayerGameStat, type GameStatRow } from '../../repo/game-stats-history.js';
import { playerGameStats } from '../../schema.js';
import type { PgStore } from '../../store.js';
import { numbered, pgRows } from '../_raw.js';

type Row = GameStatRow;

/**
 * Every statement is a round trip: a slate's run asked each player's history and team one at a
 * time (1,284 of a `snapshot all`'s 1,627 statements), so here the batched reads are one statement
 * for the slate, each player's lines ranked newest first by a window function.
 */

const historyColumns = () => columnsOf(playerGameStats);

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

export class PgHistoryOps implements HistoryOps {
  constructor(private readonly store: PgStore) {}

  async historyForPlayers(sport: GradedSport, playerKeys: readonly string[], beforeDate: string, limit: number): Promise<Map<string, PlayerGameStat[]>> {
    const out = new Map<string, PlayerGameStat[]>();
    for (const key of playerKeys) out.set(key, []);
    if (limit === 0) return out;
    const cols = historyColumns();
    for (const keys of keySlices(playerKeys)) {
      const text = rankedSql(columnList(cols), keys.length, limit > 0);
      const rows = await pgRows<unknown[]>(this.store, text, limit > 0 ? [sport, beforeDate, ...keys, limit] : [sport, beforeDate, ...keys]);
      for (const raw of rows) {
        // PostgreSQL's driver has already parsed each value (json included): no column mapping left.
        const row: Record<string, unknown> = {};
        for (let i = 0; i < cols.length; i++) row[(cols[i] as { key: string }).key] = raw[i];
        out.get(row['playerKey'] as string)?.push(toPlayerGameStat(row as Row));
      }
    }
    return out;
  }

  async latestTeams(sport: GradedSport, playerKeys: readonly string[], beforeDate: string): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    for (const key of playerKeys) out.set(key, null);
    for (const keys of keySlices(playerKeys)) {
      const rows = await pgRows<[string, string | null]>(this.store, rankedSql('"player_key", "team"', keys.length, true), [sport, beforeDate, ...keys, 1]);
      for (const [key, team] of rows) out.set(key, team);
    }
    return out;
  }
}
