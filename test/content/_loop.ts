import { runSettle } from '../../src/jobs/settle.js';
import { collectingLogger, resultsAt, seededStore, snapshotAt } from '../helpers/replay-store.js';

/** The README's replay loop on the bundled real data: two snapshots of the 2025-11-05 NBA slate, then the settle. */
export const MORNING = '2025-11-05T15:05:00Z';
export const NOON = '2025-11-05T17:05:00Z';
export const NEXT_MORNING = '2025-11-06T12:00:00Z';
export const LOOP_DATE = '2025-11-05';

export type LoopStore = Awaited<ReturnType<typeof seededStore>>;

/** A temp store that went through the loop up to `stage`. */
export async function loopStore(stage: 'morning' | 'noon' | 'settled' = 'settled'): Promise<LoopStore> {
  const t = await seededStore();
  await snapshotAt(t.store, 'nba', MORNING);
  if (stage === 'morning') return t;
  await snapshotAt(t.store, 'nba', NOON);
  if (stage === 'noon') return t;
  const sources = await resultsAt(NEXT_MORNING);
  try {
    const summary = await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), log: collectingLogger() });
    if (summary.status !== 'ok') throw new Error(`settle on the replay loop: ${summary.status}`);
  } finally {
    await sources.close();
  }
  return t;
}
