import type Database from 'better-sqlite3';
import { hostname } from 'node:os';

/**
 * One run per sport at a time, across processes (cron and `serve` share the file). The lock is
 * a row taken inside an IMMEDIATE transaction. It dies with its holder: a lock whose holder is a
 * process on this host that no longer exists (killed, crashed) is taken over at once; a holder on
 * another host, or one this process cannot see, keeps it until its lease runs out.
 */
export interface RunLock {
  release(): void;
}

const LEASE_MS = 30 * 60 * 1000;

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

export function acquireRunLock(sqlite: Database.Database, name: string, owner: string, now: () => Date): RunLock | { heldBy: string; since: string } {
  const take = sqlite.transaction(() => {
    const t = now();
    const row = sqlite.prepare('select owner, acquired_at as acquiredAt, lease_until as leaseUntil from run_locks where name = ?').get(name) as
      | { owner: string; acquiredAt: string; leaseUntil: string }
      | undefined;
    if (row && row.leaseUntil > t.toISOString() && row.owner !== owner && !ownerIsGone(row.owner)) return { heldBy: row.owner, since: row.acquiredAt };
    sqlite
      .prepare('insert into run_locks (name, owner, acquired_at, lease_until) values (?, ?, ?, ?) on conflict(name) do update set owner = excluded.owner, acquired_at = excluded.acquired_at, lease_until = excluded.lease_until')
      .run(name, owner, t.toISOString(), new Date(t.getTime() + LEASE_MS).toISOString());
    return null;
  });
  const held = take.immediate();
  if (held) return held;
  return {
    release: () => {
      sqlite.prepare('delete from run_locks where name = ? and owner = ?').run(name, owner);
    },
  };
}
