import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { CloseContext } from '../../../domain/settlement.js';
import type { LedgerOps } from '../../engine-ops.js';
import { contextsOf, snapshotTimes } from '../../repo/close-contexts.js';
import type { ClosingCapture, LedgerEntry, NewClosingPrice, NewLedgerEntry, PinnacleCapture } from '../../repo/ledger.js';
import type { Handle } from '../../shared-db.js';
import type { PgStore } from '../../store.js';
import { byBytes, chunks, dedupe, pgRun } from '../_raw.js';
import { pgBulkInsert } from '../bulk-insert.js';
import * as sqliteSchema from '../../schema.js';

/** The ledger's bulk reads and writes as multi-row statements: each one is a round trip. */
export class PgLedgerOps implements LedgerOps {
  constructor(
    private readonly store: PgStore,
    private readonly handle: Handle,
  ) {}

  /** Multi-row inserts in the entries' order; a repeat within one is skipped as on SQLite. */
  async insertLedgerEntries(entries: readonly NewLedgerEntry[]): Promise<number> {
    return pgBulkInsert(this.store, sqliteSchema.ledgerEntries, entries, { suffix: ' on conflict do nothing' });
  }

  async publicEntriesForEvents(eventIds: readonly string[]): Promise<LedgerEntry[]> {
    const { db, t } = this.handle;
    const l = t.ledgerEntries;
    const out: LedgerEntry[] = [];
    for (const ids of chunks(eventIds, 5000)) {
      out.push(...(await db.select().from(l).where(and(isNull(l.userId), inArray(l.eventId, ids))).orderBy(byBytes(l.lockedAt), l.id)));
    }
    if (eventIds.length > 5000) out.sort((a, b) => (a.lockedAt < b.lockedAt ? -1 : a.lockedAt > b.lockedAt ? 1 : a.id - b.id));
    return out;
  }

  /** In the order SQLite's pending index (outcome, sport, game date) hands the rows over. */
  async pendingBeforeStart(sport: string, now: Date): Promise<LedgerEntry[]> {
    const { db, t } = this.handle;
    const l = t.ledgerEntries;
    return db
      .select()
      .from(l)
      .where(and(eq(l.sport, sport), eq(l.outcome, 'pending'), gt(l.commenceTime, now.toISOString())))
      .orderBy(byBytes(l.gameDate), l.id);
  }

  /** One UPDATE over the captures as arrays; an entry captured twice keeps the last, as on SQLite. */
  async writeClosings(captures: readonly ClosingCapture[], pinnacle: readonly PinnacleCapture[]): Promise<void> {
    if (captures.length > 0) {
      const rows = dedupe(captures, (c) => String(c.entryId), 'last');
      const col = <K extends keyof ClosingCapture>(k: K) => rows.map((c) => c[k] ?? null);
      await pgRun(
        this.store,
        'update "ledger_entries" as l set "closing_line" = v.closing_line, "closing_price" = v.closing_price, "closing_fair_prob" = v.closing_fair_prob, "closing_book" = v.closing_book, ' +
          `"closing_fair_source" = v.closing_fair_source, "close_method" = 'one_yardstick', "closing_captured_at" = v.captured_at, "close_lead_minutes" = v.close_lead_minutes, "close_books" = v.close_books ` +
          'from unnest($1::bigint[], $2::float8[], $3::float8[], $4::float8[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::text[]) ' +
          'as v(id, closing_line, closing_price, closing_fair_prob, closing_book, closing_fair_source, captured_at, close_lead_minutes, close_books) where l."id" = v.id',
        [col('entryId'), col('closingLine'), col('closingPrice'), col('closingFairProb'), col('closingBook'), col('closingFairSource'), col('capturedAt'), col('closeLeadMinutes'), col('closeBooks')],
      );
    }
    if (pinnacle.length === 0) return;
    const pins = dedupe(pinnacle, (p) => String(p.entryId), 'last');
    const pcol = <K extends keyof PinnacleCapture>(k: K) => pins.map((p) => p[k] ?? null);
    await pgRun(
      this.store,
      'update "ledger_entries" as l set "pinnacle_closing_fair_prob" = v.fair, "pinnacle_close_lead_minutes" = v.lead, "pinnacle_clv" = v.clv, "pinnacle_clv_pct" = v.clv_pct, "pinnacle_clv_verdict" = v.verdict ' +
        'from unnest($1::bigint[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::text[]) as v(id, fair, lead, clv, clv_pct, verdict) where l."id" = v.id',
      [pcol('entryId'), pcol('fairProb'), pcol('leadMinutes'), pcol('clv'), pcol('clvPct'), pcol('verdict')],
    );
  }

  /** Multi-row upserts; a price repeated within one keeps its first place and last values, as SQLite's one-by-one upserts leave it. */
  async upsertClosingPrices(rows: readonly NewClosingPrice[]): Promise<void> {
    const unique = dedupe(rows, (r) => JSON.stringify([r.eventId, r.playerKey, r.statType, r.side, r.line]), 'last');
    await pgBulkInsert(this.store, sqliteSchema.closingPrices, unique, { suffix: ' on conflict ("event_id", "player_key", "stat_type", "side", "line") do update set "price" = excluded.price, "fair_prob" = excluded.fair_prob, "book" = excluded.book, "captured_at" = excluded.captured_at, "commence_time" = excluded.commence_time, "close_lead_minutes" = excluded.close_lead_minutes' });
  }


  /** The (snapshot, event) pairs that can be asked about, read in one query up front. */
  async closeContexts(need: readonly LedgerEntry[], sports: string[]): Promise<Map<number, CloseContext>> {
    const { db, t } = this.handle;
    const bySport = snapshotTimes(await db.select({ id: t.snapshots.id, sport: t.snapshots.sport, takenAt: t.snapshots.takenAt }).from(t.snapshots).where(inArray(t.snapshots.sport, sports)));
    const asked = new Set<number>();
    contextsOf(need, bySport, (snapshotId) => {
      asked.add(snapshotId);
      return false;
    });
    const pairs = new Set<string>();
    const eventIds = [...new Set(need.map((e) => e.eventId))];
    for (const ids of chunks([...asked], 5000)) {
      const g = t.gradedRows;
      const rows = await db.selectDistinct({ snapshotId: g.snapshotId, eventId: g.eventId }).from(g).where(and(inArray(g.snapshotId, ids), inArray(g.eventId, eventIds)));
      for (const r of rows) pairs.add(`${r.snapshotId}|${r.eventId}`);
    }
    return contextsOf(need, bySport, (snapshotId, eventId) => pairs.has(`${snapshotId}|${eventId}`));
  }
}
