import type { PlayerGameStat } from '../domain/entities.js';
import { entriesNeedingEvent, settleEntries, type ClvCounts, type EventTeams } from '../domain/settle-entries.js';
import type { GradedSport } from '../domain/sports.js';
import { addDays, easternDate } from '../domain/time.js';
import type { GameResults, ResultsSource, RunLogger } from '../feeds/sources.js';
import type { Env } from '../config.js';
import { AppError } from '../errors.js';
import { buildResultsSource } from '../feeds/factory.js';
import { teamAbbr } from '../feeds/odds-api/teams.js';
import { contextSourceFor } from '../feeds/context.js';
import type { LiveTransportOptions } from '../feeds/transport/live.js';
import type { Store } from '../store/db.js';
import { gameStatsWriter } from '../store/repo/game-stats.js';
import { eventTeamsOf, pendingDates, pendingOfDate, writeSettlements } from '../store/repo/ledger-settle.js';
import { acquireRunLock, holderText, processOwner } from '../store/repo/run-lock.js';
import { finishRun, startRun } from '../store/repo/runs.js';
import { transaction } from '../store/repo/tx.js';

export type { ClvCounts } from '../domain/settle-entries.js';

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
  /** Final games whose box scores this run read (their player lines are playerGamesWritten). */
  finalGames: number;
  unavailableDates: string[];
  /** CLV of the entries this run settled (docs/ledger.md): beat, faded, flat, or no close captured. */
  clv: ClvCounts;
  /** Pending entries of the sport whose game has not started by `now` (or is dated after today): not due yet. */
  notDue: NotDue | null;
  message: string | null;
}

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
    finalGames: 0,
    unavailableDates: [] as string[],
    clv: { beat: 0, faded: 0, flat: 0, noClose: 0 },
    notDue: null as NotDue | null,
  };
  const lock = await acquireRunLock(store, `settle:${sport}`, opts.owner ?? processOwner(), opts.wallClock ?? (() => new Date()));
  if ('heldBy' in lock) {
    const message = `a ${sport} settle run holds the lock (${holderText(lock)})`;
    opts.log.warn(message, { sport });
    return { ...empty, runId: 0, status: 'locked', message };
  }
  const runId = await startRun(store, 'settle', sport, now.toISOString());
  try {
    const pending = opts.date ? null : await dueDates(store, sport, now);
    const dates = opts.date ? [opts.date] : (pending?.dates ?? []);
    // Null when none is waiting for its game (a real 0 once counted), or when --date skipped the count.
    const notDue = pending?.notDue ?? null;
    if (dates.length === 0) {
      // Nothing due is not nothing pending: say how many wait for their games, and until when.
      const message = notDue
        ? `${notDue.pending} pending, none due yet: their games start after ${now.toISOString().replace('.000Z', 'Z')} (the first at ${notDue.firstStart})`
        : 'nothing pending';
      await finishRun(store, runId, { status: 'empty', finishedAt: now.toISOString(), settledCount: 0, message });
      return { ...empty, notDue, runId, status: 'empty', message };
    }
    const summary: SettleSummary = { ...empty, clv: { ...empty.clv }, notDue, dates, runId, status: 'ok', message: null };
    // Fetch phase: every due date's results first (the providers are async)...
    const fetched: Array<{ date: string; games: GameResults[] }> = [];
    for (const date of dates) {
      const games = await opts.results.results(sport, date);
      if (games === null) {
        summary.unavailableDates.push(date);
        log.warn(`${sport} ${date}: results unavailable; entries stay pending`, { sport });
        continue;
      }
      fetched.push({ date, games });
    }
    // ...then the write phase in one transaction: each page is written once for the whole run,
    // and a run that dies leaves nothing half-settled. History first (every date's final box
    // scores, in date order), then the ledger date by date: read its pending entries, decide them
    // in the domain, write the decisions. One table at a time keeps each one's pages in the cache.
    const settledAt = now.toISOString();
    await transaction(store, async (tx) => {
      const writer = await gameStatsWriter(tx);
      for (const { games } of fetched) {
        const lines = finalLines(games);
        for (const line of lines) writer.write(line);
        summary.playerGamesWritten += lines.length;
        summary.finalGames += finalGameCount(games);
      }
      await writer.flush();
      for (const { date, games } of fetched) {
        const entries = await pendingOfDate(tx, sport, date);
        // The events' teams are read only for entries their booked team does not settle (none on most dates).
        const asked = entriesNeedingEvent(entries, games);
        const decided = settleEntries(entries, games, asked.length === 0 ? undefined : withCodes(sport, await eventTeamsOf(tx, sport, asked)));
        const written = await writeSettlements(tx, settledAt, decided.settled);
        // Every settled decision is a written row and nothing else is: the counts are the rows' own.
        if (written !== decided.settled.length) throw new Error(`settle ${sport} ${date}: ${written} entries written for ${decided.settled.length} settled`);
        addDate(summary, decided);
      }
    }, { exclusive: false });
    const settledCount = Object.values(summary.settled).reduce((a, b) => a + b, 0);
    const failedAll = summary.unavailableDates.length === dates.length;
    summary.status = failedAll ? 'failed' : 'ok';
    if (failedAll) summary.message = 'results unavailable for every date';
    await finishRun(store, runId, {
      status: summary.status,
      finishedAt: now.toISOString(),
      settledCount,
      message: summary.message,
      details: { dates, settled: summary.settled, clv: summary.clv, notDue: opts.date ? null : (summary.notDue?.pending ?? 0), stillPending: summary.stillPending, pendingReasons: summary.pendingReasons, unavailableDates: summary.unavailableDates, playerGamesWritten: summary.playerGamesWritten, finalGames: summary.finalGames },
    });
    return summary;
  } catch (error) {
    await finishRun(store, runId, { status: 'failed', finishedAt: now.toISOString(), message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    await lock.release();
  }
}


/** ET dates with pending entries whose game has started by `now`, and the pending entries those dates leave out (not due yet). */
async function dueDates(store: Store, sport: string, now: Date): Promise<{ dates: string[]; notDue: NotDue | null }> {
  const { due, notDue } = await pendingDates(store, sport, now.toISOString(), easternDate(now));
  // Every one of the not-due games is over by 12:00Z the day after the latest of their dates.
  return { dates: due, notDue: notDue && { ...notDue, settleAfter: `${addDays(notDue.lastGameDate, 1)}T12:00:00Z` } };
}

/** The events' teams with their codes where the team table knows the names (soccer clubs are not tabled: names only). */
function withCodes(sport: GradedSport, events: ReadonlyMap<string, EventTeams>): Map<string, EventTeams> {
  return new Map([...events].map(([id, e]) => [id, { ...e, homeAbbr: teamAbbr(sport, e.homeTeam), awayAbbr: teamAbbr(sport, e.awayTeam) }]));
}

/** The box-score lines of a date's final games: what the settle run stores as history. */
function finalLines(games: readonly GameResults[]): PlayerGameStat[] {
  return games.filter((g) => g.status === 'final' && g.players !== null).flatMap((g) => g.players ?? []);
}

/** The games finalLines read: final, with a box score. */
function finalGameCount(games: readonly GameResults[]): number {
  return games.filter((g) => g.status === 'final' && g.players !== null).length;
}

/** Adds one date's decisions to the run's summary. */
function addDate(summary: SettleSummary, d: ReturnType<typeof settleEntries>): void {
  for (const k of ['hit', 'miss', 'push', 'void'] as const) summary.settled[k] += d.counts[k];
  for (const k of ['beat', 'faded', 'flat', 'noClose'] as const) summary.clv[k] += d.clv[k];
  for (const [reason, n] of Object.entries(d.pendingReasons)) summary.pendingReasons[reason] = (summary.pendingReasons[reason] ?? 0) + n;
  summary.stillPending += d.stillPending;
}

export interface SettleJobOptions {
  store: Store;
  config: Env;
  sports: readonly GradedSport[];
  /** The run's data clock: what is due, and the replay's time. */
  now: Date;
  replayDir: string | null;
  recordDir: string | null;
  log: RunLogger;
  /** Settle only this ET game date (default: every date with pending entries). */
  date?: string | undefined;
  /** The live transport's patience and wall-clock timers (tests shorten them). */
  live?: Partial<LiveTransportOptions>;
}

/**
 * `propgrade settle`: the results source (replayed, recorded or live; keyless) built once, each
 * sport settled in turn, the source closed whatever happens.
 */
export async function runSettleJob(opts: SettleJobOptions): Promise<SettleSummary[]> {
  const origin = await resultsOrigin(opts);
  const sources =
    'refusal' in origin
      ? { results: { results: () => Promise.reject(origin.refusal) } satisfies ResultsSource, close: async () => {} }
      : await buildResultsSource(opts.config, { replayDir: origin.replayDir, recordDir: opts.recordDir, now: opts.now, log: opts.log, ...(opts.live ? { live: opts.live } : {}) });
  try {
    const summaries: SettleSummary[] = [];
    for (const sport of opts.sports) {
      summaries.push(await runSettle(sport, { store: opts.store, results: sources.results, now: opts.now, log: opts.log, ...(opts.date ? { date: opts.date } : {}) }));
    }
    return summaries;
  } finally {
    await sources.close();
  }
}

/**
 * A replayed store never calls a provider: without --replay, --record or PROPGRADE_REPLAY its box
 * scores come from the recording it was replayed from; when that is not known, a run that has
 * results to fetch is refused (one with nothing due still says what waits).
 */
async function resultsOrigin(opts: SettleJobOptions): Promise<{ replayDir: string | null } | { refusal: AppError }> {
  if (opts.replayDir || opts.recordDir || opts.config.PROPGRADE_REPLAY) return { replayDir: opts.replayDir };
  const source = await contextSourceFor(opts.store, opts.config, { replayDir: null, recordDir: null });
  if (source.kind === 'live') return { replayDir: null };
  if (source.kind === 'offline') return { refusal: new AppError('UNAVAILABLE_ON_REPLAY', 'this store was replayed from recorded data and its recording is not known: pass --replay <folder> to settle it (a replayed store never calls a provider)') };
  opts.log.info(`settling from the recording this store was replayed from: ${source.dir}`);
  return { replayDir: source.dir };
}
