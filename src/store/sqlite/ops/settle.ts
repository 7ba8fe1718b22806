import type { PendingEntry, SettledEntry } from '../../../domain/settle-entries.js';
import type { SettleOps } from '../../engine-ops.js';
import type { PendingDateRow } from '../../repo/ledger-settle.js';
import type { Db, SqliteStore } from '../../store.js';
import { clientOf, prepared } from '../_raw.js';

/**
 * The sport's pending entries in one pass over the pending index, one row per game date: whether
 * any of the date's entries is due (its game has started by `at` and the date is not after
 * `today`), and over the entries that are not due (game not started, or dated after today) their
 * count, first start and latest date, totalled across dates by SQLite (window aggregates over the
 * groups). The game date is the group's own, so it is compared once per date, not per row: a date
 * after today is all not due; on an earlier date an entry is due when its game has started, so the
 * date is due when its first start has passed, and its not-due entries are those starting after `at`.
 */
const PENDING_BY_DATE_SQL =
  'select "game_date", "due", sum("late") over (), min("first_late") over (), max(case when "late" > 0 then "game_date" end) over () from (' +
  'select "game_date", "game_date" <= ? and min("commence_time") <= ? as "due", ' +
  'case when "game_date" > ? then count(*) else count(*) filter (where "commence_time" > ?) end as "late", ' +
  'case when "game_date" > ? then min("commence_time") else min("commence_time") filter (where "commence_time" > ?) end as "first_late" ' +
  'from "ledger_entries" where ("sport" = ? and "outcome" = ?) group by "game_date")';

/**
 * A date's pending entries, read whole from the date's range of the pending index: in id order, as
 * the index keeps equal keys (test/store/hot-queries.test.ts pins the index). SQLite hands each row
 * to an aggregate function that collects it: better-sqlite3 passes a row's values to a JS function
 * about twice as fast as it builds the row for `all()` (read that way, a settle took ~11% more CPU). The
 * function only collects; each statement names its own list by a token, so no list is shared.
 */
const COLLECT = 'propgrade_pending_entries';
const PENDING_OF_DATE_SQL =
  `select ${COLLECT}(?, "id", "event_id", "team", "player_key", "stat_type", "line", "side", "locked_price", "locked_fair_prob", "closing_line", "closing_fair_prob", "closing_captured_at", "commence_time") ` +
  'from "ledger_entries" where ("outcome" = ? and "sport" = ? and "game_date" = ?)';

type Collecting = { next: number; lists: Map<number, PendingEntry[]> };
const byConnection = new WeakMap<object, Collecting>();

/** The connection's running reads, with the collecting aggregate registered on it the first time. */
function collecting(db: Db): Collecting {
  const client = clientOf(db);
  const known = byConnection.get(client);
  if (known) return known;
  const made: Collecting = { next: 0, lists: new Map() };
  const step = (
    acc: PendingEntry[] | null, token: number, id: number, eventId: string, team: string | null, playerKey: string, statType: string, line: number, side: 'over' | 'under',
    lockedPrice: number | null, lockedFairProb: number | null, closingLine: number | null, closingFairProb: number | null, closingCapturedAt: string | null, commenceTime: string,
  ) => {
    const list = acc ?? made.lists.get(token);
    if (!list) throw new Error(`pending read ${token} is not running`);
    list.push({ id, eventId, team, playerKey, statType, line, side, lockedPrice, lockedFairProb, closingLine, closingFairProb, closingCapturedAt, commenceTime });
    return list;
  };
  // The typings know one-argument steps only; better-sqlite3 passes every SQL argument (arity from step.length).
  client.aggregate(COLLECT, { start: null, step: step as unknown as (acc: unknown, next: unknown) => unknown, result: () => 0, deterministic: false, directOnly: true });
  byConnection.set(client, made);
  return made;
}

/** Only a pending entry is settled: a second write of the same entry changes nothing. */
const SETTLE_SQL =
  'update "ledger_entries" set "outcome" = ?, "actual_value" = ?, "settled_at" = ?, "clv" = ?, "clv_line" = ?, "clv_verdict" = ?, "clv_pct" = ? ' +
  `where "id" = ? and "outcome" = 'pending'`;

/**
 * The home and away teams the sport's snapshots recorded for each asked event (every graded row of
 * an event names the same two): one probe of the graded rows' (snapshot, event) index per snapshot.
 */
const EVENT_TEAMS_SQL =
  'select g."event_id", g."home_team", g."away_team" from "snapshots" s join "graded_rows" g on g."snapshot_id" = s."id" ' +
  'where s."sport" = ? and g."event_id" in (select "value" from json_each(?)) group by g."event_id"';

export class SqliteSettleOps implements SettleOps {
  constructor(private readonly store: SqliteStore) {}

  async pendingDates(sport: string, at: string, today: string): Promise<PendingDateRow[]> {
    const { db } = this.store.conn;
    return prepared(clientOf(db), PENDING_BY_DATE_SQL).raw(true).all(today, at, today, at, today, at, sport, 'pending') as PendingDateRow[];
  }

  async pendingOfDate(sport: string, date: string): Promise<PendingEntry[]> {
    const { db } = this.store.conn;
    const run = collecting(db);
    const stmt = prepared(clientOf(db), PENDING_OF_DATE_SQL);
    const token = run.next++;
    const entries: PendingEntry[] = [];
    run.lists.set(token, entries);
    try {
      stmt.get(token, 'pending', sport, date);
    } finally {
      run.lists.delete(token);
    }
    return entries;
  }

  async eventTeams(sport: string, eventIds: readonly string[]): Promise<Array<[string, string, string]>> {
    if (eventIds.length === 0) return [];
    const { db } = this.store.conn;
    return prepared(clientOf(db), EVENT_TEAMS_SQL).raw(true).all(sport, JSON.stringify(eventIds)) as Array<[string, string, string]>;
  }

  /**
   * One prepared UPDATE by id per entry. (Grouping entries with the same fields into one UPDATE over
   * a json_each id list was slower: SQLite collects the ids of such an UPDATE before it writes.)
   */
  async writeSettlements(settledAt: string, entries: readonly SettledEntry[]): Promise<number> {
    const { db } = this.store.conn;
    const update = prepared(clientOf(db), SETTLE_SQL);
    let changed = 0;
    for (const e of entries) changed += update.run(e.outcome, e.actualValue, settledAt, e.clv, e.clvLine, e.clvVerdict, e.clvPct, e.id).changes;
    return changed;
  }
}
