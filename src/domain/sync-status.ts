/** Spec States "Sync status": elapsed since the last run vs SNAPSHOT_EXPECTED_INTERVAL. */
export type SyncStatus = 'normal' | 'amber' | 'stale';

export const AMBER_FACTOR = 1.5;
export const STALE_FACTOR = 3;

/** Under 1.5x the interval is normal, 1.5x or more amber, 3x or more stale. */
export function syncStatus(lastRunAt: Date, now: Date, expectedIntervalMinutes: number): SyncStatus {
  const elapsed = now.getTime() - lastRunAt.getTime();
  const interval = expectedIntervalMinutes * 60_000;
  if (elapsed >= STALE_FACTOR * interval) return 'stale';
  if (elapsed >= AMBER_FACTOR * interval) return 'amber';
  return 'normal';
}
