import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { PlayerGameStat } from '../../domain/entities.js';
import type { GradedSport } from '../../domain/sports.js';
import type { Db } from '../db.js';
import { playerGameStats } from '../schema.js';

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

/** Idempotent: the same player-game replaces itself (a later, fuller box score wins). */
export function upsertGameStats(db: Db, rows: readonly PlayerGameStat[]): number {
  const CHUNK = 200;
  db.transaction((tx) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      tx.insert(playerGameStats)
        .values(
          rows.slice(i, i + CHUNK).map((r) => ({
            sport: r.sport,
            playerKey: r.playerKey,
            playerName: r.playerName,
            team: r.team,
            opponent: r.opponent,
            date: r.date,
            gameKey: r.gameId ?? r.date,
            minutes: r.minutes,
            stats: r.stats as Record<string, number | null>,
            extras: r.extras,
            source: r.source,
          })),
        )
        .onConflictDoUpdate({
          target: [playerGameStats.sport, playerGameStats.playerKey, playerGameStats.date, playerGameStats.gameKey],
          set: {
            playerName: sql`excluded.player_name`,
            team: sql`excluded.team`,
            opponent: sql`excluded.opponent`,
            minutes: sql`excluded.minutes`,
            stats: sql`excluded.stats`,
            extras: sql`excluded.extras`,
            source: sql`excluded.source`,
          },
        })
        .run();
    }
  });
  return rows.length;
}

/** The player's real games strictly before `beforeDate` (ET), newest first. */
export function historyBefore(db: Db, sport: GradedSport, playerKey: string, beforeDate: string, limit = 120): PlayerGameStat[] {
  return db
    .select()
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), eq(playerGameStats.playerKey, playerKey), lt(playerGameStats.date, beforeDate)))
    .orderBy(desc(playerGameStats.date))
    .limit(limit)
    .all()
    .map(toDomain);
}

/** Team of the player's most recent real game before the date; null when unknown. */
export function latestTeam(db: Db, sport: GradedSport, playerKey: string, beforeDate: string): string | null {
  const row = db
    .select({ team: playerGameStats.team })
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), eq(playerGameStats.playerKey, playerKey), lt(playerGameStats.date, beforeDate)))
    .orderBy(desc(playerGameStats.date))
    .limit(1)
    .get();
  return row?.team ?? null;
}

export function gameStatsOn(db: Db, sport: GradedSport, date: string): PlayerGameStat[] {
  return db
    .select()
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), eq(playerGameStats.date, date)))
    .all()
    .map(toDomain);
}
