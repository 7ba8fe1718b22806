import { and, eq, inArray, isNull, max, sql, type SQL } from 'drizzle-orm';
import { normalizeName } from '../domain/names.js';
import {
  accuracyOptionsSchema,
  createRecordTally,
  RECORD_WINDOW_DAYS,
  recordScope,
  recordWindow,
  TIER_GRADES,
  tierAccuracy,
  type OutcomeCode,
  type OutcomeCounts,
  type RecordScopeInput,
  type RecordTally,
  type RecordWindow,
} from '../domain/records.js';
import { settledElsewhere, type SettledElsewhere } from '../domain/record-elsewhere.js';
import type { Store } from '../store/db.js';
import { prepared } from '../store/repo/_raw.js';
import { ledgerEntries } from '../store/schema.js';

type Narrowing = Pick<RecordScopeInput, 'team' | 'player' | 'sport'>;

/**
 * Public-record rows of the window (and scope): SQL narrows so a team or player record does
 * not read the whole window; the pure domain functions still decide what counts.
 */
function scopeWhere(scope: Narrowing): SQL[] {
  const where: SQL[] = [isNull(ledgerEntries.userId)];
  if (scope.sport) where.push(eq(ledgerEntries.sport, scope.sport));
  if (scope.team) where.push(sql`upper(${ledgerEntries.team}) = ${scope.team.trim().toUpperCase()}`);
  if (scope.player) where.push(eq(ledgerEntries.playerKey, normalizeName(scope.player).key));
  return where;
}

/**
 * The record's columns as tally codes, computed by SQLite: the tier index (-1 for no tier), the
 * outcome code (4 for anything but hit, miss, push, void), the stored verdict, p_win and the
 * locked price. No row object and no string is built for a row in the normal case.
 */
const TIER_CASE = `case "grade" ${TIER_GRADES.map((g, i) => `when '${g}' then ${i}`).join(' ')} else -1 end`;
const OUTCOME_CASE = `case "outcome" when 'hit' then 0 when 'miss' then 1 when 'push' then 2 when 'void' then 3 else 4 end`;

/**
 * The tally the record aggregate function adds into. SQLite calls the function synchronously inside
 * one statement, so the tally of the statement running is the one set just before it.
 */
let activeTally: RecordTally | null = null;
const withAggregate = new WeakSet<object>();
const AGGREGATE = 'propgrade_record_tally';

/** Registers the record tally as an SQLite aggregate function on the store's connection, once. */
function registerAggregate(store: Store): void {
  if (withAggregate.has(store.sqlite)) return;
  const step = (total: number, tier: number, outcome: OutcomeCode, verdict: string | null, pWin: number | null, lockedPrice: number | null) => {
    (activeTally as RecordTally).add(tier, outcome, verdict, pWin, lockedPrice);
    return total;
  };
  // The typings know one-argument steps only; better-sqlite3 passes every SQL argument (arity from step.length).
  store.sqlite.aggregate(AGGREGATE, { start: 0, step: step as unknown as (total: number, next: number) => number, result: () => 0, deterministic: false, directOnly: true });
  withAggregate.add(store.sqlite);
}

/**
 * The record over the window's public rows (and scope), aggregated inside SQLite: the store filters
 * the rows (the same filter as ever, so the same rows in the same order, and the same float sums),
 * codes each one, and an aggregate function adds it to the tally. No row is ever built or held.
 */
function tallyWindow(store: Store, now: Date, days: number, date: string | undefined, scope: Narrowing = {}): RecordTally {
  const w = recordWindow(now, days, date);
  const where = ['"user_id" is null'];
  const args: unknown[] = [];
  if (scope.sport) {
    where.push('"sport" = ?');
    args.push(scope.sport);
  }
  if (scope.team) {
    where.push('upper("team") = ?');
    args.push(scope.team.trim().toUpperCase());
  }
  if (scope.player) {
    where.push('"player_key" = ?');
    args.push(normalizeName(scope.player).key);
  }
  where.push('"game_date" >= ?', '"game_date" <= ?');
  args.push(w.from, w.to);
  registerAggregate(store);
  const stmt = prepared(store.sqlite, `select ${AGGREGATE}(${TIER_CASE}, ${OUTCOME_CASE}, case when "close_method" = 'own_book_devig' then null else "clv_verdict" end, "p_win", "locked_price") from "ledger_entries" where (${where.join(' and ')})`);
  const tally = createRecordTally();
  activeTally = tally;
  try {
    stmt.get(...args);
  } finally {
    activeTally = null;
  }
  return tally;
}

const SETTLED = ['hit', 'miss', 'push', 'void'] as const;

function settledIn(counts: OutcomeCounts): number {
  return counts.hits + counts.misses + counts.pushes + counts.voids;
}

/**
 * When the window holds no settled entry: the settled public entries of the same scope elsewhere
 * (how many, the latest date) so the reader is told where the record is. Null when there are none.
 */
function elsewhere(store: Store, window: RecordWindow, days: number, scope: Narrowing): SettledElsewhere | null {
  const where = [...scopeWhere(scope), inArray(ledgerEntries.outcome, [...SETTLED])];
  const totals = store.db
    .select({ settled: sql<number>`count(*)`, latestGameDate: max(ledgerEntries.gameDate) })
    .from(ledgerEntries)
    .where(and(...where))
    .get();
  if (!totals || totals.settled === 0 || totals.latestGameDate === null) return null;
  const latest = store.db
    .select({ at: max(ledgerEntries.settledAt) })
    .from(ledgerEntries)
    .where(and(...where, eq(ledgerEntries.gameDate, totals.latestGameDate)))
    .get();
  return settledElsewhere(window, days, { settled: totals.settled, latestGameDate: totals.latestGameDate, latestSettledAt: latest?.at ?? null });
}

export function readModelRecord(store: Store, scope: RecordScopeInput) {
  const days = scope.days ?? RECORD_WINDOW_DAYS;
  const { window, scope: shown } = recordScope(scope);
  const tally = tallyWindow(store, scope.now, days, scope.date, scope);
  const aggregate = tally.aggregate(window, shown);
  // The tiers lead: each is read against its own claim before the all-entries aggregate.
  return {
    tiers: tally.tiers(),
    aggregate,
    /** Set only when the window holds no settled entry and the scope has settled entries elsewhere. */
    settledElsewhere: settledIn(aggregate.counts) === 0 ? elsewhere(store, aggregate.window, days, scope) : null,
  };
}

export function readAccuracy(store: Store, now: Date, days = RECORD_WINDOW_DAYS, sport?: string) {
  const scope = sport ? { sport } : {};
  const opts = accuracyOptionsSchema.parse({ now, days, ...scope });
  const tally = tallyWindow(store, now, days, undefined, scope);
  const accuracy = tierAccuracy(recordWindow(opts.now, opts.days), opts.minSample, tally.tiers());
  const settled = settledIn(tally.aggregate(accuracy.window, { team: null, player: null, sport: sport ?? null }).counts) > 0;
  return { ...accuracy, settledElsewhere: settled ? null : elsewhere(store, accuracy.window, days, scope) };
}
