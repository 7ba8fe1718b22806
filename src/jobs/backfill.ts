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
    summary.playerGames += upsertGameStats(store.db, finals.flatMap((g) => g.players ?? []));
    log.info(`${sport} ${date}: ${finals.length} final games`);
  }
  return summary;
}
