import { and, eq, gte, inArray, isNull, lte, max, sql, type SQL } from 'drizzle-orm';
import { normalizeName } from '../domain/names.js';
import {
  accuracyByTier,
  modelAggregate,
  RECORD_WINDOW_DAYS,
  recordWindow,
  settledElsewhere,
  tierCalibration,
  type OutcomeCounts,
  type RecordScopeInput,
  type RecordWindow,
  type SettledElsewhere,
} from '../domain/records.js';
import type { Store } from '../store/db.js';
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

function windowRows(store: Store, now: Date, days: number, date: string | undefined, scope: Narrowing = {}) {
  const w = recordWindow(now, days, date);
  const where: SQL[] = [...scopeWhere(scope), gte(ledgerEntries.gameDate, w.from), lte(ledgerEntries.gameDate, w.to)];
  return store.db
    .select({
      userId: ledgerEntries.userId,
      sport: ledgerEntries.sport,
      gameDate: ledgerEntries.gameDate,
      team: ledgerEntries.team,
      player: ledgerEntries.player,
      playerKey: ledgerEntries.playerKey,
      grade: ledgerEntries.grade,
      outcome: ledgerEntries.outcome,
      pWin: ledgerEntries.pWin,
      clvVerdict: ledgerEntries.clvVerdict,
      lockedPrice: ledgerEntries.lockedPrice,
    })
    .from(ledgerEntries)
    .where(and(...where))
    .all();
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
  const rows = windowRows(store, scope.now, days, scope.date, scope);
  const aggregate = modelAggregate(rows, scope);
  return {
    aggregate,
    tiers: tierCalibration(rows, scope),
    /** Set only when the window holds no settled entry and the scope has settled entries elsewhere. */
    settledElsewhere: settledIn(aggregate.counts) === 0 ? elsewhere(store, aggregate.window, days, scope) : null,
  };
}

export function readAccuracy(store: Store, now: Date, days = RECORD_WINDOW_DAYS, sport?: string) {
  const scope = sport ? { sport } : {};
  const rows = windowRows(store, now, days, undefined, scope);
  const accuracy = accuracyByTier(rows, { now, days, ...scope });
  const settled = rows.some((r) => (SETTLED as readonly string[]).includes(r.outcome));
  return { ...accuracy, settledElsewhere: settled ? null : elsewhere(store, accuracy.window, days, scope) };
}
