import type { PlayerGameStat } from '../../domain/entities.js';
import type { GradedSport } from '../../domain/sports.js';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import type { playerGameStats } from '../schema.js';

/**
 * What the model reads of a player's past: the games before a date (historyBefore) and the team of
 * the latest (latestTeam), for one player or for a whole slate's at once (historyForPlayers,
 * latestTeams; issue 39). game-stats.ts re-exports all of it.
 *
 * On PostgreSQL every statement is a round trip, so the batched reads are one statement for the
 * slate (pg/ops/history.ts); on SQLite they stay one prepared statement per player, run in one
 * synchronous loop (sqlite/ops/history.ts).
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

/** The player's real games strictly before `beforeDate` (ET), newest first (one date's games newest id first), at most `limit` (negative: all). */
export async function historyBefore(store: Store, sport: GradedSport, playerKey: string, beforeDate: string, limit = 120): Promise<PlayerGameStat[]> {
  return (await historyForPlayers(store, sport, [playerKey], beforeDate, limit)).get(playerKey) ?? [];
}

/**
 * historyBefore for every asked player at once: each key maps to what historyBefore gives it (an
 * empty list for a player with no games). One statement per 5,000 players on PostgreSQL.
 */
export async function historyForPlayers(store: Store, sport: GradedSport, playerKeys: readonly string[], beforeDate: string, limit = 120): Promise<Map<string, PlayerGameStat[]>> {
  return opsOf(store).history.historyForPlayers(sport, playerKeys, beforeDate, limit);
}

/** Team of the player's most recent real game before the date (of that date's games, the newest id); null when unknown. */
export async function latestTeam(store: Store, sport: GradedSport, playerKey: string, beforeDate: string): Promise<string | null> {
  return (await latestTeams(store, sport, [playerKey], beforeDate)).get(playerKey) ?? null;
}

/** latestTeam for every asked player at once (null for a player with no games); one statement per 5,000 players on PostgreSQL. */
export async function latestTeams(store: Store, sport: GradedSport, playerKeys: readonly string[], beforeDate: string): Promise<Map<string, string | null>> {
  return opsOf(store).history.latestTeams(sport, playerKeys, beforeDate);
}
