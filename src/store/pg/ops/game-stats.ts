import { and, count, eq, max } from 'drizzle-orm';
import type { PlayerGameStat } from '../../../domain/entities.js';
import type { GradedSport } from '../../../domain/sports.js';
import type { GameStatOps } from '../../engine-ops.js';
import { pgBulkInsert } from '../bulk-insert.js';
import { JsonText } from '../../_columns.js';
import { toPlayerGameStat } from '../../repo/game-stats-history.js';
import { UPSERT_SUFFIX, type GameStatsWriter } from '../../repo/game-stats-write.js';
import { playerGameStats } from '../../schema.js';
import type { Handle } from '../../shared-db.js';
import type { PgStore } from '../../store.js';
import { byBytes, dedupe, pgRows } from '../_raw.js';

const resolved = Promise.resolve();

/** A line and, when the importer made them, its stats and extras JSON texts (written as SQLite's writer writes them). */
type Line = { r: PlayerGameStat; json?: { stats: string; extras: string } | undefined };

/**
 * One upsert per slice, its lines sent one text per column (pg/bulk-insert.ts). A line repeated
 * within a slice is written once, at its first place with its last values: what SQLite's upserts,
 * one line at a time, leave.
 */
async function pgUpsertGameStats(store: PgStore, lines: readonly Line[]): Promise<void> {
  const values = lines.map(({ r, json }) => ({
    sport: r.sport,
    playerKey: r.playerKey,
    playerName: r.playerName,
    team: r.team ?? null,
    opponent: r.opponent ?? null,
    date: r.date,
    gameKey: r.gameId ?? r.date,
    minutes: r.minutes ?? null,
    stats: json === undefined ? r.stats : new JsonText(json.stats),
    extras: json === undefined ? r.extras : new JsonText(json.extras),
    source: r.source,
  }));
  await pgBulkInsert(store, playerGameStats, dedupe(values, (v) => JSON.stringify([v.sport, v.playerKey, v.date, v.gameKey]), 'last'), { suffix: UPSERT_SUFFIX });
}

/** The player-game lines' reads in SQLite's orders (text by bytes), and their writes batched into multi-row upserts. */
export class PgGameStatOps implements GameStatOps {
  constructor(
    private readonly store: PgStore,
    private readonly handle: Handle,
  ) {}

  async gameStatsOn(sport: GradedSport, date: string): Promise<PlayerGameStat[]> {
    const { db, t } = this.handle;
    const g = t.playerGameStats;
    const rows = await db.select().from(g).where(and(eq(g.sport, sport), eq(g.date, date))).orderBy(byBytes(g.playerKey), g.id);
    return rows.map(toPlayerGameStat);
  }

  async storedNamesOf(sport: GradedSport, playerKey: string): Promise<string[]> {
    const { db, t } = this.handle;
    const g = t.playerGameStats;
    const lines = await db.select({ name: g.playerName }).from(g).where(and(eq(g.sport, sport), eq(g.playerKey, playerKey))).orderBy(g.date, g.id);
    return [...new Set(lines.map((l) => l.name))];
  }

  /** The same tuple string as SQLite's, compared by bytes as SQLite compares it. */
  async allStoredNames(sport: GradedSport): Promise<string[]> {
    const text =
      `select "player_name" from (select "player_name", min(("player_key" || chr(1) || "date" || chr(1) || lpad("id"::text, 15, '0')) collate "C") as "first" ` +
      `from "player_game_stats" where "sport" = $1 group by "player_name") as "names" order by "first" collate "C"`;
    return (await pgRows<[string]>(this.store, text, [sport])).map(([name]) => name);
  }

  async storedLinesVersion(sport: GradedSport): Promise<string> {
    const { db, t } = this.handle;
    const [row] = await db.select({ n: count(), id: max(t.playerGameStats.id) }).from(t.playerGameStats).where(eq(t.playerGameStats.sport, sport));
    return `${row?.n ?? 0}:${row?.id ?? 0}`;
  }

  /** Batches written in order on the one client (its queries queue), the first failure kept for flush. */
  async gameStatsWriter(): Promise<GameStatsWriter> {
    const store = this.store;
    // As many lines per statement as the bulk insert takes: the parse is synchronous, so every batch goes out once it ends.
    const BATCH = 5000;
    let queue: Line[] = [];
    let pending: Promise<void> = resolved;
    let failure: unknown = null;
    const send = (batch: Line[]) => {
      pending = pending.then(() => (failure === null ? pgUpsertGameStats(store, batch) : undefined)).catch((error: unknown) => void (failure ??= error));
    };
    return {
      write: (r, json) => {
        queue.push({ r, json });
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

  /** On the transaction's handle repo/tx.ts `write` gives it, so the whole list commits at once. */
  async upsertGameStats(rows: readonly PlayerGameStat[]): Promise<number> {
    await pgUpsertGameStats(
      this.store,
      rows.map((r) => ({ r })),
    );
    return rows.length;
  }
}
