import type Database from 'better-sqlite3';

/**
 * One run per sport at a time, across processes (cron and `serve` share the file). The lock is
 * a row taken inside an IMMEDIATE transaction; a stale lock (holder gone past its lease) is taken over.
 */
export interface RunLock {
  release(): void;
}

const LEASE_MS = 30 * 60 * 1000;

export function acquireRunLock(sqlite: Database.Database, name: string, owner: string, now: () => Date): RunLock | { heldBy: string; since: string } {
  const take = sqlite.transaction(() => {
    const t = now();
    const row = sqlite.prepare('select owner, acquired_at as acquiredAt, lease_until as leaseUntil from run_locks where name = ?').get(name) as
      | { owner: string; acquiredAt: string; leaseUntil: string }
      | undefined;
    if (row && row.leaseUntil > t.toISOString() && row.owner !== owner) return { heldBy: row.owner, since: row.acquiredAt };
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
