import type { Grade } from '../../domain/grades.js';
import type { CapReason } from '../../domain/model/grading.js';
import type { RecordTally } from '../../domain/records.js';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import { isoLiteral, tallyColumnsAsOf, type RecordFilter } from './record-sql.js';

/**
 * The public record's reads of the ledger (docs/ledger.md, "Records"; docs/performance.md, "Record
 * aggregate"). The store filters the rows and hands each one, coded (repo/record-sql.ts), to the
 * domain's tally; the domain decides what counts.
 */

/** Which public rows a record reads: already normalized (team upper-cased, player as its key). */
export interface RecordRowScope {
  sport?: string;
  team?: string;
  playerKey?: string;
}

/**
 * The scope's rows; as of `asOf` (docs/ledger.md "As of a time") only the entries locked and entered by then,
 * and the tally's columns read each entry's outcome as it stood then.
 */
function scopeWhere(scope: RecordRowScope, asOf: Date | null = null): RecordFilter {
  const where = ['"user_id" is null'];
  if (asOf !== null) where.push(`"locked_at" <= ${isoLiteral(asOf)}`, `("entered_at" is null or "entered_at" <= ${isoLiteral(asOf)})`);
  const args: unknown[] = [];
  if (scope.sport !== undefined) {
    where.push('"sport" = ?');
    args.push(scope.sport);
  }
  if (scope.team !== undefined) {
    where.push('upper("team") = ?');
    args.push(scope.team);
  }
  if (scope.playerKey !== undefined) {
    where.push('"player_key" = ?');
    args.push(scope.playerKey);
  }
  return { where, args, ...(asOf !== null ? { columns: tallyColumnsAsOf(asOf) } : {}) };
}

/**
 * Adds the window's public rows of the scope to `tally`: the store filters the rows (by the
 * game-date index, so in the same order each time, and the same float sums), codes each one, and
 * the tally adds it (on SQLite inside the statement, as an aggregate: no row is ever built or held).
 */
export async function tallyRecordRows(store: Store, scope: RecordRowScope, window: { from: string; to: string }, tally: RecordTally, asOf: Date | null = null): Promise<void> {
  const { where, args, ...columns } = scopeWhere(scope, asOf);
  where.push('"game_date" >= ?', '"game_date" <= ?');
  await opsOf(store).records.tallyRecordRows({ where, args: [...args, window.from, window.to], ...columns }, tally);
}

export interface SettledTotals {
  settled: number;
  latestGameDate: string;
  /** When the latest of that date's entries was settled. */
  latestSettledAt: string | null;
}

/** The scope's settled public entries anywhere (settled by `asOf` when given): how many, the latest game date and its latest settle time; null when none. */
export async function settledTotals(store: Store, scope: RecordRowScope, asOf: Date | null = null): Promise<SettledTotals | null> {
  const { where, args } = scopeWhere(scope, asOf);
  where.push(`"outcome" in ('hit', 'miss', 'push', 'void')`);
  if (asOf !== null) where.push(`"settled_at" <= ${isoLiteral(asOf)}`);
  return opsOf(store).records.settledTotals({ where, args });
}

/** Capped public entries of the window and scope, per letter, uncapped letter and cap reason (the record counts them with their reason). */
export interface CappedCount {
  grade: Grade;
  gradeUncapped: Grade | null;
  capReason: CapReason;
  n: number;
}

/** In letter, uncapped letter and reason order, text by bytes ('A' < 'A+' < 'A-'), a null uncapped letter first. */
export async function cappedCounts(store: Store, scope: RecordRowScope, window: { from: string; to: string }, asOf: Date | null = null): Promise<CappedCount[]> {
  const { where, args } = scopeWhere(scope, asOf);
  where.push('"game_date" >= ?', '"game_date" <= ?', '"cap_reason" is not null', '"grade" is not null');
  const rows = await opsOf(store).records.cappedCounts({ where, args: [...args, window.from, window.to] });
  return rows.map(([grade, gradeUncapped, capReason, n]) => ({ grade, gradeUncapped, capReason, n }));
}
