import { GRADED_SPORTS } from './sports.js';
import { syncStatus, type SyncStatus } from './sync-status.js';

/**
 * Whether the service is fit to serve (GET /readyz, `propgrade status`): what an operator's monitor
 * needs to decide, from facts the store holds. Pure: the caller reads the facts and both clocks.
 */

export interface SportRunFacts {
  sport: string;
  /** Newest stored snapshot of the sport, with where it came from. */
  newestSnapshot: { takenAt: string; source: 'live' | 'replay' | null } | null;
  /** Newest snapshot run (any outcome), so a run that failed after the last good one shows. */
  lastSnapshotRun: { startedAt: string; finishedAt: string | null; status: string } | null;
  lastSettleRun: { startedAt: string; finishedAt: string | null; status: string } | null;
  /** Newest close-capture run (`propgrade close`, issue 43); null where none ran. */
  lastCloseRun: { startedAt: string; finishedAt: string | null; status: string } | null;
}

export interface ReadinessFacts {
  /** Migrations in the journal that the store has not applied. */
  pendingMigrations: readonly string[];
  sports: readonly SportRunFacts[];
  locks: ReadonlyArray<{ name: string; owner: string; acquiredAt: string; leaseUntil: string }>;
  credits: { spentToday: number; dailyBudget: number | null };
}

export type SportState = SyncStatus | 'replayed' | 'never_run';

export interface SportReadiness {
  sport: string;
  state: SportState;
  newestSnapshotAt: string | null;
  /** Minutes since the newest snapshot on the clock the sport is read by; 0 for a replayed sport (read as of itself). */
  ageMinutes: number | null;
  /** The clock the age is measured on: a replayed sport's own snapshot, or the wall clock. */
  clock: 'replay_snapshot' | 'wall' | null;
  lastRun: { at: string; status: string } | null;
  lastSettle: { at: string; status: string } | null;
  lastClose: { at: string; status: string } | null;
}

export interface Readiness {
  ready: boolean;
  /** Why not ready, one line each; empty when ready. */
  reasons: string[];
  /** Worth a look but not a reason to take the server out of rotation. */
  warnings: string[];
  migrations: { current: boolean; pending: string[] };
  sports: SportReadiness[];
  locks: Array<{ name: string; owner: string; since: string; leaseUntil: string; expired: boolean }>;
  credits: { spentToday: number; dailyBudget: number | null; leftToday: number | null };
}

function lastOf(run: SportRunFacts['lastSnapshotRun']): { at: string; status: string } | null {
  return run ? { at: run.finishedAt ?? run.startedAt, status: run.status } : null;
}

function sportReadiness(s: SportRunFacts, wallNow: Date, intervalMinutes: number): SportReadiness {
  const base = { sport: s.sport, lastRun: lastOf(s.lastSnapshotRun), lastSettle: lastOf(s.lastSettleRun), lastClose: lastOf(s.lastCloseRun) };
  const snap = s.newestSnapshot;
  if (!snap) return { ...base, state: 'never_run', newestSnapshotAt: null, ageMinutes: null, clock: null };
  if (snap.source === 'replay') return { ...base, state: 'replayed', newestSnapshotAt: snap.takenAt, ageMinutes: 0, clock: 'replay_snapshot' };
  // A live sport is as fresh as its newest successful run, which may have found an empty slate.
  const lastGood = s.lastSnapshotRun && s.lastSnapshotRun.status !== 'failed' && s.lastSnapshotRun.status !== 'running' ? (s.lastSnapshotRun.finishedAt ?? s.lastSnapshotRun.startedAt) : null;
  const freshest = lastGood && lastGood > snap.takenAt ? lastGood : snap.takenAt;
  const age = Math.max(0, Math.round((wallNow.getTime() - Date.parse(freshest)) / 60_000));
  return { ...base, state: syncStatus(new Date(freshest), wallNow, intervalMinutes), newestSnapshotAt: snap.takenAt, ageMinutes: age, clock: 'wall' };
}

/**
 * Ready when the migrations are current, some sport has a snapshot to serve, and no live sport is
 * stale (3x the expected interval, as the read commands' sync status). A replayed store is ready
 * as of its own clock. A failed last run, an amber sport, a lock past its lease or a spent
 * budget are warnings: the server still answers with what it stored.
 */
export function assessReadiness(facts: ReadinessFacts, wallNow: Date, intervalMinutes: number): Readiness {
  const reasons: string[] = [];
  const warnings: string[] = [];
  if (facts.pendingMigrations.length > 0) reasons.push(`store migrations pending: ${facts.pendingMigrations.join(', ')} (run any propgrade command on the store to apply them)`);
  const sports = facts.sports.map((s) => sportReadiness(s, wallNow, intervalMinutes));
  if (!sports.some((s) => s.newestSnapshotAt !== null)) reasons.push('no snapshot stored yet: run `propgrade snapshot all`');
  for (const s of sports) {
    if (s.state === 'stale') reasons.push(`${s.sport}: newest snapshot ${s.ageMinutes} min old, past 3x the expected ${intervalMinutes} min`);
    if (s.state === 'amber') warnings.push(`${s.sport}: newest snapshot ${s.ageMinutes} min old, past 1.5x the expected ${intervalMinutes} min`);
    if (s.lastRun?.status === 'failed') warnings.push(`${s.sport}: the last snapshot run failed (${s.lastRun.at})`);
    if (s.lastSettle?.status === 'failed') warnings.push(`${s.sport}: the last settle run failed (${s.lastSettle.at})`);
  }
  const locks = facts.locks.map((l) => ({ name: l.name, owner: l.owner, since: l.acquiredAt, leaseUntil: l.leaseUntil, expired: l.leaseUntil <= wallNow.toISOString() }));
  for (const l of locks) if (l.expired) warnings.push(`run lock ${l.name} held by ${l.owner} since ${l.since} is past its lease`);
  const budget = facts.credits.dailyBudget;
  const left = budget === null ? null : Math.max(0, budget - facts.credits.spentToday);
  if (left === 0) warnings.push(`Odds API daily budget spent (${facts.credits.spentToday} of ${budget} credits): live runs wait for tomorrow`);
  return {
    ready: reasons.length === 0,
    reasons,
    warnings,
    migrations: { current: facts.pendingMigrations.length === 0, pending: [...facts.pendingMigrations] },
    sports,
    locks,
    credits: { spentToday: facts.credits.spentToday, dailyBudget: budget, leftToday: left },
  };
}

/** The sports readiness reports on: every graded sport, in their usual order. */
export const READINESS_SPORTS: readonly string[] = GRADED_SPORTS;
