import { and, eq, inArray, sql } from 'drizzle-orm';
import type { CloseContext } from '../../../domain/settlement.js';
import { bindValues, columnList, columnsOf, insertColumns, mapRow } from '../../_columns.js';
import type { LedgerOps } from '../../engine-ops.js';
import { contextsOf, snapshotTimes } from '../../repo/close-contexts.js';
import type { ClosingCapture, LedgerEntry, NewClosingPrice, NewLedgerEntry, PinnacleCapture } from '../../repo/ledger.js';
import { closingPrices, gradedRows, ledgerEntries, snapshots } from '../../schema.js';
import type { SqliteStore } from '../../store.js';
import { clientOf, insertSql, prepared } from '../_raw.js';

/** The ledger's hot reads and writes as prepared statements, one run per row. */
export class SqliteLedgerOps implements LedgerOps {
  constructor(private readonly store: SqliteStore) {}

  async insertLedgerEntries(entries: readonly NewLedgerEntry[]): Promise<number> {
    const { db } = this.store.conn;
    const cols = insertColumns(ledgerEntries);
    const insert = prepared(clientOf(db), insertSql(ledgerEntries, cols, ' on conflict do nothing'));
    let inserted = 0;
    for (const e of entries) inserted += insert.run(bindValues(cols, e)).changes;
    return inserted;
  }

  async publicEntriesForEvents(eventIds: readonly string[]): Promise<LedgerEntry[]> {
    const { db } = this.store.conn;
    const cols = columnsOf(ledgerEntries);
    const client = clientOf(db);
    // In chunks (SQLite caps bound parameters), then in the one order the caller reads them by.
    const CHUNK = 500;
    const out: LedgerEntry[] = [];
    for (let i = 0; i < eventIds.length; i += CHUNK) {
      const ids = eventIds.slice(i, i + CHUNK);
      // coalesce(user_id, 0) = 0 says nothing user_id is null does not, but lets SQLite seek the
      // (coalesce(user_id, 0), event_id, ...) unique index instead of scanning the whole ledger.
      const stmt = prepared(
        client,
        `select ${columnList(cols)} from "ledger_entries" where (coalesce("user_id", 0) = 0 and "user_id" is null and "event_id" in (${ids.map(() => '?').join(', ')})) order by "locked_at", "id"`,
      ).raw(true);
      for (const r of stmt.all(...ids) as unknown[][]) out.push(mapRow<LedgerEntry>(cols, r));
    }
    if (eventIds.length > CHUNK) out.sort((a, b) => (a.lockedAt < b.lockedAt ? -1 : a.lockedAt > b.lockedAt ? 1 : a.id - b.id));
    return out;
  }

  async pendingBeforeStart(sport: string, now: Date): Promise<LedgerEntry[]> {
    const { db } = this.store.conn;
    const cols = columnsOf(ledgerEntries);
    const stmt = prepared(clientOf(db), `select ${columnList(cols)} from "ledger_entries" where ("sport" = ? and "outcome" = ? and "commence_time" > ?)`).raw(true);
    return (stmt.all(sport, 'pending', now.toISOString()) as unknown[][]).map((r) => mapRow<LedgerEntry>(cols, r));
  }

  async writeClosings(captures: readonly ClosingCapture[], pinnacle: readonly PinnacleCapture[]): Promise<void> {
    const { db } = this.store.conn;
    const update = prepared(
      clientOf(db),
      'update "ledger_entries" set "closing_line" = ?, "closing_price" = ?, "closing_fair_prob" = ?, "closing_book" = ?, "closing_fair_source" = ?, "close_method" = \'one_yardstick\', "closing_captured_at" = ?, "close_lead_minutes" = ?, "close_books" = ? where "id" = ?',
    );
    for (const c of captures) update.run(c.closingLine, c.closingPrice, c.closingFairProb, c.closingBook, c.closingFairSource, c.capturedAt, c.closeLeadMinutes, c.closeBooks, c.entryId);
    if (pinnacle.length === 0) return;
    const pin = prepared(
      clientOf(db),
      'update "ledger_entries" set "pinnacle_closing_fair_prob" = ?, "pinnacle_close_lead_minutes" = ?, "pinnacle_clv" = ?, "pinnacle_clv_pct" = ?, "pinnacle_clv_verdict" = ? where "id" = ?',
    );
    for (const p of pinnacle) pin.run(p.fairProb, p.leadMinutes, p.clv, p.clvPct, p.verdict, p.entryId);
  }

  /** One prepared upsert reused for every price (a 4k-row slate is 4k cheap runs, not 4k query builds). */
  async upsertClosingPrices(rows: readonly NewClosingPrice[]): Promise<void> {
    const { db } = this.store.conn;
    const cols = insertColumns(closingPrices);
    const upsert = prepared(
      clientOf(db),
      insertSql(
        closingPrices,
        cols,
        ' on conflict ("event_id", "player_key", "stat_type", "side", "line") do update set "price" = excluded.price, "fair_prob" = excluded.fair_prob, "book" = excluded.book, "captured_at" = excluded.captured_at, "commence_time" = excluded.commence_time, "close_lead_minutes" = excluded.close_lead_minutes',
      ),
    );
    for (const r of rows) upsert.run(bindValues(cols, r));
  }

  /** Whether a snapshot carried a game is asked one (snapshot, event) at a time, of a prepared probe, as the count needs it. */
  async closeContexts(need: readonly LedgerEntry[], sports: string[]): Promise<Map<number, CloseContext>> {
    const { db } = this.store.conn;
    const bySport = snapshotTimes(db.select({ id: snapshots.id, sport: snapshots.sport, takenAt: snapshots.takenAt }).from(snapshots).where(inArray(snapshots.sport, sports)).all());
    const carried = new Map<string, boolean>();
    const carriesStmt = db
      .select({ id: gradedRows.id })
      .from(gradedRows)
      .where(and(eq(gradedRows.snapshotId, sql.placeholder('snapshotId')), eq(gradedRows.eventId, sql.placeholder('eventId'))))
      .limit(1)
      .prepare();
    return contextsOf(need, bySport, (snapshotId, eventId) => {
      const key = `${snapshotId}|${eventId}`;
      let hit = carried.get(key);
      if (hit === undefined) {
        hit = carriesStmt.get({ snapshotId, eventId }) !== undefined;
        carried.set(key, hit);
      }
      return hit;
    });
  }
}
