import { hostname } from 'node:os';
import { opsOf } from '../engine-ops.js';
import type { Store } from '../store.js';

/**
 * One run per sport at a time, across processes and hosts (cron, `serve` and other runners share
 * the store). It dies with its holder:
 * - SQLite: a run_locks row taken inside an IMMEDIATE transaction. A holder on this host that no
 *   longer exists (killed, crashed) loses it at once; a holder on another host, or one this process
 *   cannot see, keeps it until its lease runs out.
 * - PostgreSQL: a session advisory lock on a connection the run keeps for its whole length, so
 *   the server frees it the moment the holder's connection ends, whatever host it was on; the
 *   run_locks row beside it only names the holder for the loser's message and `propgrade status`.
 */
export interface RunLock {
  release(): Promise<void>;
}

/** Who holds the lock and since when; both null for the instant a PostgreSQL holder has its lock but has not yet written its name. */
export type RunLockRefusal = { heldBy: string | null; since: string | null };

/** The holder as a refusal message names it: its owner and since when, or that it has only just taken the lock. */
export function holderText(r: RunLockRefusal): string {
  return r.heldBy === null ? 'another run, which has just taken it' : `${r.heldBy}${r.since === null ? '' : ` since ${r.since}`}`;
}

/** How long a run_locks row holds without its holder (SQLite: until then, unless the holder is known gone). */
export const LEASE_MS = 30 * 60 * 1000;

/** This process as a lock owner: `pid:<pid>@<host>`, so a later run can tell whether it is still alive. */
export function processOwner(): string {
  return `pid:${process.pid}@${hostname()}`;
}

/** Whether the owner is a process on this host that has exited; unknown owners are never presumed dead. */
export function ownerIsGone(owner: string): boolean {
  const m = /^pid:(\d+)@(.+)$/.exec(owner);
  if (!m || m[2] !== hostname()) return false;
  const pid = Number(m[1]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: no such process. EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Takes the lock `name` for `owner`, or says who holds it. `now` is the wall clock (leases are not data). */
export async function acquireRunLock(store: Store, name: string, owner: string, now: () => Date): Promise<RunLock | RunLockRefusal> {
  return opsOf(store).runs.acquireRunLock(name, owner, now);
}

/** The run_locks row's statements, $n placeholders (SQLite's adapter writes them as `?`). */
export const HOLDER_SQL = {
  select: 'select owner, acquired_at as "acquiredAt", lease_until as "leaseUntil" from run_locks where name = $1',
  upsert:
    'insert into run_locks (name, owner, acquired_at, lease_until) values ($1, $2, $3, $4) on conflict(name) do update set owner = excluded.owner, acquired_at = excluded.acquired_at, lease_until = excluded.lease_until',
  delete: 'delete from run_locks where name = $1 and owner = $2',
} as const;
