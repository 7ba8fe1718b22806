import type { Env } from '../config.js';
import { assessReadiness, READINESS_SPORTS, type Readiness } from '../domain/readiness.js';
import { pendingMigrations, type Store } from '../store/db.js';
import { heldRunLocks, sportRunFacts } from '../store/repo/health.js';
import { creditsSpentToday } from '../store/repo/odds-credits.js';

/**
 * The readiness read model behind GET /readyz and `propgrade status`. Credits and locks are
 * counted on the wall clock (money and leases); each sport's freshness on its own clock.
 */
export async function readReadiness(store: Store, config: Pick<Env, 'SNAPSHOT_EXPECTED_INTERVAL' | 'ODDS_API_DAILY_BUDGET'>, wallNow: Date): Promise<Readiness> {
  const [pending, sports, locks, spentToday] = await Promise.all([
    pendingMigrations(store),
    Promise.all(READINESS_SPORTS.map((sport) => sportRunFacts(store, sport))),
    heldRunLocks(store),
    creditsSpentToday(store, wallNow),
  ]);
  return assessReadiness(
    {
      pendingMigrations: pending,
      sports,
      locks,
      credits: { spentToday, dailyBudget: config.ODDS_API_DAILY_BUDGET ?? null },
    },
    wallNow,
    config.SNAPSHOT_EXPECTED_INTERVAL,
  );
}
