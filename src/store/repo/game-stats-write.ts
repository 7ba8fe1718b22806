import type { PlayerGameStat } from '../../domain/entities.js';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import { write } from './tx.js';

/** The player-game lines' writes (settle, backfill, history import); game-stats.ts re-exports them. */

/** The upsert: the same player-game replaces itself (a later, fuller box score wins). */
export const UPSERT_SUFFIX =
  ' on conflict ("sport", "player_key", "date", "game_key") do update set "player_name" = excluded.player_name, "team" = excluded.team, "opponent" = excluded.opponent, "minutes" = excluded.minutes, "stats" = excluded.stats, "extras" = excluded.extras, "source" = excluded.source';

/**
 * Writes player-game lines inside the caller's transaction (pass the transaction's handle). On
 * SQLite `write` runs one prepared upsert at once, binding what drizzle would bind; on PostgreSQL it
 * encodes the line for COPY, and flush sends them all (a first load of a sport's lines copied
 * straight in: pg/ops/game-stats.ts). `flush` resolves once every line
 * is written (it throws a failed write's error): call it before the transaction ends. A caller that
 * built the stats / extras JSON text itself (the importer) passes it to skip JSON.stringify.
 */
export interface GameStatsWriter {
  write(r: PlayerGameStat, json?: { stats: string; extras: string }): void;
  flush(): Promise<void>;
}

export async function gameStatsWriter(store: Store): Promise<GameStatsWriter> {
  return opsOf(store).gameStats.gameStatsWriter();
}

/** Idempotent: the same player-game replaces itself (a later, fuller box score wins). */
export async function upsertGameStats(store: Store, rows: readonly PlayerGameStat[]): Promise<number> {
  return write(store, (tx) => opsOf(tx).gameStats.upsertGameStats(rows));
}
