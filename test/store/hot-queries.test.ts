/**
 * The hot queries use indexes (issue 18): every statement the snapshot runs, the settle run and the
 * record reads prepare on the bundled replay loop is explained (EXPLAIN QUERY PLAN), and none may
 * scan a whole large table; the key reads must seek the index named for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAccuracy, readModelRecord } from '../../src/reads/record.js';
import { readSlate } from '../../src/reads/slate.js';
import { runSettle } from '../../src/jobs/settle.js';
import { collectingLogger, resultsAt, seededStore, snapshotAt } from '../helpers/replay-store.js';

const LARGE = ['graded_rows', 'ledger_entries', 'player_game_stats', 'grade_locks', 'closing_prices'];

describe('hot queries seek indexes', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  const plans = new Map<string, string>();

  beforeAll(async () => {
    t = await seededStore();
    // Each statement with the connection that prepared it (explained there: its functions are registered there).
    const seen = new Map<string, (sql: string) => import('better-sqlite3').Statement<unknown[]>>();
    // Writes prepare on the writer connection, reads outside a transaction on the read-only one.
    for (const sqlite of [t.store.sqlite, t.store.conn.sqlite]) {
      const own = sqlite.prepare.bind(sqlite);
      (sqlite as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
        seen.set(sql, own);
        return own(sql);
      };
    }
    await snapshotAt(t.store, 'nba', '2025-11-05T15:05:00Z');
    await snapshotAt(t.store, 'nba', '2025-11-05T17:05:00Z');
    await readSlate(t.store, 'nba', { all: false });
    await readSlate(t.store, 'nba', { all: true });
    const sources = await resultsAt('2025-11-06T12:00:00Z');
    await runSettle('nba', { store: t.store, results: sources.results, now: new Date('2025-11-06T12:00:00Z'), log: collectingLogger() });
    await sources.close();
    const now = new Date('2025-11-06T12:00:00Z');
    await readModelRecord(t.store, { now });
    await readModelRecord(t.store, { now, team: 'NY', sport: 'nba' });
    await readModelRecord(t.store, { now, player: 'Jalen Brunson' });
    await readAccuracy(t.store, now);
    for (const [sql, prepare] of seen) {
      if (!/^\s*(select|update|delete|insert)/i.test(sql)) continue;
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null);
      const rows = prepare(`explain query plan ${sql}`).all(...params) as Array<{ detail: string }>;
      plans.set(sql, rows.map((r) => r.detail).join(' | '));
    }
  }, 120_000);
  afterAll(() => t.cleanup());

  it('explains every statement the runs prepared', () => {
    expect(plans.size).toBeGreaterThan(15);
  });

  it('never scans a large table whole', () => {
    const scans = [...plans].filter(([sql, plan]) => LARGE.some((table) => new RegExp(`\\bSCAN ${table}\\b`).test(plan)) && !/^\s*insert/i.test(sql));
    expect(scans.map(([sql, plan]) => `${sql.slice(0, 120)} -> ${plan}`)).toEqual([]);
  });

  const uses = (fragment: RegExp, index: string) => {
    const found = [...plans].filter(([sql]) => fragment.test(sql));
    expect(found.length, `a statement matching ${fragment}`).toBeGreaterThan(0);
    for (const [sql, plan] of found) expect(plan, sql).toContain(`USING INDEX ${index}`);
  };

  it('seeks the index each hot read is built for', () => {
    uses(/^select "event_id", "player_key", .* from "grade_locks" where "event_id" in/, 'grade_locks_key');
    uses(/from "player_game_stats" where \("sport" = \? and "player_key" = \? and "date" < \?\)/, 'player_game_stats_key (sport=? AND player_key=? AND date<?)');
    uses(/from "graded_rows" where "snapshot_id" = \?/, 'graded_rows_snapshot_key');
    uses(/from "ledger_entries" where \(coalesce\("user_id", 0\) = 0 and "user_id" is null and "event_id" in/, 'ledger_entries_key');
    // The settle run reads each due date's pending entries from that date's range of the pending
    // index, every key column sought, in id order without a sort; it writes them back by id.
    uses(/^select propgrade_pending_entries\(.* from "ledger_entries" where \("outcome" = \? and "sport" = \? and "game_date" = \?\)$/, 'ledger_entries_pending (outcome=? AND sport=? AND game_date=?)');
    for (const [sql, plan] of plans) if (/^select propgrade_pending_entries\(/.test(sql)) expect(plan, sql).not.toMatch(/TEMP B-TREE|CO-ROUTINE|MATERIALIZE/);
    const writes = [...plans].filter(([sql]) => /^update "ledger_entries" set "outcome" = \?/.test(sql));
    expect(writes.map(([sql]) => sql.replace(/^.* where /, ''))).toEqual([`"id" = ? and "outcome" = 'pending'`]);
    for (const [sql, plan] of writes) expect(plan, sql).toMatch(/SEARCH ledger_entries USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    // Due dates and not-due totals: one pass over the sport's pending range, grouped in index order.
    uses(/from "ledger_entries" where \("sport" = \? and "outcome" = \?\) group by "game_date"\)$/, 'ledger_entries_pending (outcome=? AND sport=?)');
    uses(/^select propgrade_record_tally\(/, 'ledger_entries_date');
  });
});
