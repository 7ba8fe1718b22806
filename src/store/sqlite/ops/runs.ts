import type { RunOps } from '../../engine-ops.js';
import type { HeldRunLock } from '../../repo/health.js';
import type { RunFigures } from '../../repo/run-figures.js';
import { HOLDER_SQL, LEASE_MS, ownerIsGone, type RunLock, type RunLockRefusal } from '../../repo/run-lock.js';
import type { Handle } from '../../shared-db.js';
import type { SqliteStore } from '../../store.js';
import { prepared } from '../_raw.js';
import { onWriter } from '../transaction.js';

const { select: SELECT_HOLDER, upsert: UPSERT_HOLDER, delete: DELETE_HOLDER } = HOLDER_SQL;

/**
 * A run lock is a run_locks row taken inside an IMMEDIATE transaction. A holder on this host that
 * no longer exists (killed, crashed) loses it at once; a holder on another host, or one this
 * process cannot see, keeps it until its lease runs out.
 */
function takeSqlite(sqlite: SqliteStore['sqlite'], name: string, owner: string, now: () => Date): RunLockRefusal | null {
  // Synchronous on purpose: no await inside, so nothing of this process interleaves with it.
  const take = sqlite.transaction(() => {
    const t = now();
    const row = sqlite.prepare(SELECT_HOLDER.replace('$1', '?')).get(name) as { owner: string; acquiredAt: string; leaseUntil: string } | undefined;
    if (row && row.leaseUntil > t.toISOString() && row.owner !== owner && !ownerIsGone(row.owner)) return { heldBy: row.owner, since: row.acquiredAt };
    sqlite.prepare(UPSERT_HOLDER.replace(/\$\d/g, '?')).run(name, owner, t.toISOString(), new Date(t.getTime() + LEASE_MS).toISOString());
    return null;
  });
  return take.immediate();
}

const NEWEST_PER_JOB = `
  select p.kind, p.sport, p.status, p.started_at as startedAt, p.finished_at as finishedAt,
         p.events_count as eventsCount, p.graded_count as gradedCount, p.refused_count as refusedCount,
         p.dropped_count as droppedCount, p.settled_count as settledCount,
         (select s.row_count from snapshots s where s.run_id = p.id order by s.id desc limit 1) as rowCount
  from pipeline_runs p
  where p.id = (select q.id from pipeline_runs q where q.kind = p.kind and q.sport = p.sport order by q.started_at desc, q.id desc limit 1)
  order by p.kind, p.sport`;

const LAST_SUCCESS = `
  select kind, sport, max(coalesce(finished_at, started_at)) as at
  from pipeline_runs where status in ('ok', 'empty') group by kind, sport order by kind, sport`;

export class SqliteRunOps implements RunOps {
  constructor(
    private readonly store: SqliteStore,
    private readonly handle: Handle,
  ) {}

  /** On the writer, between other callers' transactions: its own synchronous transaction must not nest in one. */
  async acquireRunLock(name: string, owner: string, now: () => Date): Promise<RunLock | RunLockRefusal> {
    const store = this.store;
    const held = await onWriter(store, ({ sqlite }) => takeSqlite(sqlite, name, owner, now));
    if (held) return held;
    return {
      release: async () => {
        await onWriter(store, ({ sqlite }) => sqlite.prepare(DELETE_HOLDER.replace(/\$\d/g, '?')).run(name, owner));
      },
    };
  }

  async heldRunLocks(): Promise<HeldRunLock[]> {
    const { db, t } = this.handle;
    return db.select().from(t.runLocks).orderBy(t.runLocks.name);
  }

  async newestRunPerJob(): Promise<RunFigures[]> {
    return prepared(this.store.conn.sqlite, NEWEST_PER_JOB).all() as RunFigures[];
  }

  async lastSuccessPerJob(): Promise<Array<{ kind: string; sport: string; at: string }>> {
    return prepared(this.store.conn.sqlite, LAST_SUCCESS).all() as Array<{ kind: string; sport: string; at: string }>;
  }
}
