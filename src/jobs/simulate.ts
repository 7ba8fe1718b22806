import type { Env } from '../config.js';
import { seasonRecord, type SeasonTier } from '../domain/season-record.js';
import type { Grade } from '../domain/grades.js';
import type { GradedSport } from '../domain/sports.js';
import { addDays, easternDate } from '../domain/time.js';
import { sportKeysFor } from '../feeds/odds-api/sport-keys.js';
import { readReplayManifest } from '../feeds/transport/replay.js';
import { recordedOddsClock } from './close-due.js';
import { ensureReplaySeed, type ReplaySeed } from './import-history.js';
import { runSettle } from './settle.js';
import { runSnapshot } from './snapshot-run.js';
import type { RunLogger } from '../feeds/sources.js';
import { buildOddsSource, buildResultsSource } from '../feeds/factory.js';
import type { Store } from '../store/db.js';
import { listLedger } from '../store/repo/ledger.js';
import { rememberReplayFolder } from '../store/repo/replay-origin.js';

/**
 * `propgrade simulate`: the cron schedule run over a season's replay folder (scripts/build-season-replay.mjs)
 * on the store: every recorded snapshot time of the sport in time order (`snapshot <sport>` at that
 * clock), and a settle at 12:00 UTC the morning after each slate date (`settle <sport>` at that
 * clock; the builders record each slate's results by then). Every run is the product's own
 * pipeline; nothing is scored here but the public record the runs leave behind.
 */

export interface SimulateOptions {
  store: Store;
  sport: GradedSport;
  replayDir: string;
  config: Env;
  /** Inclusive ET slate dates. */
  from?: string;
  to?: string;
  log: RunLogger;
  /** Called after each run: done of total, and what just ran. */
  onStep?: (done: number, total: number, label: string) => void;
  /** Wall clock for timings (injected; the runs' clocks are the recording's). */
  wallMs?: () => number;
}

export interface SimulateStep {
  kind: 'snapshot' | 'settle';
  at: string;
}

export interface SimulateReport {
  sport: GradedSport;
  replay: string;
  from: string | null;
  to: string | null;
  snapshots: number;
  settles: number;
  snapshotStatus: Record<string, number>;
  gradedRows: number;
  ledgerEntries: number;
  /** Entries still pending after the last settle, and those voided (no box-score line, 0 minutes). */
  pending: number;
  wallSeconds: number;
  snapshotSeconds: number;
  secondsPerSnapshot: number | null;
  settleSeconds: number;
  /** The public record the season left (pipeline entries, no user's), per tier. */
  record: Partial<Record<Grade | 'all', SeasonTier>>;
}

/** The runs a season folder calls for: its sport's recorded snapshot times, a settle the morning after each slate. */
export function simulationSchedule(replayDir: string, sport: GradedSport, from?: string, to?: string): SimulateStep[] {
  const manifest = readReplayManifest(replayDir);
  const eventsPaths = sportKeysFor(sport).map((k) => `/v4/sports/${k}/events?`);
  const times = new Set<string>();
  for (const e of manifest.entries) {
    if (e.recordedAt === undefined || !e.key.startsWith('odds-api GET ') || !eventsPaths.some((p) => e.key.includes(p))) continue;
    const day = easternDate(new Date(e.recordedAt));
    if ((from && day < from) || (to && day > to)) continue;
    times.add(new Date(e.recordedAt).toISOString());
  }
  const snapshots = [...times].sort();
  const days = [...new Set([...snapshots.map((t) => easternDate(new Date(t))), ...soccerResultDays(manifest.entries, sport, from, to)])].sort();
  const steps: SimulateStep[] = [
    ...snapshots.map((at) => ({ kind: 'snapshot' as const, at })),
    ...days.map((d) => ({ kind: 'settle' as const, at: `${addDays(d, 1)}T12:00:00.000Z` })),
  ];
  // Time order; at one instant the settle goes first (the cron's morning settle precedes the day's snapshots).
  return steps.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.kind === 'settle' ? -1 : 1));
}

export async function runSimulation(opts: SimulateOptions): Promise<SimulateReport> {
  const wall = opts.wallMs ?? (() => performance.now());
  const started = wall();
  const steps = simulationSchedule(opts.replayDir, opts.sport, opts.from, opts.to);
  const first = steps[0];
  const report: SimulateReport = {
    sport: opts.sport, replay: opts.replayDir, from: opts.from ?? null, to: opts.to ?? null, snapshots: 0, settles: 0, snapshotStatus: {}, gradedRows: 0,
    ledgerEntries: 0, pending: 0, wallSeconds: 0, snapshotSeconds: 0, secondsPerSnapshot: null, settleSeconds: 0, record: {},
  };
  if (!first) return { ...report, wallSeconds: (wall() - started) / 1000 };
  // The transports read `clock.now` at each request: one source of each kind serves the whole season.
  const clock = { replayDir: opts.replayDir, recordDir: null, now: new Date(first.at), log: opts.log };
  const config = folderConfig(opts.config, opts.replayDir);
  const odds = await buildOddsSource(config, clock);
  const results = await buildResultsSource(config, clock);
  await ensureReplaySeed(opts.store, opts.replayDir, odds.seed as ReplaySeed | undefined, clock.now, opts.log, [opts.sport]);
  await rememberReplayFolder(opts.store, opts.replayDir, clock.now);
  // Each close is stamped when its game's odds were recorded, as a replayed `snapshot` stamps it.
  const oddsRecordedAt = recordedOddsClock(opts.replayDir);
  try {
    for (const [i, step] of steps.entries()) {
      const now = new Date(step.at);
      clock.now = now;
      const t0 = wall();
      if (step.kind === 'snapshot') {
        const s = await runSnapshot(opts.sport, { store: opts.store, odds: odds.odds, status: odds.status, now, allowedBooks: config.ALLOWED_BOOKS, log: opts.log, source: 'replay', oddsRecordedAt });
        report.snapshots += 1;
        report.snapshotStatus[s.status] = (report.snapshotStatus[s.status] ?? 0) + 1;
        report.gradedRows += s.graded;
        report.ledgerEntries += s.ledgerInserted;
        report.snapshotSeconds += (wall() - t0) / 1000;
      } else {
        const settled = await runSettle(opts.sport, { store: opts.store, results: results.results, now, log: opts.log });
        // Soccer's slate may leave no entry to settle (no letter clears the bar), yet its projections
        // need the slate's stats: when the morning run did not read the slate (nothing pending, or
        // only other dates due: an entry still pending from an earlier day, or a day not final yet),
        // it reads the slate's box scores as history anyway.
        const slate = addDays(easternDate(now), -1);
        if (opts.sport === 'soccer' && !settled.dates.includes(slate)) await runSettle(opts.sport, { store: opts.store, results: results.results, now, log: opts.log, date: slate });
        report.settles += 1;
        report.settleSeconds += (wall() - t0) / 1000;
      }
      opts.onStep?.(i + 1, steps.length, `${step.kind} ${step.at.replace('.000Z', 'Z')}`);
    }
  } finally {
    await odds.close();
    await results.close();
  }
  const slateFrom = easternDate(new Date(first.at));
  const entries = (await listLedger(opts.store, { sport: opts.sport, from: opts.from ?? slateFrom, ...(opts.to ? { to: opts.to } : {}), publicOnly: true }, Number.MAX_SAFE_INTEGER)).filter((e) => e.source === 'pipeline');
  report.pending = entries.filter((e) => e.outcome === 'pending').length;
  report.record = seasonRecord(entries.map((e) => ({ grade: e.grade, outcome: e.outcome, lockedPrice: e.lockedPrice, clvVerdict: e.clvVerdict, closeLeadMinutes: e.closeLeadMinutes, pWin: e.pWin, eventId: e.eventId, pinnacleClvVerdict: e.pinnacleClvVerdict, pinnacleCloseLeadMinutes: e.pinnacleCloseLeadMinutes })));
  report.wallSeconds = (wall() - started) / 1000;
  report.secondsPerSnapshot = report.snapshots > 0 ? report.snapshotSeconds / report.snapshots : null;
  return report;
}

/**
 * Soccer's match days can fall after the last snapshot before them (Saturday's snapshot prices
 * Sunday's matches): each recorded ESPN soccer scoreboard date is a slate date to settle too.
 */
function soccerResultDays(entries: ReadonlyArray<{ key: string }>, sport: GradedSport, from?: string, to?: string): string[] {
  if (sport !== 'soccer') return [];
  const days: string[] = [];
  for (const e of entries) {
    const m = /^espn GET \S+\/soccer\/[^/]+\/scoreboard\?dates=(\d{4})(\d{2})(\d{2})$/.exec(e.key);
    const day = m ? `${m[1]}-${m[2]}-${m[3]}` : null;
    if (day !== null && !(from && day < from) && !(to && day > to)) days.push(day);
  }
  return days;
}

/**
 * A folder recorded with books of several Odds API regions (the merged MLB season: us, eu, au) says
 * so in its manifest's `oddsRegions`; the season's requests ask for those regions, as the recording
 * did, unless an explicit ALLOWED_BOOKS list picks the books.
 */
function folderConfig(config: Env, replayDir: string): Env {
  const regions = (readReplayManifest(replayDir) as { oddsRegions?: unknown }).oddsRegions;
  if (typeof regions !== 'string' || regions === '' || config.ALLOWED_BOOKS) return config;
  return { ...config, ODDS_API_REGIONS: regions };
}
