import type { Grade } from '../../../domain/grades.js';
import type { CapReason } from '../../../domain/model/grading.js';
import type { OutcomeCode, RecordTally } from '../../../domain/records.js';
import type { RecordOps } from '../../engine-ops.js';
import type { SettledTotals } from '../../repo/ledger-record.js';
import { TALLY_COLUMNS, type RecordFilter } from '../../repo/record-sql.js';
import type { Db, SqliteStore } from '../../store.js';
import { clientOf, prepared } from '../_raw.js';

const AGGREGATE = 'propgrade_record_tally';

/**
 * The tallies of the statements running on a connection, by a token each statement passes as its
 * aggregate's first argument: two tallies never share one, whichever store or order they run in.
 * The aggregate keeps its tally as its accumulator after the first row, so the token is looked up
 * once per statement.
 */
type Running = { next: number; tallies: Map<number, RecordTally> };
const byConnection = new WeakMap<object, Running>();

/** The connection's running tallies, with the aggregate registered on it the first time. */
function running(db: Db): Running {
  const client = clientOf(db);
  const known = byConnection.get(client);
  if (known) return known;
  const made = { next: 0, tallies: new Map<number, RecordTally>() };
  const step = (acc: RecordTally | null, token: number, tier: number, outcome: OutcomeCode, verdict: string | null, pWin: number | null, lockedPrice: number | null, leadMinutes: number | null, eventId: string | null, pinVerdict: string | null, pinLead: number | null) => {
    const tally = acc ?? made.tallies.get(token);
    if (!tally) throw new Error(`record tally ${token} is not running`);
    tally.add(tier, outcome, verdict, pWin, lockedPrice, leadMinutes, eventId, pinVerdict, pinLead);
    return tally;
  };
  // The typings know one-argument steps only; better-sqlite3 passes every SQL argument (arity from step.length).
  client.aggregate(AGGREGATE, { start: null, step: step as unknown as (acc: unknown, next: unknown) => unknown, result: () => 0, deterministic: false, directOnly: true });
  byConnection.set(client, made);
  return made;
}

/** The record's reads aggregated inside SQLite: no row object and no string is built for a row in the normal case. */
export class SqliteRecordOps implements RecordOps {
  constructor(private readonly store: SqliteStore) {}

  /** The rows come by the game-date index, so in the same order each time, and the same float sums. */
  async tallyRecordRows({ where, args, columns = TALLY_COLUMNS }: RecordFilter, tally: RecordTally): Promise<void> {
    const { db } = this.store.conn;
    const run = running(db);
    const stmt = prepared(clientOf(db), `select ${AGGREGATE}(?, ${columns}) from "ledger_entries" where (${where.join(' and ')})`);
    const token = run.next++;
    run.tallies.set(token, tally);
    try {
      stmt.get(token, ...args);
    } finally {
      run.tallies.delete(token);
    }
  }

  async settledTotals({ where, args }: RecordFilter): Promise<SettledTotals | null> {
    const { db } = this.store.conn;
    const client = clientOf(db);
    const [settled, latestGameDate] = prepared(client, `select count(*), max("game_date") from "ledger_entries" where (${where.join(' and ')})`).raw(true).get(...args) as [number, string | null];
    if (settled === 0 || latestGameDate === null) return null;
    const latestSettledAt = prepared(client, `select max("settled_at") from "ledger_entries" where (${where.join(' and ')} and "game_date" = ?)`).pluck().get(...args, latestGameDate) as string | null;
    return { settled, latestGameDate, latestSettledAt };
  }

  async cappedCounts({ where, args }: RecordFilter): Promise<Array<[Grade, Grade | null, CapReason, number]>> {
    const { db } = this.store.conn;
    return prepared(
      clientOf(db),
      `select "grade", "grade_uncapped", "cap_reason", count(*) from "ledger_entries" where (${where.join(' and ')}) group by "grade", "grade_uncapped", "cap_reason" order by "grade", "grade_uncapped", "cap_reason"`,
    )
      .raw(true)
      .all(...args) as Array<[Grade, Grade | null, CapReason, number]>;
  }
}
