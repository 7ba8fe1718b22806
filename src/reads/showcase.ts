import { EDGE_PLAUSIBLE_MAX_PCT, pickShowcase, SHOWCASE_GRADES, type Showcase } from '../domain/showcase.js';
import { GRADED_SPORTS, type GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import { latestSnapshot, snapshotRows, type Snapshot } from '../store/repo/snapshots.js';
import { freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, replayTracking, type ContextDeps } from '../feeds/context.js';
import { STATS_CACHE } from './stats-common.js';

/**
 * GET /api/desk-showcase and `propgrade showcase`: the desk showcase of the latest graded board
 * (src/domain/showcase.ts picks it). Reads the store only; cached six hours under the ids of the
 * snapshots it read, so a new snapshot is a new entry. No real ladder: `{available: false}`.
 */

export type ShowcaseView =
  | ({
      available: true;
      snapshotId: number;
      takenAt: string;
      slateDate: string;
      /** True when that board is not today's slate (the latest stored one is shown). */
      latest: boolean;
      edgeRule: string;
    } & Showcase &
      Freshness)
  | { available: false; reason: string };

interface Stored {
  showcase: Showcase | null;
  snapshot: Pick<Snapshot, 'id' | 'takenAt' | 'slateDate'> | null;
  boards: number;
}

export async function readShowcase(deps: ContextDeps, options: { sport?: GradedSport; refresh?: boolean } = {}): Promise<ShowcaseView> {
  const sports = options.sport ? [options.sport] : GRADED_SPORTS;
  // Each sport's newest snapshot taken by its clock, never a later one (issue 41 item 5).
  const clockOf = (sport: GradedSport): Date => (deps.forSport ? deps.forSport(sport) : deps.now);
  const snapshots = (await Promise.all(sports.map((s) => latestSnapshot(deps.store, s, clockOf(s))))).filter((s): s is Snapshot => s !== null);
  if (snapshots.length === 0) return { available: false, reason: `no graded board stored${options.sport ? ` for ${options.sport}` : ''}: run a snapshot first` };
  const key = contextKey(deps.providers, 'showcase', options.sport ?? 'all', snapshots.map((s) => s.id).join('-'));
  const read = await deps.cache.read<Stored>(key, STATS_CACHE.showcase, deps.now, {
    ...replayTracking(deps),
    ...(options.refresh ? { refresh: true } : {}),
    load: async () => {
      const rows = (await Promise.all(snapshots.map((s) => snapshotRows(deps.store, s.id)))).flat();
      const showcase = pickShowcase(rows);
      const snapshot = showcase ? snapshots.find((s) => s.sport === showcase.sport)! : null;
      return { ok: true, value: { showcase, snapshot: snapshot ? { id: snapshot.id, takenAt: snapshot.takenAt, slateDate: snapshot.slateDate } : null, boards: snapshots.length } };
    },
  });
  if (!read.ok) return { available: false, reason: read.reason };
  const { showcase, snapshot } = read.value;
  if (!showcase || !snapshot) {
    return { available: false, reason: `no real alternate-line ladder with an ${SHOWCASE_GRADES.join(' or ')} rung on the latest board${snapshots.length === 1 ? '' : 's'}` };
  }
  return {
    available: true,
    snapshotId: snapshot.id,
    takenAt: snapshot.takenAt,
    slateDate: snapshot.slateDate,
    latest: snapshot.slateDate !== easternDate(deps.now),
    edgeRule: `edge = EV of the book price against the fair probability; shown only within ±${EDGE_PLAUSIBLE_MAX_PCT}% and on a credible (not outlier) price, else null with edge_note (docs/stats.md)`,
    ...showcase,
    ...freshnessOf(read),
  };
}
