import { easternDate } from '../domain/time.js';
import type { Store } from '../store/db.js';
import { heroOfSnapshots, latestHeroOf } from '../store/repo/graded-rows.js';
import { latestSnapshot, type GradedRowRecord } from '../store/repo/snapshots.js';

/**
 * The hero prop: on today's slate (latest snapshots pinned to today's ET date), the A or B prop
 * with the largest |projection - line|. No such prop today: the most recent real graded A/B read
 * from any stored snapshot, flagged `latest`. Nothing stored at all: null. Which rows compete (main
 * lines, a projection on the graded side, an edge not gone now) is store/repo/graded-rows.ts heroWhere.
 */
export async function findHero(store: Store, now: Date, sports: readonly string[]): Promise<{ row: GradedRowRecord; latest: boolean } | null> {
  const today = easternDate(now);
  // Only snapshots taken by the clock (issue 41 item 5): a later board is not yet known at `now`.
  const slateIds = (await Promise.all(sports.map((s) => latestSnapshot(store, s, now))))
    .filter((s) => s !== null && s.slateDate === today)
    .map((s) => s!.id);
  if (slateIds.length > 0) {
    const row = await heroOfSnapshots(store, slateIds);
    if (row) return { row, latest: false };
  }
  const fallback = await latestHeroOf(store, sports, now);
  return fallback ? { row: fallback, latest: true } : null;
}
