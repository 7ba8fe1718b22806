import { and, gte, isNull, lte } from 'drizzle-orm';
import { accuracyByTier, modelAggregate, recordWindow, tierCalibration, type RecordScopeInput } from '../domain/records.js';
import type { Store } from '../store/db.js';
import { ledgerEntries } from '../store/schema.js';

/** Public-record rows of the window only: the SQL narrows, the pure domain decides. */
function windowRows(store: Store, now: Date, days: number, date?: string) {
  const w = recordWindow(now, days, date);
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
    })
    .from(ledgerEntries)
    .where(and(isNull(ledgerEntries.userId), gte(ledgerEntries.gameDate, w.from), lte(ledgerEntries.gameDate, w.to)))
    .all();
}

export function readModelRecord(store: Store, scope: RecordScopeInput) {
  const rows = windowRows(store, scope.now, scope.days ?? 30, scope.date);
  return { aggregate: modelAggregate(rows, scope), tiers: tierCalibration(rows, scope) };
}

export function readAccuracy(store: Store, now: Date, days = 30, sport?: string) {
  return accuracyByTier(windowRows(store, now, days), { now, days, ...(sport ? { sport } : {}) });
}
