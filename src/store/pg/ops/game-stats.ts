import { and, count, eq, max } from 'drizzle-orm';
import type { PlayerGameStat } from '../../../domain/entities.js';
import type { GradedSport } from '../../../domain/sports.js';
import type { GameStatOps } from '../../engine-ops.js';
import { pgCopyEncoded, tableEncoder } from '../bulk-insert.js';
import { JsonText } from '../../_columns.js';
import { toPlayerGameStat } from '../../repo/game-stats-history.js';
import { UPSERT_SUFFIX, type GameStatsWriter } from '../../repo/game-stats-write.js';
import { playerGameStats } from '../../schema.js';
import type { Handle } from '../../shared-db.js';
import type { PgStore } from '../../store.js';
import { byBytes, pgRows, pgRun } from '../_raw.js';

/** A line and, when the importer made them, its stats and extras JSON texts (written as SQLite's writer writes them). */
type Line = { r: PlayerGameStat; json?: { stats: string; extras: string } | undefined };

/** The line's row as the SQLite table's drizzle keys name its columns (the bulk insert's input). */
function rowOf({ r, json }: Line): Record<string, unknown> {
  return {
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
  };
}

/** A line's key in the table's unique index; NUL, which no stored text holds, between its parts. */
const lineKey = (v: Record<string, unknown>) => `${v['sport'] as string}\0${v['playerKey'] as string}\0${v['date'] as string}\0${v['gameKey'] as string}`;

/** Lines from which a write is a bulk load worth a table lock (a history import, not a night's box scores). */
const BULK_LOAD_LINES = 5000;

/** The unique key's columns: a line repeating one is written once (last values, first place). */
const KEY_COLUMNS = ['sport', 'player_key', 'date', 'game_key'] as const;

/**
 * Lines encoded for COPY as they are added (pg/copy-binary.ts), so no line object outlives its
 * add: held whole, a history file's 23,822 lines and their JSON survived every young-generation
 * collection of the parse (~190 ms of GC). What is kept: the stream, the lines' sports, whether a
 * key came twice (the copy then deduplicates: last values at the first place, as SQLite's
 * one-line-at-a-time upserts leave them).
 */
class LineBatch {
  private readonly encoder = tableEncoder(playerGameStats);
  private readonly keys = new Set<string>();
  private readonly sports = new Set<string>();
  private repeats = false;
  private refused: string | null = null;

  add(line: Line): void {
    const row = rowOf(line);
    const key = lineKey(row);
    if (this.keys.has(key)) this.repeats = true;
    else this.keys.add(key);
    this.sports.add(line.r.sport);
    if (this.refused === null && !this.encoder.add(row)) this.refused = `player-game line ${key.replaceAll('\0', ' ')}: a value its column's PostgreSQL type cannot hold`;
  }

  /**
   * A bulk load inside a transaction, when no line of the lines' sports is stored yet, is copied
   * straight into the table (none can conflict; an upsert checks every line against the key first:
   * ~300 of a fresh store's 23,822-line NBA seed import's server ms, against ~100 for the copy).
   * The table lock, held to the transaction's end, keeps another writer from storing a line
   * between the check and the copy; readers are not blocked. Otherwise, or outside a transaction,
   * the lines are upserted.
   */
  async write(store: PgStore): Promise<void> {
    if (this.refused !== null) throw new Error(this.refused);
    const lines = this.encoder.rows;
    if (lines === 0) return;
    const chunks = [this.encoder.finish()];
    const dedupeOn = this.repeats ? KEY_COLUMNS : undefined;
    if (lines >= BULK_LOAD_LINES && store.pg.client) {
      await pgRun(store, 'lock table "player_game_stats" in share row exclusive mode');
      const stored = await pgRows(store, 'select 1 from "player_game_stats" where "sport" = any($1::text[]) limit 1', [[...this.sports]]);
      if (stored.length === 0) {
        await pgCopyEncoded(store, playerGameStats, chunks, { dedupeOn });
        return;
      }
    }
    await pgCopyEncoded(store, playerGameStats, chunks, { suffix: UPSERT_SUFFIX, dedupeOn });
  }
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

  /** The lines go out at flush: the parse that feeds an import is synchronous, so nothing could go out before it ends anyway. */
  async gameStatsWriter(): Promise<GameStatsWriter> {
    const store = this.store;
    let batch = new LineBatch();
    return {
      write: (r, json) => batch.add({ r, json }),
      flush: async () => {
        const full = batch;
        batch = new LineBatch();
        await full.write(store);
      },
    };
  }

  /** On the transaction's handle repo/tx.ts `write` gives it, so the whole list commits at once. */
  async upsertGameStats(rows: readonly PlayerGameStat[]): Promise<number> {
    const batch = new LineBatch();
    for (const r of rows) batch.add({ r });
    await batch.write(this.store);
    return rows.length;
  }
}
