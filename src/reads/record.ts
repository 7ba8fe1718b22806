import { normalizeName } from '../domain/names.js';
import { GRADED_SPORTS } from '../domain/sports.js';
import {
  accuracyOptionsSchema,
  createRecordTally,
  RECORD_WINDOW_DAYS,
  recordScope,
  recordWindow,
  tierAccuracy,
  type OutcomeCounts,
  type RecordScopeInput,
  type RecordTally,
  type RecordWindow,
} from '../domain/records.js';
import { settledElsewhere, type SettledElsewhere } from '../domain/record-elsewhere.js';
import type { Store } from '../store/db.js';
import { cappedCounts, settledTotals, tallyRecordRows, type RecordRowScope } from '../store/repo/ledger-record.js';

type Narrowing = Pick<RecordScopeInput, 'team' | 'player' | 'sport'>;

/** The scope as the store filters it: a team upper-cased, a player as his key. */
function rowScope(scope: Narrowing): RecordRowScope {
  return {
    ...(scope.sport ? { sport: scope.sport } : {}),
    ...(scope.team ? { team: scope.team.trim().toUpperCase() } : {}),
    ...(scope.player ? { playerKey: normalizeName(scope.player).key } : {}),
  };
}

/** The record over the window's public rows (and scope): the store feeds each row to a fresh tally. */
async function tallyWindow(store: Store, now: Date, days: number, date: string | undefined, scope: Narrowing = {}): Promise<RecordTally> {
  const tally = createRecordTally();
  await tallyRecordRows(store, rowScope(scope), recordWindow(now, days, date), tally);
  return tally;
}

function settledIn(counts: OutcomeCounts): number {
  return counts.hits + counts.misses + counts.pushes + counts.voids;
}

/**
 * When the window holds no settled entry: the settled public entries of the same scope elsewhere
 * (how many, the latest date) so the reader is told where the record is. Null when there are none.
 */
async function elsewhere(store: Store, window: RecordWindow, days: number, scope: Narrowing): Promise<SettledElsewhere | null> {
  const totals = await settledTotals(store, rowScope(scope));
  return totals === null ? null : settledElsewhere(window, days, totals);
}

/**
 * The record. With `clockFor` (a replayed store, whose sports were recorded on different days) and
 * no sport or date, each sport's entries are counted in the window ending on its own clock, and the
 * window shown spans them all.
 */
export async function readModelRecord(store: Store, scope: RecordScopeInput, clockFor?: (sport: string) => Date) {
  const days = scope.days ?? RECORD_WINDOW_DAYS;
  const perSport = clockFor !== undefined && !scope.sport && scope.date === undefined;
  const { window: single, scope: shown } = recordScope(scope);
  let tally: RecordTally;
  let window = single;
  if (perSport) {
    tally = createRecordTally();
    const windows = GRADED_SPORTS.map((sport) => ({ sport, window: recordWindow(clockFor(sport), days) }));
    for (const w of windows) await tallyRecordRows(store, rowScope({ ...scope, sport: w.sport }), w.window, tally);
    window = { from: windows.map((w) => w.window.from).sort()[0] ?? single.from, to: windows.map((w) => w.window.to).sort().at(-1) ?? single.to };
  } else {
    tally = await tallyWindow(store, scope.now, days, scope.date, scope);
  }
  const aggregate = tally.aggregate(window, shown);
  // The tiers lead: each is read against its own claim before the all-entries aggregate.
  return {
    tiers: tally.tiers(),
    aggregate,
    /** Entries of the window whose letter a cap holds below what its EV earned, per letter and reason. */
    capped: await cappedCounts(store, rowScope(scope), aggregate.window),
    /** Set only when the window holds no settled entry and the scope has settled entries elsewhere. */
    settledElsewhere: settledIn(aggregate.counts) === 0 ? await elsewhere(store, aggregate.window, days, scope) : null,
  };
}

export async function readAccuracy(store: Store, now: Date, days = RECORD_WINDOW_DAYS, sport?: string) {
  const scope = sport ? { sport } : {};
  const opts = accuracyOptionsSchema.parse({ now, days, ...scope });
  const tally = await tallyWindow(store, now, days, undefined, scope);
  const accuracy = tierAccuracy(recordWindow(opts.now, opts.days), opts.minSample, tally.tiers());
  const settled = settledIn(tally.aggregate(accuracy.window, { team: null, player: null, sport: sport ?? null }).counts) > 0;
  return { ...accuracy, settledElsewhere: settled ? null : await elsewhere(store, accuracy.window, days, scope) };
}
