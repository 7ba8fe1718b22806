import type { Grade } from '../../../domain/grades.js';
import type { CapReason } from '../../../domain/model/grading.js';
import type { OutcomeCode, RecordTally } from '../../../domain/records.js';
import type { RecordOps } from '../../engine-ops.js';
import type { SettledTotals } from '../../repo/ledger-record.js';
import { TALLY_COLUMNS, type RecordFilter } from '../../repo/record-sql.js';
import type { PgStore } from '../../store.js';
import { numbered, pgRows } from '../_raw.js';

/** The record's reads as plain statements, text compared by bytes (collate "C") as SQLite compares it. */
export class PgRecordOps implements RecordOps {
  constructor(private readonly store: PgStore) {}

  /**
   * The same coded columns, read in the game-date index's order (date, then id) as SQLite hands
   * them to its aggregate, so the float sums add in the same order.
   */
  async tallyRecordRows({ where, args, columns = TALLY_COLUMNS }: RecordFilter, tally: RecordTally): Promise<void> {
    const rows = await pgRows<[number, OutcomeCode, string | null, number | null, number | null, number | null, string | null, string | null, number | null]>(
      this.store,
      numbered(`select ${columns} from "ledger_entries" where (${where.join(' and ')}) order by "game_date" collate "C", "id"`),
      args,
    );
    for (const [tier, outcome, verdict, pWin, lockedPrice, leadMinutes, eventId, pinVerdict, pinLead] of rows) tally.add(tier, outcome, verdict, pWin, lockedPrice, leadMinutes, eventId, pinVerdict, pinLead);
  }

  async settledTotals({ where, args }: RecordFilter): Promise<SettledTotals | null> {
    const [[settled, latestGameDate] = [0, null]] = await pgRows<[number, string | null]>(this.store, numbered(`select count(*)::int, max("game_date" collate "C") from "ledger_entries" where (${where.join(' and ')})`), args);
    if (settled === 0 || latestGameDate === null) return null;
    const [[latestSettledAt] = [null]] = await pgRows<[string | null]>(this.store, numbered(`select max("settled_at" collate "C") from "ledger_entries" where (${where.join(' and ')} and "game_date" = ?)`), [...args, latestGameDate]);
    return { settled, latestGameDate, latestSettledAt };
  }

  /** SQLite's order: text by bytes ('A' < 'A+' < 'A-'), a null uncapped letter first. */
  async cappedCounts({ where, args }: RecordFilter): Promise<Array<[Grade, Grade | null, CapReason, number]>> {
    return pgRows<[Grade, Grade | null, CapReason, number]>(
      this.store,
      numbered(
        `select "grade", "grade_uncapped", "cap_reason", count(*)::int from "ledger_entries" where (${where.join(' and ')}) group by "grade", "grade_uncapped", "cap_reason" ` +
          `order by "grade" collate "C", "grade_uncapped" collate "C" nulls first, "cap_reason" collate "C"`,
      ),
      args,
    );
  }
}
