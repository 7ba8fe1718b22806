import { and, eq } from 'drizzle-orm';
import type { PendingEntry, SettledEntry } from '../../../domain/settle-entries.js';
import type { SettleOps } from '../../engine-ops.js';
import type { PendingDateRow } from '../../repo/ledger-settle.js';
import type { Handle } from '../../shared-db.js';
import type { PgStore } from '../../store.js';
import { dedupe, numbered, pgRows, pgRun } from '../_raw.js';

/**
 * The same read as SQLite's (sqlite/ops/settle.ts): `due` is a boolean here and counts are bigint
 * (cast to int); text min / max compare by bytes (collate "C") as SQLite's do.
 */
const PG_PENDING_BY_DATE_SQL = numbered(
  'select "game_date", "due", (sum("late") over ())::int, min("first_late" collate "C") over (), max(case when "late" > 0 then "game_date" end collate "C") over () from (' +
    'select "game_date", "game_date" collate "C" <= ? and min("commence_time" collate "C") <= ? as "due", ' +
    'case when "game_date" collate "C" > ? then count(*)::int else (count(*) filter (where "commence_time" collate "C" > ?))::int end as "late", ' +
    'case when "game_date" collate "C" > ? then min("commence_time" collate "C") else min("commence_time" collate "C") filter (where "commence_time" collate "C" > ?) end as "first_late" ' +
    'from "ledger_entries" where ("sport" = ? and "outcome" = ?) group by "game_date") as "dates"',
);

export class PgSettleOps implements SettleOps {
  constructor(
    private readonly store: PgStore,
    private readonly handle: Handle,
  ) {}

  async pendingDates(sport: string, at: string, today: string): Promise<PendingDateRow[]> {
    const pg = await pgRows<[string, boolean, number, string | null, string | null]>(this.store, PG_PENDING_BY_DATE_SQL, [today, at, today, at, today, at, sport, 'pending']);
    return pg.map(([date, due, pending, first, last]) => [date, due ? 1 : 0, pending, first, last]);
  }

  /** The same columns in id order (the order SQLite's pending index hands them over). */
  async pendingOfDate(sport: string, date: string): Promise<PendingEntry[]> {
    const { db, t } = this.handle;
    const l = t.ledgerEntries;
    return db
      .select({
        id: l.id, eventId: l.eventId, team: l.team, playerKey: l.playerKey, statType: l.statType, line: l.line, side: l.side, lockedPrice: l.lockedPrice, lockedFairProb: l.lockedFairProb,
        closingLine: l.closingLine, closingFairProb: l.closingFairProb, closingCapturedAt: l.closingCapturedAt, commenceTime: l.commenceTime,
      })
      .from(l)
      .where(and(eq(l.outcome, 'pending'), eq(l.sport, sport), eq(l.gameDate, date)))
      .orderBy(l.id);
  }

  /** The same as SQLite's (sqlite/ops/settle.ts): each asked event's home and away teams as the sport's snapshots recorded them. */
  async eventTeams(sport: string, eventIds: readonly string[]): Promise<Array<[string, string, string]>> {
    if (eventIds.length === 0) return [];
    return pgRows<[string, string, string]>(
      this.store,
      'select distinct on (g."event_id") g."event_id", g."home_team", g."away_team" from "snapshots" s join "graded_rows" g on g."snapshot_id" = s."id" ' +
        'where s."sport" = $1 and g."event_id" = any($2::text[]) order by g."event_id", s."id" desc',
      [sport, [...eventIds]],
    );
  }

  /**
   * One UPDATE over the entries as arrays. An id given twice counts once with its first values, as
   * on SQLite, where the second write finds the entry no longer pending.
   */
  async writeSettlements(settledAt: string, entries: readonly SettledEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    const rows = dedupe(entries, (e) => String(e.id), 'first');
    const col = <K extends keyof SettledEntry>(k: K) => rows.map((e) => e[k] ?? null);
    return pgRun(
      this.store,
      'update "ledger_entries" as l set "outcome" = v.outcome, "actual_value" = v.actual_value, "settled_at" = $1, "clv" = v.clv, "clv_line" = v.clv_line, "clv_verdict" = v.clv_verdict, "clv_pct" = v.clv_pct ' +
        'from unnest($2::bigint[], $3::text[], $4::float8[], $5::float8[], $6::float8[], $7::text[], $8::float8[]) as v(id, outcome, actual_value, clv, clv_line, clv_verdict, clv_pct) ' +
        `where l."id" = v.id and l."outcome" = 'pending'`,
      [settledAt, col('id'), col('outcome'), col('actualValue'), col('clv'), col('clvLine'), col('clvVerdict'), col('clvPct')],
    );
  }
}
