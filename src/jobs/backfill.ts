import type { Env } from '../config.js';
import { badInput } from '../errors.js';
import { buildResultsSource } from '../feeds/factory.js';
import { addDays } from '../domain/time.js';
import type { GradedSport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { upsertGameStats } from '../store/repo/game-stats.js';
import type { ResultsSource, RunLogger } from '../feeds/sources.js';

export interface BackfillSummary {
  sport: GradedSport;
  from: string;
  to: string;
  dates: number;
  finalGames: number;
  playerGames: number;
  unavailableDates: string[];
}

/** The most days one backfill walks, so a typo in --from cannot start a season-long crawl. */
export const MAX_BACKFILL_DAYS = 120;

/**
 * Fills the per-player game table from real final box scores over an ET date range, through
 * the same results source the settle run uses. It touches no ledger entry.
 */
export async function runBackfill(store: Store, sport: GradedSport, from: string, to: string, results: ResultsSource, log: RunLogger): Promise<BackfillSummary> {
  const summary: BackfillSummary = { sport, from, to, dates: 0, finalGames: 0, playerGames: 0, unavailableDates: [] };
  for (let date = from; date <= to; date = addDays(date, 1)) {
    summary.dates += 1;
    const games = await results.results(sport, date);
    if (games === null) {
      summary.unavailableDates.push(date);
      log.warn(`${sport} ${date}: results unavailable`);
      continue;
    }
    const finals = games.filter((g) => g.status === 'final' && g.players !== null);
    summary.finalGames += finals.length;
    summary.playerGames += await upsertGameStats(store, finals.flatMap((g) => g.players ?? []));
    log.info(`${sport} ${date}: ${finals.length} final games`);
  }
  return summary;
}

export interface BackfillJobOptions {
  store: Store;
  config: Env;
  sport: GradedSport;
  from: string;
  to: string;
  now: Date;
  replayDir: string | null;
  recordDir: string | null;
  log: RunLogger;
}

/**
 * `propgrade backfill`: refuses a reversed or over-long range before any request, then walks it
 * through the results source the settle run uses (built here, closed whatever happens).
 */
export async function runBackfillJob(opts: BackfillJobOptions): Promise<BackfillSummary> {
  checkBackfillRange(opts.from, opts.to);
  const sources = await buildResultsSource(opts.config, { replayDir: opts.replayDir, recordDir: opts.recordDir, now: opts.now, log: opts.log });
  try {
    return await runBackfill(opts.store, opts.sport, opts.from, opts.to, sources.results, opts.log);
  } finally {
    await sources.close();
  }
}

/** A bad range is the caller's input: refused with what to change. */
export function checkBackfillRange(from: string, to: string): void {
  if (from > to) throw badInput(`--from ${from} is after --to ${to}`);
  if (addDays(from, MAX_BACKFILL_DAYS) <= to) throw badInput(`--from/--to span more than ${MAX_BACKFILL_DAYS} days; split the range`);
}
