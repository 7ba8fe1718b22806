import { inArray, sql } from 'drizzle-orm';
import type { RunOps } from '../../engine-ops.js';
import type { HeldRunLock } from '../../repo/health.js';
import type { RunFigures } from '../../repo/run-figures.js';
import { HOLDER_SQL, LEASE_MS, type RunLock, type RunLockRefusal } from '../../repo/run-lock.js';
import type { Handle } from '../../shared-db.js';
import type { PgStore } from '../../store.js';

const { select: SELECT_HOLDER, upsert: UPSERT_HOLDER, delete: DELETE_HOLDER } = HOLDER_SQL;

/**
 * A run lock is the advisory lock (acquireRunLock); the run_locks row only names its holder and
 * stays behind a holder that crashed. So a row counts as held only while the server shows that
 * advisory lock granted (pg_locks shows a bigint key as classid = high half, objid = low).
 */
const HELD_ON_PG = `select l.name, l.owner, l.acquired_at as "acquiredAt", l.lease_until as "leaseUntil" from run_locks l
  where exists (select 1 from pg_locks k where k.locktype = 'advisory' and k.granted and k.objsubid = 1
    and k.database = (select oid from pg_database where datname = current_database())
    and k.classid = (case when hashtext('propgrade:run:' || l.name) < 0 then 4294967295 else 0 end)::oid
    and k.objid = (hashtext('propgrade:run:' || l.name)::bigint & 4294967295)::oid)
  order by l.name collate "C"`;

export class PgRunOps implements RunOps {
  constructor(
    private readonly store: PgStore,
    private readonly handle: Handle,
  ) {}

  /**
   * A session advisory lock on a connection the run keeps for its whole length, so the server
   * frees it the moment the holder's connection ends, whatever host it was on; the run_locks row
   * beside it only names the holder for the loser's message and `propgrade status`.
   */
  async acquireRunLock(name: string, owner: string, now: () => Date): Promise<RunLock | RunLockRefusal> {
    const store = this.store;
    // A dedicated connection: a session lock belongs to the connection that took it.
    const client = await store.pg.pool.connect();
    // A checked-out client has no listener of the pool's: without one, a server that ends the
    // connection (restart, terminate) would crash the process. The lock is gone with it either way.
    const lost = () => {
      if (store.pg.sessions.delete(client)) client.release(true);
    };
    client.on('error', lost);
    let keep = false;
    try {
      const { rows } = await client.query<{ taken: boolean }>("select pg_try_advisory_lock(hashtext('propgrade:run:' || $1)) as taken", [name]);
      if (!rows[0]?.taken) {
        const holder = await client.query<{ owner: string; acquiredAt: string }>(SELECT_HOLDER, [name]);
        const row = holder.rows[0];
        // The holder took the advisory lock before writing its row: for that instant it is unnamed.
        return { heldBy: row?.owner ?? null, since: row?.acquiredAt ?? null };
      }
      const t = now();
      await client.query(UPSERT_HOLDER, [name, owner, t.toISOString(), new Date(t.getTime() + LEASE_MS).toISOString()]);
      keep = true;
      store.pg.sessions.add(client);
      return {
        release: async () => {
          if (!store.pg.sessions.delete(client)) return; // closed with its store, or lost with its connection
          try {
            await client.query(DELETE_HOLDER, [name, owner]);
            await client.query("select pg_advisory_unlock(hashtext('propgrade:run:' || $1))", [name]);
            client.release();
          } catch {
            // The connection broke: ending it frees the advisory lock.
            client.release(true);
          }
        },
      };
    } finally {
      if (!keep) {
        client.off('error', lost);
        client.release();
      }
    }
  }

  async heldRunLocks(): Promise<HeldRunLock[]> {
    return (await (this.store.pg.client ?? this.store.pg.pool).query<HeldRunLock>(HELD_ON_PG)).rows;
  }

  /** The same query as SQLite's through the builder (PostgreSQL folds unquoted aliases to lower case). */
  async newestRunPerJob(): Promise<RunFigures[]> {
    const { db, t } = this.handle;
    const p = t.pipelineRuns;
    return db
      .select({
        kind: p.kind,
        sport: p.sport,
        status: p.status,
        startedAt: p.startedAt,
        finishedAt: p.finishedAt,
        eventsCount: p.eventsCount,
        gradedCount: p.gradedCount,
        refusedCount: p.refusedCount,
        droppedCount: p.droppedCount,
        settledCount: p.settledCount,
        rowCount: sql<number | null>`(select s.row_count from snapshots s where s.run_id = "pipeline_runs"."id" order by s.id desc limit 1)`.mapWith(Number),
      })
      .from(p)
      .where(sql`${p.id} = (select q.id from pipeline_runs q where q.kind = ${p.kind} and q.sport = ${p.sport} order by q.started_at desc, q.id desc limit 1)`)
      .orderBy(sql`${p.kind} collate "C"`, sql`${p.sport} collate "C"`);
  }

  async lastSuccessPerJob(): Promise<Array<{ kind: string; sport: string; at: string }>> {
    const { db, t } = this.handle;
    const p = t.pipelineRuns;
    return db
      .select({ kind: p.kind, sport: p.sport, at: sql<string>`max(coalesce(${p.finishedAt}, ${p.startedAt}))` })
      .from(p)
      .where(inArray(p.status, ['ok', 'empty']))
      .groupBy(p.kind, p.sport)
      .orderBy(sql`${p.kind} collate "C"`, sql`${p.sport} collate "C"`);
  }
}
