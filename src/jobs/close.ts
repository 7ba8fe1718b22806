import pLimit from 'p-limit';
import type { Env } from '../config.js';
import { closeLeadMinutes } from '../domain/close-lead.js';
import type { GameEvent, PropQuote } from '../domain/entities.js';
import { FITTED_PARAMS, marketDispersionFor } from '../domain/model/index.js';
import type { Dispersion } from '../domain/model/params.js';
import { assembleSlate, groupQuotes } from '../domain/slate.js';
import type { GradedSport } from '../domain/sports.js';
import type { StatType } from '../domain/stats.js';
import { AppError } from '../errors.js';
import { contextSourceFor } from '../feeds/context.js';
import { buildOddsSource } from '../feeds/factory.js';
import type { OddsSource, RunLogger } from '../feeds/sources.js';
import type { LiveTransportOptions } from '../feeds/transport/live.js';
import type { Transport } from '../feeds/transport/types.js';
import type { Store } from '../store/db.js';
import { kvGet, kvSet } from '../store/repo/kv.js';
import { finishRun, startRun } from '../store/repo/runs.js';
import { addCreditsSpent, creditsSpentToday } from '../store/repo/odds-credits.js';
import { acquireRunLock, holderText, processOwner } from '../store/repo/run-lock.js';
import { snapshotBefore, snapshotSortKeys } from '../store/repo/snapshots.js';
import { transaction } from '../store/repo/tx.js';
import { closeTakenWithin, closeWindow, inCloseWindow, recordedOddsClock, snapshotGames } from './close-due.js';
import { captureClosings, type ClosingRow } from './ledger-writes.js';

/**
 * The close-capture run (issue 43, `propgrade close`): run every 5-10 minutes, it takes the close
 * of each game a snapshot graded that starts in (now, now + within] and has no close inside that
 * lead yet: one event-odds call per such game (the only calls that cost credits), its closing
 * prices recorded and its pending ledger entries' close re-priced by the snapshot's own rule
 * (captureClosings). It holds the sport's snapshot lock, since both write the same closes.
 */

/** What a run remembers of a game whose close it took (kv_cache), so the next run in the window fetches nothing. */
interface CloseMark {
  capturedAt: string;
  commenceTime: string;
  prices: number;
}

const markKey = (sport: string, eventId: string) => `close-run:${sport}:${eventId}`;
/** A mark outlives its game by days: the window is minutes. */
const MARK_TTL_SECONDS = 3 * 86_400;

export interface CloseRunOptions {
  store: Store;
  odds: OddsSource;
  /** The data clock: which games are in the window (--now / PROPGRADE_NOW / a replay's time, else the wall clock). */
  now: Date;
  withinMinutes: number;
  allowedBooks: readonly string[] | null;
  /** The replay folder the odds come from, or null when live: a replayed close is stamped when it was recorded. */
  replayDir: string | null;
  log: RunLogger;
  owner?: string;
  /** Wall clock for the lock lease. */
  wallClock?: () => Date;
  concurrency?: number;
  /** Credits the odds source has spent so far (live); the run log records this run's share. */
  creditsSpent?: () => number;
}

export type CloseEventStatus = 'captured' | 'unavailable' | 'not_listed' | 'moved' | 'not_recorded';

export interface CloseEventResult {
  eventId: string;
  game: string;
  commenceTime: string;
  status: CloseEventStatus;
  /** When the close was taken (the data clock live; a replay's recording time); null when none was. */
  capturedAt: string | null;
  leadMinutes: number | null;
  /** Closing prices recorded (priced rows of the game). */
  prices: number;
  /** Pending ledger entries whose close this capture re-priced. */
  closings: number;
  reason: string | null;
}

export interface CloseSummary {
  sport: GradedSport;
  status: 'ok' | 'failed' | 'locked';
  window: { from: string; to: string };
  withinMinutes: number;
  /** The snapshot whose games were considered (the newest at or before the data clock). */
  snapshotAt: string | null;
  /** Games of that snapshot starting in the window. */
  inWindow: number;
  /** Of those, games whose close was already taken inside the lead (a snapshot or an earlier close run). */
  alreadyClosed: number;
  /** Event-odds calls made (each one costs credits live). */
  fetched: number;
  events: CloseEventResult[];
  message: string | null;
}

const gameOf = (e: Pick<GameEvent, 'awayTeam' | 'homeTeam'>) => `${e.awayTeam} @ ${e.homeTeam}`;

export async function runClose(sport: GradedSport, opts: CloseRunOptions): Promise<CloseSummary> {
  const { store, now, log, withinMinutes: within } = opts;
  const base: CloseSummary = { sport, status: 'ok', window: closeWindow(now, within), withinMinutes: within, snapshotAt: null, inWindow: 0, alreadyClosed: 0, fetched: 0, events: [], message: null };
  const lock = await acquireRunLock(store, `snapshot:${sport}`, opts.owner ?? processOwner(), opts.wallClock ?? (() => new Date()));
  if ('heldBy' in lock) {
    const message = `a ${sport} snapshot or close run holds the lock (${holderText(lock)})`;
    log.warn(message, { sport });
    return { ...base, status: 'locked', message };
  }
  const runId = await startRun(store, 'close', sport, now.toISOString());
  const spentBefore = opts.creditsSpent?.() ?? null;
  try {
    const summary = await takeCloses(sport, opts, base);
    // The run log (status, `propgrade status`): on the data clock, as snapshot and settle record theirs.
    await finishRun(store, runId, {
      status: summary.status === 'failed' ? 'failed' : summary.fetched === 0 ? 'empty' : 'ok',
      finishedAt: now.toISOString(),
      eventsCount: summary.inWindow,
      message: summary.message,
      ...(spentBefore === null ? {} : { creditsUsed: (opts.creditsSpent?.() ?? spentBefore) - spentBefore }),
      details: { within_minutes: within, fetched: summary.fetched, captured: summary.events.filter((e) => e.status === 'captured').length, already_closed: summary.alreadyClosed },
    });
    return summary;
  } catch (error) {
    await finishRun(store, runId, { status: 'failed', finishedAt: now.toISOString(), message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    await lock.release();
  }
}

/** The run under the lock: the games due a close, their odds fetched and their closes recorded. */
async function takeCloses(sport: GradedSport, opts: CloseRunOptions, base: CloseSummary): Promise<CloseSummary> {
  const { store, now, log, withinMinutes: within } = opts;
  // The newest snapshot at or before the data clock names the games and their starts.
  const snapshot = await snapshotBefore(store, sport, new Date(now.getTime() + 1).toISOString());
  if (!snapshot) return { ...base, message: `no ${sport} snapshot yet: a close is taken for the games a snapshot graded` };
  const games = snapshotGames(sport, await snapshotSortKeys(store, snapshot.id)).filter((g) => inCloseWindow(g.commenceTime, now, within));
  // A replay's recording times, read once for the run: when each game's odds were recorded.
  const recordedAt = opts.replayDir === null ? null : recordedOddsClock(opts.replayDir);
  const due: GameEvent[] = [];
  for (const g of games) {
    const mark = await kvGet<CloseMark>(store, markKey(sport, g.id), now);
    // The snapshot's close of the game, stamped as the snapshot stamped it (a replay: when the odds it read were recorded).
    const snapshotClose = recordedAt?.(g.id, new Date(snapshot.takenAt)) ?? snapshot.takenAt;
    if (closeTakenWithin(snapshotClose, g.commenceTime, within) || closeTakenWithin(mark?.capturedAt ?? null, g.commenceTime, within)) continue;
    due.push(g);
  }
  const summary: CloseSummary = { ...base, snapshotAt: snapshot.takenAt, inWindow: games.length, alreadyClosed: games.length - due.length };
  if (due.length === 0) {
    summary.message = games.length === 0 ? `no ${sport} game starts by ${base.window.to}` : `every ${sport} game starting by ${base.window.to} has its close (${games.length})`;
    return summary;
  }
  log.info(`${sport}: ${due.length} game${due.length === 1 ? '' : 's'} starting by ${base.window.to} without a close: fetching their odds`, { sport });
  // The events list is free: it confirms each game is still listed and still starts in the window.
  const listed = await opts.odds.events(sport);
  if (listed === null) return { ...summary, status: 'failed', message: `${sport} events feed unavailable${because(opts.odds)}` };
  const current = new Map(listed.map((e) => [e.id, e]));
  const targets: Array<{ event: GameEvent; capturedAt: string }> = [];
  for (const g of due) {
    const event = current.get(g.id);
    const skip = (status: CloseEventStatus, reason: string) => summary.events.push({ eventId: g.id, game: gameOf(g), commenceTime: event?.commenceTime ?? g.commenceTime, status, capturedAt: null, leadMinutes: null, prices: 0, closings: 0, reason });
    if (!event) skip('not_listed', 'no longer listed by the odds provider');
    else if (!inCloseWindow(event.commenceTime, now, within)) skip('moved', `now starts at ${event.commenceTime}`);
    else if (recordedAt === null) targets.push({ event, capturedAt: now.toISOString() });
    else {
      const at = recordedAt(event.id, now);
      if (closeTakenWithin(at, event.commenceTime, within)) targets.push({ event, capturedAt: at as string });
      else skip('not_recorded', `the recording holds no odds for it within ${within} min of the start${at ? ` (its newest: ${at})` : ''}`);
    }
  }
  const limit = pLimit(opts.concurrency ?? 4);
  const fetched = await Promise.all(
    targets.map((t) =>
      limit(async () => {
        const quotes = await opts.odds.propQuotes(sport, t.event);
        // A refused call (the daily budget) or a failed one says why in the source's own words.
        return { ...t, quotes, why: quotes === null ? (opts.odds.lastFailure?.() ?? 'odds unavailable') : null };
      }),
    ),
  );
  summary.fetched = fetched.length;
  const dispersionFor = (stat: StatType) => marketDispersionFor(FITTED_PARAMS, sport, stat);
  // One transaction: a game's closes and its mark are written together or not at all.
  const captured = await transaction(store, async (tx) => {
    const out: CloseEventResult[] = [];
    for (const f of fetched) {
      const { event, capturedAt } = f;
      const row = { eventId: event.id, game: gameOf(event), commenceTime: event.commenceTime, capturedAt, leadMinutes: closeLeadMinutes(capturedAt, event.commenceTime) };
      if (f.quotes === null) {
        out.push({ ...row, status: 'unavailable', capturedAt: null, leadMinutes: null, prices: 0, closings: 0, reason: f.why });
        continue;
      }
      const { rows, books } = closingRows(sport, f.quotes, event, opts.allowedBooks, dispersionFor);
      const closings = await captureClosings(tx, sport, rows, books, new Date(capturedAt), dispersionFor);
      const prices = rows.filter((r) => r.bookOdds !== null && r.bookOdds !== undefined).length;
      await kvSet(tx, markKey(sport, event.id), { capturedAt, commenceTime: event.commenceTime, prices } satisfies CloseMark, now, MARK_TTL_SECONDS);
      out.push({ ...row, status: 'captured', prices, closings, reason: null });
    }
    return out;
  }, { exclusive: false });
  summary.events.push(...captured);
  summary.events.sort((a, b) => a.commenceTime.localeCompare(b.commenceTime) || a.eventId.localeCompare(b.eventId));
  const unavailable = captured.filter((e) => e.status === 'unavailable');
  if (unavailable.length > 0) {
    summary.message = `odds unavailable for ${unavailable.length} of ${fetched.length} games: ${unavailable[0]?.reason ?? ''}`;
    log.warn(`${sport}: ${summary.message}`, { sport });
  }
  if (fetched.length > 0 && unavailable.length === fetched.length) summary.status = 'failed';
  const took = captured.filter((e) => e.status === 'captured');
  if (took.length > 0) log.info(`${sport}: took the close of ${took.length} game${took.length === 1 ? '' : 's'} (${took.reduce((n, e) => n + e.prices, 0)} prices, ${took.reduce((n, e) => n + e.closings, 0)} ledger entries re-priced)`, { sport });
  return summary;
}

/** A game's quotes priced as a snapshot prices them (the same books and rule), without grading: what captureClosings reads. */
function closingRows(sport: GradedSport, quotes: readonly PropQuote[], event: GameEvent, allowedBooks: readonly string[] | null, dispersionFor: (stat: StatType) => Dispersion | null) {
  const books = groupQuotes(quotes, { allowedBooks });
  const rows: ClosingRow[] = assembleSlate(books, dispersionFor, sport)
    .filter((p) => p.eventId === event.id)
    .map((p) => ({ ...p, statType: p.stat, commenceTime: event.commenceTime }));
  return { rows, books };
}

function because(odds: OddsSource): string {
  const why = odds.lastFailure?.() ?? null;
  return why ? `: ${why}` : '';
}

export interface CloseJobOptions {
  store: Store;
  config: Env;
  sports: readonly GradedSport[];
  now: Date;
  withinMinutes: number;
  replayDir: string | null;
  recordDir: string | null;
  log: RunLogger;
  /** The wall clock: the daily credit budget is counted by the real ET day, and the lock's lease. */
  wallNow?: () => Date;
  transport?: Transport;
  live?: Partial<LiveTransportOptions>;
  owner?: string;
}

export interface CloseJobResult {
  runs: CloseSummary[];
  credits: {
    /** Credits this run spent (0 on a replay: recorded answers cost nothing). */
    spent: number;
    /** Spent today (ET, wall clock) including this run. */
    spentToday: number;
    /** ODDS_API_DAILY_BUDGET; null when unset. */
    dailyBudget: number | null;
  };
}

/**
 * `propgrade close`: one odds source for every sport, the day's credits carried in and booked after
 * a live run. A replayed store never calls a provider: without --replay it reads the recording it
 * was replayed from, and is refused when that is not known.
 */
export async function runCloseJob(opts: CloseJobOptions): Promise<CloseJobResult> {
  const replayDir = await oddsOrigin(opts);
  const wallNow = opts.wallNow ?? (() => new Date());
  const wall = wallNow();
  const spentBefore = replayDir ? 0 : await creditsSpentToday(opts.store, wall);
  const sources = await buildOddsSource(opts.config, {
    replayDir,
    recordDir: opts.recordDir,
    now: opts.now,
    log: opts.log,
    creditsSpentToday: spentBefore,
    ...(opts.transport ? { transport: opts.transport } : {}),
    ...(opts.live ? { live: opts.live } : {}),
  });
  try {
    const runs: CloseSummary[] = [];
    for (const sport of opts.sports) {
      runs.push(
        await runClose(sport, {
          store: opts.store,
          odds: sources.odds,
          now: opts.now,
          withinMinutes: opts.withinMinutes,
          allowedBooks: opts.config.ALLOWED_BOOKS,
          replayDir,
          log: opts.log,
          wallClock: wallNow,
          ...(replayDir ? {} : { creditsSpent: () => sources.budget.state().spent }),
          ...(opts.owner ? { owner: opts.owner } : {}),
        }),
      );
    }
    const spent = replayDir ? 0 : sources.budget.state().spent - spentBefore;
    const spentToday = replayDir ? await creditsSpentToday(opts.store, wall) : await addCreditsSpent(opts.store, wall, spent);
    return { runs, credits: { spent, spentToday, dailyBudget: opts.config.ODDS_API_DAILY_BUDGET ?? null } };
  } finally {
    await sources.close();
  }
}

/** The replay folder the odds come from, or null for the live provider; a replayed store whose recording is not known is refused. */
async function oddsOrigin(opts: CloseJobOptions): Promise<string | null> {
  if (opts.replayDir || opts.config.PROPGRADE_REPLAY) return opts.replayDir ?? opts.config.PROPGRADE_REPLAY ?? null;
  if (opts.recordDir) return null;
  const source = await contextSourceFor(opts.store, opts.config, { replayDir: null, recordDir: null });
  if (source.kind === 'live') return null;
  if (source.kind === 'offline') throw new AppError('UNAVAILABLE_ON_REPLAY', 'this store was replayed from recorded data and its recording is not known: pass --replay <folder> to take its closes (a replayed store never calls a provider)');
  opts.log.info(`taking closes from the recording this store was replayed from: ${source.dir}`);
  return source.dir;
}
