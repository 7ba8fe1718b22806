import { computeClv } from '../domain/clv.js';
import type { GameStatus, PlayerGameStat } from '../domain/entities.js';
import { settleEntry, type GameResult } from '../domain/settlement.js';
import type { GradedSport } from '../domain/sports.js';
import { addDays, easternDate } from '../domain/time.js';
import type { Store } from '../store/db.js';
import { prepared } from '../store/repo/_raw.js';
import { gameStatsWriter } from '../store/repo/game-stats.js';
import { acquireRunLock, processOwner } from '../store/repo/run-lock.js';
import { finishRun, startRun } from '../store/repo/runs.js';
import type { RunLogger } from '../feeds/sources.js';

/** One game's final state from a results provider. `players` null = box score unavailable. */
export interface GameResults {
  gameId: string;
  status: GameStatus;
  homeAbbr: string | null;
  awayAbbr: string | null;
  players: PlayerGameStat[] | null;
}

export interface ResultsSource {
  /** Games of the sport on an ET date, or null when the provider is unavailable. */
  results(sport: GradedSport, date: string): Promise<GameResults[] | null>;
}

export interface SettleOptions {
  store: Store;
  results: ResultsSource;
  now: Date;
  /** Settle only this ET date; default every date with pending entries up to today. */
  date?: string;
  log: RunLogger;
  owner?: string;
  wallClock?: () => Date;
}

export interface SettleSummary {
  sport: GradedSport;
  runId: number;
  status: 'ok' | 'empty' | 'failed' | 'locked';
  dates: string[];
  settled: Record<'hit' | 'miss' | 'push' | 'void', number>;
  stillPending: number;
  pendingReasons: Record<string, number>;
  playerGamesWritten: number;
  unavailableDates: string[];
  /** CLV of the entries this run settled (docs/ledger.md): beat, faded, flat, or no close captured. */
  clv: ClvCounts;
  /** Pending entries of the sport whose game has not started by `now` (or is dated after today): not due yet. */
  notDue: NotDue | null;
  message: string | null;
}

export type ClvCounts = { beat: number; faded: number; flat: number; noClose: number };

export interface NotDue {
  pending: number;
  /** The earliest start among them. */
  firstStart: string;
  /** Their latest ET game date. */
  lastGameDate: string;
  /** 12:00Z the day after that date: every one of those games is over by then. */
  settleAfter: string;
}

/**
 * The settle run: fetch final box scores, store them as history (projections read them), move
 * pending entries to hit, miss, push or void, and record CLV from the captured close. Every due
 * date's results are fetched first, then everything is written in one transaction; only pending
 * entries are touched, so a re-run changes nothing.
 */
export async function runSettle(sport: GradedSport, opts: SettleOptions): Promise<SettleSummary> {
  const { store, now, log } = opts;
  const empty = {
    sport,
    dates: [] as string[],
    settled: { hit: 0, miss: 0, push: 0, void: 0 },
    stillPending: 0,
    pendingReasons: {} as Record<string, number>,
    playerGamesWritten: 0,
    unavailableDates: [] as string[],
    clv: { beat: 0, faded: 0, flat: 0, noClose: 0 },
    notDue: null as NotDue | null,
  };
  const lock = acquireRunLock(store.sqlite, `settle:${sport}`, opts.owner ?? processOwner(), opts.wallClock ?? (() => new Date()));
  if ('heldBy' in lock) {
    const message = `a ${sport} settle run holds the lock (${lock.heldBy} since ${lock.since})`;
    opts.log.warn(message);
    return { ...empty, runId: 0, status: 'locked', message };
  }
  const runId = startRun(store.db, 'settle', sport, now.toISOString());
  try {
    const pending = opts.date ? null : pendingByDate(store, sport, now);
    const dates = opts.date ? [opts.date] : (pending?.dates ?? []);
    // Null when none is waiting for its game (a real 0 once counted), or when --date skipped the count.
    const notDue = pending?.notDue ?? null;
    if (dates.length === 0) {
      // Nothing due is not nothing pending: say how many wait for their games, and until when.
      const message = notDue
        ? `${notDue.pending} pending, none due yet: their games start after ${now.toISOString().replace('.000Z', 'Z')} (the first at ${notDue.firstStart})`
        : 'nothing pending';
      finishRun(store.db, runId, { status: 'empty', finishedAt: now.toISOString(), settledCount: 0, message });
      return { ...empty, notDue, runId, status: 'empty', message };
    }
    const summary: SettleSummary = { ...empty, clv: { ...empty.clv }, notDue, dates, runId, status: 'ok', message: null };
    // Fetch phase: every due date's results first (the providers are async)...
    const fetched: Array<{ date: string; games: GameResults[] }> = [];
    for (const date of dates) {
      const games = await opts.results.results(sport, date);
      if (games === null) {
        summary.unavailableDates.push(date);
        log.warn(`${sport} ${date}: results unavailable; entries stay pending`);
        continue;
      }
      fetched.push({ date, games });
    }
    // ...then the write phase in one transaction: each page is written once for the whole run
    // (a commit per date rewrote the same history and ledger pages once per date), and a run that
    // dies leaves nothing half-settled.
    // History first (every date's final box scores, in date order), then the ledger: one table at a
    // time keeps each one's pages in the cache. The history lines go through one writer straight
    // into the run's transaction: a nested transaction per date (a SAVEPOINT) made SQLite copy every
    // page it touched into a sub-journal first, for a rollback the run's own transaction already gives.
    store.sqlite
      .transaction(() => {
        const writeLine = gameStatsWriter(store.db);
        for (const { games } of fetched) {
          const lines = finalLines(games);
          for (const line of lines) writeLine(line);
          summary.playerGamesWritten += lines.length;
        }
        for (const { date, games } of fetched) settleDate(store, sport, date, games, now, summary);
      })
      .immediate();
    const settledCount = Object.values(summary.settled).reduce((a, b) => a + b, 0);
    const failedAll = summary.unavailableDates.length === dates.length;
    summary.status = failedAll ? 'failed' : 'ok';
    if (failedAll) summary.message = 'results unavailable for every date';
    finishRun(store.db, runId, {
      status: summary.status,
      finishedAt: now.toISOString(),
      settledCount,
      message: summary.message,
      details: { dates, settled: summary.settled, clv: summary.clv, notDue: opts.date ? null : (summary.notDue?.pending ?? 0), stillPending: summary.stillPending, pendingReasons: summary.pendingReasons, unavailableDates: summary.unavailableDates, playerGamesWritten: summary.playerGamesWritten },
    });
    return summary;
  } catch (error) {
    finishRun(store.db, runId, { status: 'failed', finishedAt: now.toISOString(), message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    lock.release();
  }
}

/**
 * The sport's pending entries in one pass over the pending index, one row per game date: whether
 * any of the date's entries is due (its game has started by `now` and the date is not after today,
 * ET), and over the entries that are not due (game not started, or dated after today) their count,
 * first start and latest date, totalled across dates by SQLite (window aggregates over the groups).
 * (The due dates and the not-due totals were two statements, each reading every pending row.)
 * The game date is the group's own, so it is compared once per date, not per row: a date after
 * today is all not due; on an earlier date an entry is due when its game has started, so the date
 * is due when its first start has passed, and its not-due entries are those starting after `now`.
 * Per row that leaves one comparison of the start (was three conditions of two comparisons each).
 */
const PENDING_BY_DATE_SQL =
  'select "game_date", "due", sum("late") over (), min("first_late") over (), max(case when "late" > 0 then "game_date" end) over () from (' +
  'select "game_date", "game_date" <= ? and min("commence_time") <= ? as "due", ' +
  'case when "game_date" > ? then count(*) else count(*) filter (where "commence_time" > ?) end as "late", ' +
  'case when "game_date" > ? then min("commence_time") else min("commence_time") filter (where "commence_time" > ?) end as "first_late" ' +
  'from "ledger_entries" where ("sport" = ? and "outcome" = ?) group by "game_date")';
type PendingDateRow = [gameDate: string, due: 0 | 1, pending: number, firstStart: string | null, lastGameDate: string | null];

/** ET dates with pending entries whose game has started by `now`, and the pending entries those dates leave out (not due yet). */
function pendingByDate(store: Store, sport: string, now: Date): { dates: string[]; notDue: NotDue | null } {
  const at = now.toISOString();
  const today = easternDate(now);
  const rows = prepared(store.sqlite, PENDING_BY_DATE_SQL).raw(true).all(today, at, today, at, today, at, sport, 'pending') as PendingDateRow[];
  const dates = rows.filter((r) => r[1] === 1).map((r) => r[0]).sort();
  const [, , pending = 0, firstStart = null, lastGameDate = null] = rows[0] ?? [];
  const notDue = pending === 0 || firstStart === null || lastGameDate === null ? null : { pending, firstStart, lastGameDate, settleAfter: `${addDays(lastGameDate, 1)}T12:00:00Z` };
  return { dates, notDue };
}

/** The box-score lines of a date's final games: what the settle run stores as history. */
function finalLines(games: readonly GameResults[]): PlayerGameStat[] {
  return games.filter((g) => g.status === 'final' && g.players !== null).flatMap((g) => g.players ?? []);
}

/**
 * The settle statement: one UPDATE per date over the date's pending entries, decided inside
 * SQLite's own scan of them (the pending index's range, in its order: by id). DECIDE gets the
 * columns settlement and CLV read and decides the entry with the domain's settleEntry and
 * computeClv: 1 when it settles (the row is written), 0 when it stays pending. FIELD hands back one
 * field of that decision (0 outcome, 1 actual value, 2 clv, 3 clv line, 4 verdict, 5 clv pct) for the row
 * being written. Reading every pending row into JS arrays and writing each back through its own
 * UPDATE by id was most of a settle's time (docs/performance.md).
 * Without a captured close (NO_CLOSE) computeClv gives no CLV and never looks at the capture time
 * or the start: the start is passed only with a close, and the three CLV columns are written null
 * without asking FIELD (decide checks that computeClv agrees, so this can never write a wrong null).
 * The outcome and the verdict come back as their place in OUTCOMES / VERDICTS and the statement
 * writes the name: a number crosses from JS to SQLite without the copy a string needs (~1% of a
 * settle); a place no name has is an error (FIELD throws), never a null.
 */
const DECIDE = 'propgrade_settle';
const FIELD = 'propgrade_settled';
const NO_CLOSE = '"closing_line" is null or "closing_captured_at" is null';
const OUTCOMES = ['hit', 'miss', 'push', 'void'] as const;
const VERDICTS = ['beat', 'faded', 'flat'] as const;
const named = (field: number, names: readonly string[]) => `case ${FIELD}("id", ${field}) ${names.map((n, i) => `when ${i} then '${n}'`).join(' ')} end`;
const SETTLE_SQL =
  `update "ledger_entries" set "outcome" = ${named(0, OUTCOMES)}, "actual_value" = ${FIELD}("id", 1), "settled_at" = ?, ` +
  `"clv" = case when ${NO_CLOSE} then null else ${FIELD}("id", 2) end, "clv_line" = case when ${NO_CLOSE} then null else ${FIELD}("id", 3) end, ` +
  `"clv_verdict" = case when ${NO_CLOSE} then null else ${named(4, VERDICTS)} end, "clv_pct" = case when ${NO_CLOSE} then null else ${FIELD}("id", 5) end ` +
  'where ("sport" = ? and "game_date" = ? and "outcome" = ?) and ' +
  `${DECIDE}("id", "team", "player_key", "stat_type", "line", "side", "locked_price", "locked_fair_prob", "closing_line", "closing_fair_prob", "closing_captured_at", ` +
  `case when ${NO_CLOSE} then null else "commence_time" end)`;

/** A settled entry's written fields, in FIELD's order. */
type Settled = [outcome: 'hit' | 'miss' | 'push' | 'void', actualValue: number | null, clv: number | null, clvLine: number | null, verdict: 'beat' | 'faded' | 'flat' | null, clvPct: number | null];
type Lookup = ReturnType<typeof resultLookup>;

/**
 * The decisions of one settle statement, in the order SQLite first asked for them: a settled
 * entry's fields, or the reason it stays pending. SQLite scans the date's range of the pending
 * index, which is in id order, and writes the rows it kept in id order, so both functions meet the
 * ids ascending: the decisions sit in two arrays, a new one is appended and FIELD's row is found by
 * a cursor that only moves forward (a Map lookup per call, three per row, was ~1.5% of a settle).
 * Should SQLite ever ask out of that order, the id is found through a map built then, so the
 * answers never depend on the order.
 */
class Decisions {
  /** Entry ids, in the order their decisions were made, and the decisions at the same places. */
  readonly ids: number[] = [];
  readonly made: Array<Settled | string> = [];
  private ascending = true;
  private cursor = 0;
  private byId: Map<number, number> | null = null;

  constructor(readonly lookup: Lookup) {}

  /** DECIDE, first: the entry's decision if it was made already (SQLite may ask twice for one row). */
  asked(id: number): Settled | string | undefined {
    const n = this.ids.length;
    if (n === 0 || id > (this.ids[n - 1] as number)) return undefined;
    const at = this.position(id);
    return at < 0 ? undefined : this.made[at];
  }

  /** DECIDE, then: the entry's new decision. */
  add(id: number, d: Settled | string): Settled | string {
    const n = this.ids.length;
    if (n > 0 && id < (this.ids[n - 1] as number)) this.ascending = false;
    this.byId?.set(id, n);
    this.ids.push(id);
    this.made.push(d);
    return d;
  }

  /** FIELD: the decision of the row being written. */
  of(id: number): Settled | string | undefined {
    if (this.ascending) {
      const ids = this.ids;
      let i = this.cursor;
      while (i < ids.length && (ids[i] as number) < id) i++;
      if (ids[i] === id) {
        this.cursor = i;
        return this.made[i];
      }
    }
    const at = this.position(id);
    return at < 0 ? undefined : this.made[at];
  }

  private position(id: number): number {
    if (this.byId === null) {
      this.byId = new Map();
      this.ids.forEach((x, i) => this.byId?.set(x, i));
    }
    return this.byId.get(id) ?? -1;
  }
}

/** The decisions of the settle statement running: SQLite calls the functions synchronously inside it, so they are those of the date set just before it. */
let active: Decisions | null = null;
const withFunctions = new WeakSet<object>();

function decide(lookup: Lookup, team: string | null, playerKey: string, statType: string, line: number, side: 'over' | 'under', lockedPrice: number | null, lockedFairProb: number | null, closingLine: number | null, closingFairProb: number | null, closingCapturedAt: string | null, commenceTime: string): Settled | string {
  const result = lookup(team, playerKey, statType);
  if (!result) return 'game_not_found';
  const s = settleEntry({ line, side }, result);
  if (s.outcome === 'pending') return s.reason;
  const clv = computeClv({ side, line, lockedPrice, lockedFairProb, closingLine, closingFairProb, closingCapturedAt, commenceTime });
  if ((closingLine === null || closingCapturedAt === null) && (clv.clv !== null || clv.clvPct !== null || clv.clvLine !== null || clv.verdict !== null)) {
    throw new Error('settle: computeClv gave a CLV without a captured close, which SETTLE_SQL writes as null');
  }
  return [s.outcome, 'actualValue' in s ? s.actualValue : null, clv.clv, clv.clvLine, clv.verdict, clv.clvPct];
}

/** A name's place in its list, for FIELD. */
function placeOf(names: readonly string[], name: string): number {
  const at = names.indexOf(name);
  if (at < 0) throw new Error(`settle: ${name} is not one of ${names.join(', ')}`);
  return at;
}

/** Registers DECIDE and FIELD on the store's connection, once. */
function registerSettleFunctions(client: Store['sqlite']): void {
  if (withFunctions.has(client)) return;
  const options = { deterministic: false, directOnly: true };
  client.function(DECIDE, options, (id: number, team: string | null, playerKey: string, statType: string, line: number, side: 'over' | 'under', lockedPrice: number | null, lockedFairProb: number | null, closingLine: number | null, closingFairProb: number | null, closingCapturedAt: string | null, commenceTime: string) => {
    // ledger_entries.commence_time is NOT NULL: SQLite hands every row's start as text.
    const run = active as Decisions;
    const d = run.asked(id) ?? run.add(id, decide(run.lookup, team, playerKey, statType, line, side, lockedPrice, lockedFairProb, closingLine, closingFairProb, closingCapturedAt, commenceTime));
    return typeof d === 'string' ? 0 : 1;
  });
  client.function(FIELD, options, (id: number, field: number) => {
    const d = (active as Decisions).of(id);
    if (typeof d !== 'object') throw new Error(`settle: entry ${id} is written without a settlement`);
    if (field === 0) return placeOf(OUTCOMES, d[0]);
    if (field === 4) return d[4] === null ? null : placeOf(VERDICTS, d[4]);
    return d[field];
  });
  withFunctions.add(client);
}

/**
 * One date's entries, inside the run's write transaction (its box scores are already stored): one
 * UPDATE decides and writes them (see SETTLE_SQL), then the date's decisions are counted in the
 * order they were made. Games are looked up by team and players by key in maps built once per date.
 */
function settleDate(store: Store, sport: GradedSport, date: string, games: GameResults[], now: Date, summary: SettleSummary): void {
  const client = store.sqlite;
  registerSettleFunctions(client);
  const decisions = new Decisions(resultLookup(games));
  active = decisions;
  let written: number;
  try {
    written = prepared(client, SETTLE_SQL).run(now.toISOString(), sport, date, 'pending').changes;
  } finally {
    active = null;
  }
  // Counted in locals, then added: a store keyed by a varying outcome or verdict per entry was a
  // megamorphic property access each time.
  let hit = 0, miss = 0, push = 0, voided = 0, beat = 0, faded = 0, flat = 0, noClose = 0;
  for (const d of decisions.made) {
    if (typeof d === 'string') {
      bump(summary.pendingReasons, d);
      summary.stillPending += 1;
      continue;
    }
    const [outcome, , , , verdict] = d;
    if (outcome === 'hit') hit += 1;
    else if (outcome === 'miss') miss += 1;
    else if (outcome === 'push') push += 1;
    else if (outcome === 'void') voided += 1;
    else throw new Error(`settle: unknown outcome ${String(outcome)}`);
    if (verdict === null) noClose += 1;
    else if (verdict === 'beat') beat += 1;
    else if (verdict === 'faded') faded += 1;
    else if (verdict === 'flat') flat += 1;
    else throw new Error(`settle: unknown CLV verdict ${String(verdict)}`);
  }
  const settled = hit + miss + push + voided;
  summary.settled.hit += hit;
  summary.settled.miss += miss;
  summary.settled.push += push;
  summary.settled.void += voided;
  summary.clv.beat += beat;
  summary.clv.faded += faded;
  summary.clv.flat += flat;
  summary.clv.noClose += noClose;
  // Every settled decision is a written row and nothing else is: the counts are the rows' own.
  if (written !== settled) throw new Error(`settle ${sport} ${date}: ${written} entries written for ${settled} settled`);
}

/**
 * An entry's result: the player's line is looked for in every game his team played that date, in
 * the order the results list them (a doubleheader's second game holds the pitcher listed for it);
 * the first game holding his key is his. Not found: a game of the team that is not final keeps the
 * entry pending with its status; otherwise he is not in a final box score. No team match means no
 * result (pending), never a guess.
 */
function resultLookup(games: readonly GameResults[]): (team: string | null, playerKey: string, statType: string) => GameResult | null {
  const gamesOf = new Map<string, GameResults[]>();
  for (const g of games) {
    for (const abbr of [g.homeAbbr, g.awayAbbr]) {
      if (abbr === null) continue;
      const list = gamesOf.get(abbr);
      if (!list) gamesOf.set(abbr, [g]);
      else if (!list.includes(g)) list.push(g);
    }
  }
  const players = new Map<GameResults, Map<string, PlayerGameStat>>();
  const lineOf = (game: GameResults, playerKey: string): PlayerGameStat | undefined => {
    let byKey = players.get(game);
    if (!byKey) {
      byKey = new Map();
      for (const p of game.players ?? []) if (!byKey.has(p.playerKey)) byKey.set(p.playerKey, p);
      players.set(game, byKey);
    }
    return byKey.get(playerKey);
  };
  return (team, playerKey, statType) => {
    const list = team === null ? undefined : gamesOf.get(team);
    if (!list) return null;
    let open: GameResults | null = null;
    let unread = false;
    for (const game of list) {
      if (game.status !== 'final') {
        open ??= game;
        continue;
      }
      if (game.players === null) {
        unread = true;
        continue;
      }
      const line = lineOf(game, playerKey);
      if (!line) continue;
      const stat = line.stats[statType as keyof typeof line.stats];
      if (statType !== 'strikeouts') return { status: 'final', boxScore: { stat: stat ?? null, minutes: line.minutes } };
      // A pitcher prop needs the starter flag the MLB box score carries (pitchers[0]); unknown stays unknown.
      const flag = line.extras['is_starter'];
      return { status: 'final', boxScore: { stat: stat ?? null, minutes: line.minutes, started: flag === 1 ? true : flag === 0 ? false : null } };
    }
    if (open) return { status: open.status, boxScore: null };
    // A final game whose box score could not be read decides nothing.
    if (unread) return null;
    return { status: 'final', boxScore: null };
  };
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}
