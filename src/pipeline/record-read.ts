import { and, eq, gte, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { normalizeName } from '../domain/names.js';
import { accuracyByTier, modelAggregate, recordWindow, tierCalibration, type RecordScopeInput } from '../domain/records.js';
import type { Store } from '../store/db.js';
import { ledgerEntries } from '../store/schema.js';

type Narrowing = Pick<RecordScopeInput, 'team' | 'player' | 'sport'>;

/**
 * Public-record rows of the window (and scope): SQL narrows so a team or player record does
 * not read the whole window; the pure domain functions still decide what counts.
 */
function windowRows(store: Store, now: Date, days: number, date: string | undefined, scope: Narrowing = {}) {
  const w = recordWindow(now, days, date);
  const where: SQL[] = [isNull(ledgerEntries.userId), gte(ledgerEntries.gameDate, w.from), lte(ledgerEntries.gameDate, w.to)];
  if (scope.sport) where.push(eq(ledgerEntries.sport, scope.sport));
  if (scope.team) where.push(sql`upper(${ledgerEntries.team}) = ${scope.team.trim().toUpperCase()}`);
  if (scope.player) where.push(eq(ledgerEntries.playerKey, normalizeName(scope.player).key));
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
    .where(and(...where))
    .all();
}

export function readModelRecord(store: Store, scope: RecordScopeInput) {
  const rows = windowRows(store, scope.now, scope.days ?? 30, scope.date, scope);
  return { aggregate: modelAggregate(rows, scope), tiers: tierCalibration(rows, scope) };
}

export function readAccuracy(store: Store, now: Date, days = 30, sport?: string) {
  return accuracyByTier(windowRows(store, now, days, undefined, sport ? { sport } : {}), { now, days, ...(sport ? { sport } : {}) });
}
