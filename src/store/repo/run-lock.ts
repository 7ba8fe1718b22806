import { hostname } from 'node:os';
import { onWriter } from '../sqlite/transaction.js';
import type { PgStore, SqliteStore, Store } from '../store.js';

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

/** Takes the lock `name` for `owner`, or says who holds it. `now` is the wall clock (leases are not data). */
export async function acquireRunLock(store: Store, name: string, owner: string, now: () => Date): Promise<RunLock | RunLockRefusal> {
  if (store.engine === 'postgres') return acquirePg(store, name, owner, now);
  return acquireSqlite(store, name, owner, now);
}

const SELECT_HOLDER = 'select owner, acquired_at as "acquiredAt", lease_until as "leaseUntil" from run_locks where name = $1';
const UPSERT_HOLDER =
  'insert into run_locks (name, owner, acquired_at, lease_until) values ($1, $2, $3, $4) on conflict(name) do update set owner = excluded.owner, acquired_at = excluded.acquired_at, lease_until = excluded.lease_until';
const DELETE_HOLDER = 'delete from run_locks where name = $1 and owner = $2';

/** On the writer, between other callers' transactions: its own synchronous transaction must not nest in one. */
async function acquireSqlite(store: SqliteStore, name: string, owner: string, now: () => Date): Promise<RunLock | RunLockRefusal> {
  const held = await onWriter(store, ({ sqlite }) => takeSqlite(sqlite, name, owner, now));
  if (held) return held;
  return {
    release: async () => {
      await onWriter(store, ({ sqlite }) => sqlite.prepare(DELETE_HOLDER.replace(/\$\d/g, '?')).run(name, owner));
    },
  };
}

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

async function acquirePg(store: PgStore, name: string, owner: string, now: () => Date): Promise<RunLock | RunLockRefusal> {
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
