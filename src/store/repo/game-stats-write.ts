import type { PlayerGameStat } from '../../domain/entities.js';
import type { Db, Store } from '../db.js';
import { playerGameStats } from '../schema.js';
import { clientOf, insertColumns, insertSql, prepared } from './_raw.js';
import { dedupe } from './_pg-raw.js';
import { pgInsertJsonRows } from './bulk-insert.js';
import { sqliteOf } from './handle.js';
import { transaction, write } from './tx.js';

/** The player-game lines' writes (settle, backfill, history import); game-stats.ts re-exports them. */

/** The upsert: the same player-game replaces itself (a later, fuller box score wins). */
const UPSERT_SUFFIX =
  ' on conflict ("sport", "player_key", "date", "game_key") do update set "player_name" = excluded.player_name, "team" = excluded.team, "opponent" = excluded.opponent, "minutes" = excluded.minutes, "stats" = excluded.stats, "extras" = excluded.extras, "source" = excluded.source';

/** The insert order of player_game_stats' columns the writer binds by position (checked against the schema). */
const WRITE_ORDER = ['sport', 'playerKey', 'playerName', 'team', 'opponent', 'date', 'gameKey', 'minutes', 'stats', 'extras', 'source'];

/** JSON text of a stats or extras value as drizzle writes it: JSON.stringify, unless the caller already has the text. */
const jsonOf = (value: unknown, text: string | undefined): string | null => (value === undefined || value === null ? null : (text ?? JSON.stringify(value)));

/**
 * Writes player-game lines inside the caller's transaction (pass the transaction's handle). On
 * SQLite `write` runs one prepared upsert at once, binding what drizzle would bind; on PostgreSQL it
 * queues the line and the queue is written in multi-row upserts. `flush` resolves once every line
 * is written (it throws a failed write's error): call it before the transaction ends. A caller that
 * built the stats / extras JSON text itself (the importer) passes it to skip JSON.stringify.
 */
export interface GameStatsWriter {
  write(r: PlayerGameStat, json?: { stats: string; extras: string }): void;
  flush(): Promise<void>;
}

/** SQLite's per-line writer: the prepared upsert, reused for every line. */
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

export async function gameStatsWriter(store: Store): Promise<GameStatsWriter> {
  if (store.engine === 'sqlite') {
    const s = await sqliteOf(store);
    return { write: sqliteGameStatsWriter(s.db), flush: () => resolved };
  }
  // PostgreSQL: batches written in order on the one client (its queries queue), the first failure kept for flush.
  const BATCH = 1000;
  let queue: PlayerGameStat[] = [];
  let pending: Promise<void> = resolved;
  let failure: unknown = null;
  const send = (batch: PlayerGameStat[]) => {
    pending = pending.then(() => (failure === null ? pgUpsertGameStats(store, batch) : undefined)).catch((error: unknown) => void (failure ??= error));
  };
  return {
    write: (r) => {
      queue.push(r);
      if (queue.length >= BATCH) {
        send(queue);
        queue = [];
      }
    },
    flush: async () => {
      if (queue.length > 0) send(queue);
      queue = [];
      await pending;
      if (failure !== null) throw failure;
    },
  };
}

/**
 * One upsert per slice, its lines sent as one JSON parameter (bulk-insert.ts). A line repeated
 * within a slice is written once, at its first place with its last values: what SQLite's upserts,
 * one line at a time, leave.
 */
async function pgUpsertGameStats(store: Store, lines: readonly PlayerGameStat[]): Promise<void> {
  const values = lines.map((r) => ({
    sport: r.sport,
    playerKey: r.playerKey,
    playerName: r.playerName,
    team: r.team ?? null,
    opponent: r.opponent ?? null,
    date: r.date,
    gameKey: r.gameId ?? r.date,
    minutes: r.minutes ?? null,
    stats: r.stats,
    extras: r.extras,
    source: r.source,
  }));
  if (store.engine !== 'postgres') throw new Error('pgUpsertGameStats is the PostgreSQL side');
  await pgInsertJsonRows(store, playerGameStats, dedupe(values, (v) => JSON.stringify([v.sport, v.playerKey, v.date, v.gameKey]), 'last'), { suffix: UPSERT_SUFFIX });
}

/** Idempotent: the same player-game replaces itself (a later, fuller box score wins). */
export async function upsertGameStats(store: Store, rows: readonly PlayerGameStat[]): Promise<number> {
  return write(store, async (store) => {
    if (store.engine === 'sqlite') {
      const s = await sqliteOf(store);
      const client = clientOf(s.db);
      const put = sqliteGameStatsWriter(s.db);
      client.transaction(() => {
        for (const r of rows) put(r);
      })();
      return rows.length;
    }
    await transaction(store, (tx) => pgUpsertGameStats(tx, rows), { exclusive: false });
    return rows.length;
  });
}
