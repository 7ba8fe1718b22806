import { and, count, eq, gt, lte, max, min, or } from 'drizzle-orm';
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
import { ledgerEntries } from '../store/schema.js';
import type { RunLogger } from './sources.js';

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
    const dates = opts.date ? [opts.date] : pendingDates(store, sport, now);
    const notDue = opts.date ? null : notDueYet(store, sport, now);
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
      details: { dates, settled: summary.settled, clv: summary.clv, notDue: summary.notDue?.pending ?? 0, stillPending: summary.stillPending, pendingReasons: summary.pendingReasons, unavailableDates: summary.unavailableDates, playerGamesWritten: summary.playerGamesWritten },
    });
    return summary;
  } catch (error) {
    finishRun(store.db, runId, { status: 'failed', finishedAt: now.toISOString(), message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    lock.release();
  }
}

/** Pending entries of the sport that `pendingDates` leaves out: game not started, or dated after today (ET). */
function notDueYet(store: Store, sport: string, now: Date): NotDue | null {
  const row = store.db
    .select({ pending: count(), firstStart: min(ledgerEntries.commenceTime), lastGameDate: max(ledgerEntries.gameDate) })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.sport, sport), eq(ledgerEntries.outcome, 'pending'), or(gt(ledgerEntries.commenceTime, now.toISOString()), gt(ledgerEntries.gameDate, easternDate(now)))))
    .get();
  if (!row || row.pending === 0 || row.firstStart === null || row.lastGameDate === null) return null;
  return { pending: row.pending, firstStart: row.firstStart, lastGameDate: row.lastGameDate, settleAfter: `${addDays(row.lastGameDate, 1)}T12:00:00Z` };
}

/** ET dates with pending entries whose game has started by `now`. */
function pendingDates(store: Store, sport: string, now: Date): string[] {
  const rows = store.db
    .selectDistinct({ date: ledgerEntries.gameDate })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.sport, sport), eq(ledgerEntries.outcome, 'pending'), lte(ledgerEntries.commenceTime, now.toISOString()), lte(ledgerEntries.gameDate, easternDate(now))))
    .all();
  return rows.map((r) => r.date).sort();
}

/**
 * The columns settlement and CLV read, in this order (see PendingRow). The capture time and start
 * are read only where a close was captured: without one, computeClv never looks at them.
 */
const PENDING_SQL =
  'select "id", "team", "player_key", "stat_type", "line", "side", "locked_fair_prob", "closing_line", "closing_fair_prob", "closing_captured_at", ' +
  'case when "closing_line" is null or "closing_captured_at" is null then null else "commence_time" end ' +
  'from "ledger_entries" where ("sport" = ? and "game_date" = ? and "outcome" = ?)';
type PendingRow = [number, string | null, string, string, number, 'over' | 'under', number | null, number | null, number | null, string | null, string | null];

const SETTLE_SQL =
  'update "ledger_entries" set "outcome" = ?, "actual_value" = ?, "settled_at" = ?, "clv" = ?, "clv_line" = ?, "clv_verdict" = ? where ("id" = ? and "outcome" = ?)';

/**
 * One date's entries, inside the run's write transaction (its box scores are already stored): the
 * date's pending entries read once (only the columns settlement and CLV need) and each settled
 * through one prepared UPDATE. Games are looked up by team and players by key in maps built once
 * per date.
 */
/** The box-score lines of a date's final games: what the settle run stores as history. */
function finalLines(games: readonly GameResults[]): PlayerGameStat[] {
  return games.filter((g) => g.status === 'final' && g.players !== null).flatMap((g) => g.players ?? []);
}

function settleDate(store: Store, sport: GradedSport, date: string, games: GameResults[], now: Date, summary: SettleSummary): void {
  const client = store.sqlite;
  const lookup = resultLookup(games);
  const settledAt = now.toISOString();
  const update = prepared(client, SETTLE_SQL);
  const pending = prepared(client, PENDING_SQL).raw(true).all(sport, date, 'pending') as PendingRow[];
  for (const row of pending) {
    const [id, team, playerKey, statType, line, side, lockedFairProb, closingLine, closingFairProb, closingCapturedAt, commenceTime] = row;
    const result = lookup(team, playerKey, statType);
    if (!result) {
      bump(summary.pendingReasons, 'game_not_found');
      summary.stillPending += 1;
      continue;
    }
    const s = settleEntry({ line, side }, result);
    if (s.outcome === 'pending') {
      bump(summary.pendingReasons, s.reason);
      summary.stillPending += 1;
      continue;
    }
    const clv = computeClv({ side, line, lockedFairProb, closingLine, closingFairProb, closingCapturedAt, commenceTime: commenceTime ?? '' });
    update.run(s.outcome, 'actualValue' in s ? s.actualValue : null, settledAt, clv.clv, clv.clvLine, clv.verdict, id, 'pending');
    summary.settled[s.outcome] += 1;
    summary.clv[clv.verdict ?? 'noClose'] += 1;
  }
}

/**
 * An entry's result: its game is the first of the date's games its team played in; the player's
 * line is the first box-score line with its key in that game. No team match means no result
 * (pending), never a guess.
 */
function resultLookup(games: readonly GameResults[]): (team: string | null, playerKey: string, statType: string) => GameResult | null {
  const gameOf = new Map<string, GameResults>();
  for (const g of games) {
    for (const abbr of [g.homeAbbr, g.awayAbbr]) if (abbr !== null && !gameOf.has(abbr)) gameOf.set(abbr, g);
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
    const game = team === null ? undefined : gameOf.get(team);
    if (!game) return null;
    if (game.status !== 'final') return { status: game.status, boxScore: null };
    if (game.players === null) return null;
    const line = lineOf(game, playerKey);
    if (!line) return { status: 'final', boxScore: null };
    const stat = line.stats[statType as keyof typeof line.stats];
    return { status: 'final', boxScore: { stat: stat ?? null, minutes: line.minutes } };
  };
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}
