import { normalizeName } from '../domain/names.js';
import { GRADED_SPORTS, isGradedSport, type GradedSport } from '../domain/sports.js';
import {
  accuracyOptionsSchema,
  createRecordTally,
  RECORD_WINDOW_DAYS,
  recordScope,
  recordWindow,
  tierAccuracy,
  type ModelAggregate,
  type OutcomeCounts,
  type RecordScopeInput,
  type RecordTally,
  type RecordWindow,
  type TierCalibration,
} from '../domain/records.js';
import { settledElsewhere, type SettledElsewhere } from '../domain/record-elsewhere.js';
import type { Store } from '../store/db.js';
import { cappedCounts, settledTotals, tallyRecordRows, type CappedCount, type RecordRowScope } from '../store/repo/ledger-record.js';

/**
 * The public record's reads: `propgrade record` and GET /api/ledger/model and /api/accuracy all come
 * through here, with each sport's data clock, so the CLI and the API count the same entries in the
 * same windows (issue 41: the CLI spanned every sport's clock and the API took 30 days on one).
 */

type Narrowing = Pick<RecordScopeInput, 'team' | 'player' | 'sport'>;

/** The window a sport's entries are counted in. */
export interface SportWindow extends RecordWindow {
  sport: GradedSport;
}

/** The scope as the store filters it: a team upper-cased, a player as his key. */
function rowScope(scope: Narrowing): RecordRowScope {
  return {
    ...(scope.sport ? { sport: scope.sport } : {}),
    ...(scope.team ? { team: scope.team.trim().toUpperCase() } : {}),
    ...(scope.player ? { playerKey: normalizeName(scope.player).key } : {}),
  };
}

/**
 * The windows of a record read: each graded sport's `days` ending on that sport's own clock (a
 * replayed store's sports were recorded on different days; on a live store every clock is the same
 * instant), only the scope's sport when it names one, or the one `date` for every sport.
 */
export function sportWindows(scope: { sport?: string | undefined; date?: string | undefined; days?: number | undefined }, clockFor: (sport: string) => Date): SportWindow[] {
  const days = scope.days ?? RECORD_WINDOW_DAYS;
  // A sport no record holds (never graded) has no window, so nothing is counted for it.
  const sports = scope.sport === undefined ? GRADED_SPORTS : isGradedSport(scope.sport) ? [scope.sport] : [];
  return sports.map((sport) => ({ sport, ...recordWindow(clockFor(sport), days, scope.date) }));
}

/** The span the windows cover, as one window (the record's `window`; `windows` says each sport's). */
function spanOf(windows: readonly SportWindow[], fallback: RecordWindow): RecordWindow {
  if (windows.length === 0) return fallback;
  return { from: windows.map((w) => w.from).sort()[0]!, to: windows.map((w) => w.to).sort().at(-1)! };
}

/**
 * The reads a record makes: one over the scope when every sport's window is the same (a live store,
 * a `--now`, a date, one sport), so the rows come in one game-date order and every float sum is the
 * domain's over the same rows; else one per sport, each in its own window.
 */
function readsOf(windows: readonly SportWindow[], scope: Narrowing): Array<{ scope: Narrowing; window: RecordWindow }> {
  const [first] = windows;
  if (first && windows.every((w) => w.from === first.from && w.to === first.to)) return [{ scope, window: first }];
  return windows.map((w) => ({ scope: { ...scope, sport: w.sport }, window: w }));
}

/** Every public row of the scope in its sport's window, fed to one tally (sports in a fixed order). */
async function tallyWindows(store: Store, windows: readonly SportWindow[], scope: Narrowing, asOf: Date | null): Promise<RecordTally> {
  const tally = createRecordTally();
  for (const r of readsOf(windows, scope)) await tallyRecordRows(store, rowScope(r.scope), r.window, tally, asOf);
  return tally;
}

/** Capped entries per letter, uncapped letter and reason, over each sport's window. */
async function cappedIn(store: Store, windows: readonly SportWindow[], scope: Narrowing, asOf: Date | null): Promise<CappedCount[]> {
  const reads = readsOf(windows, scope);
  if (reads.length === 1) return cappedCounts(store, rowScope(reads[0]!.scope), reads[0]!.window, asOf);
  const merged = new Map<string, CappedCount>();
  for (const w of windows) {
    for (const c of await cappedCounts(store, rowScope({ ...scope, sport: w.sport }), w, asOf)) {
      const key = `${c.grade}|${c.gradeUncapped ?? ''}|${c.capReason}`;
      const known = merged.get(key);
      merged.set(key, known ? { ...known, n: known.n + c.n } : { ...c });
    }
  }
  // SQLite's byte order of the three columns, a missing uncapped letter first (as cappedCounts orders them).
  const bytes = (v: string | null) => (v === null ? '' : `\u0001${v}`);
  return [...merged.values()].sort((a, b) => (a.grade < b.grade ? -1 : a.grade > b.grade ? 1 : bytes(a.gradeUncapped) < bytes(b.gradeUncapped) ? -1 : bytes(a.gradeUncapped) > bytes(b.gradeUncapped) ? 1 : a.capReason < b.capReason ? -1 : a.capReason > b.capReason ? 1 : 0));
}

function settledIn(counts: OutcomeCounts): number {
  return counts.hits + counts.misses + counts.pushes + counts.voids;
}

/**
 * When the window holds no settled entry: the settled public entries of the same scope elsewhere
 * (how many, the latest date) so the reader is told where the record is. Null when there are none.
 */
async function elsewhere(store: Store, window: RecordWindow, days: number, scope: Narrowing, asOf: Date | null): Promise<SettledElsewhere | null> {
  const totals = await settledTotals(store, rowScope(scope), asOf);
  return totals === null ? null : settledElsewhere(window, days, totals);
}

/**
 * The record: each sport's entries counted in the window ending on `clockFor(sport)` (default: every
 * sport at `scope.now`), `windows` naming each, `aggregate.window` their span. `asOf` (docs/ledger.md
 * "As of a time"): only the entries locked and entered by then, each outcome as it stood then (settled later:
 * pending); null reads every outcome the store holds (a replayed store on its own clock).
 */
export async function readModelRecord(store: Store, scope: RecordScopeInput, clockFor?: (sport: string) => Date, asOf: Date | null = null) {
  const days = scope.days ?? RECORD_WINDOW_DAYS;
  const { window: single, scope: shown } = recordScope(scope);
  const windows = sportWindows(scope, clockFor ?? (() => scope.now));
  const window = spanOf(windows, single);
  const tally = await tallyWindows(store, windows, scope, asOf);
  const aggregate = tally.aggregate(window, shown);
  // The tiers lead: each is read against its own claim before the all-entries aggregate.
  return {
    tiers: tally.tiers(),
    aggregate,
    /** The window each sport's entries were counted in (the aggregate's window is their span). */
    windows,
    /** Entries of the windows whose letter a cap holds below what its EV earned, per letter and reason. */
    capped: await cappedIn(store, windows, scope, asOf),
    /** Set only when the window holds no settled entry and the scope has settled entries elsewhere. */
    settledElsewhere: settledIn(aggregate.counts) === 0 ? await elsewhere(store, aggregate.window, days, scope, asOf) : null,
  };
}

/** The record's beat-close figures: both yardsticks, pooled and by the close's lead band. */
function beatCloseOf(r: Pick<ModelAggregate, 'beatClose' | 'beatCloseByLead' | 'beatClosePinnacle' | 'beatClosePinnacleByLead'>) {
  return { beatClose: r.beatClose, beatCloseByLead: r.beatCloseByLead, beatClosePinnacle: r.beatClosePinnacle, beatClosePinnacleByLead: r.beatClosePinnacleByLead };
}

/** Accuracy by tier over the same windows as the record (`clockFor` and `asOf` as in readModelRecord). */
export async function readAccuracy(store: Store, now: Date, days = RECORD_WINDOW_DAYS, sport?: string, clockFor?: (sport: string) => Date, asOf: Date | null = null) {
  const scope = sport ? { sport } : {};
  const opts = accuracyOptionsSchema.parse({ now, days, ...scope });
  const windows = sportWindows({ sport, days }, clockFor ?? (() => now));
  const tally = await tallyWindows(store, windows, scope, asOf);
  const calibrated = tally.tiers();
  const accuracy = tierAccuracy(spanOf(windows, recordWindow(opts.now, opts.days)), opts.minSample, calibrated);
  const aggregate = tally.aggregate(accuracy.window, { team: null, player: null, sport: sport ?? null });
  const settled = settledIn(aggregate.counts) > 0;
  // Beat close by lead band and yardstick, the same figures GET /api/ledger/model prints (issue 43).
  // tierAccuracy maps the calibrated tiers one to one, in order.
  const tiers = accuracy.tiers.map((t, i) => ({ ...t, ...beatCloseOf(calibrated[i] as TierCalibration) }));
  return { ...accuracy, tiers, beatClose: beatCloseOf(aggregate), windows, settledElsewhere: settled ? null : await elsewhere(store, accuracy.window, days, scope, asOf) };
}
