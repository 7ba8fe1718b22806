import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStoreAt } from '../../../src/store/db.js';
import { heldRunLocks } from '../../../src/store/repo/health.js';
import { acquireRunLock, type RunLock, type RunLockRefusal } from '../../../src/store/repo/run-lock.js';
import { ENGINES } from '../../helpers/engines.js';
import { eachEmptyStore, observations, raw } from './writes-helpers.js';

/** Contract: the run lock (src/store/repo/run-lock.ts) on both engines. */

const seen = observations();
const clock = () => new Date('2026-11-24T12:00:00.000Z');
const HOLDER = 'test-holder-a';
const OTHER = 'test-holder-b';

const isLock = (x: RunLock | RunLockRefusal): x is RunLock => 'release' in x;
async function take(...args: Parameters<typeof acquireRunLock>): Promise<RunLock> {
  const got = await acquireRunLock(...args);
  if (!isLock(got)) throw new Error(`expected the lock, refused: held by ${got.heldBy}`);
  return got;
}

describe.each(ENGINES)('run lock on %s', (engine) => {
  const get = eachEmptyStore(engine);

  it('acquire, a second owner refused naming the holder, release, re-acquire; the row names the holder', async () => {
    const { store } = get();
    const lock = await take(store, 'snapshot:nba', HOLDER, clock);
    expect(await raw(store, 'select name, owner, acquired_at as a, lease_until as l from run_locks')).toStrictEqual([
      { name: 'snapshot:nba', owner: HOLDER, a: '2026-11-24T12:00:00.000Z', l: '2026-11-24T12:30:00.000Z' },
    ]);
    expect(await heldRunLocks(store)).toStrictEqual([{ name: 'snapshot:nba', owner: HOLDER, acquiredAt: '2026-11-24T12:00:00.000Z', leaseUntil: '2026-11-24T12:30:00.000Z' }]);
    expect(await acquireRunLock(store, 'snapshot:nba', OTHER, clock)).toStrictEqual({ heldBy: HOLDER, since: '2026-11-24T12:00:00.000Z' });
    // Another name is its own lock.
    const settle = await take(store, 'settle:nba', OTHER, clock);
    await lock.release();
    expect(await raw(store, 'select name, owner from run_locks order by name')).toStrictEqual([{ name: 'settle:nba', owner: OTHER }]);
    const again = await take(store, 'snapshot:nba', OTHER, clock);
    expect(await raw(store, 'select owner from run_locks where name = ?', ['snapshot:nba'])).toStrictEqual([{ owner: OTHER }]);
    await again.release();
    await settle.release();
    expect(await raw(store, 'select count(*) as n from run_locks')).toStrictEqual([{ n: 0 }]);
  });

  it('the same owner asking again while it holds the lock', async () => {
    const { store } = get();
    const lock = await take(store, 'snapshot:nba', HOLDER, clock);
    const second = await acquireRunLock(store, 'snapshot:nba', HOLDER, clock);
    seen.record(engine, 'same owner again', isLock(second) ? 'taken' : second);
    if (isLock(second)) await second.release();
    await lock.release();
  });

  it('two stores on one store: the second is refused while the first holds it, and takes it after the release', async () => {
    const { store, target } = get();
    const second = await openStoreAt(target);
    try {
      const lock = await take(store, 'snapshot:nba', HOLDER, clock);
      expect(await acquireRunLock(second, 'snapshot:nba', OTHER, clock)).toStrictEqual({ heldBy: HOLDER, since: '2026-11-24T12:00:00.000Z' });
      await lock.release();
      const taken = await take(second, 'snapshot:nba', OTHER, clock);
      expect(await acquireRunLock(store, 'snapshot:nba', HOLDER, clock)).toStrictEqual({ heldBy: OTHER, since: '2026-11-24T12:00:00.000Z' });
      await taken.release();
    } finally {
      await second.close();
    }
  });
});

describe('run lock on postgres: closing the holding store', () => {
  const get = eachEmptyStore('postgres');

  // PgStore.close() ends the connections run locks hold (pool.end alone would wait for them), so a
  // store closed without releasing frees its lock as a crashed holder's would be.
  it('the lock is freed when the store that took it is closed', async () => {
    const { target } = get();
    const first = await openStoreAt(target);
    const second = await openStoreAt(target);
    const lock = await take(first, 'snapshot:nba', HOLDER, clock);
    const closed = first.close().then(() => 'closed' as const);
    try {
      const outcome = await Promise.race([closed, new Promise<'still open'>((r) => setTimeout(() => r('still open'), 1000))]);
      expect(outcome).toBe('closed');
      expect(isLock(await acquireRunLock(second, 'snapshot:nba', OTHER, clock))).toBe(true);
    } finally {
      await lock.release().catch(() => undefined); // lets the close finish (and the database drop)
      await closed;
      await second.close();
    }
  });
});

describe('run lock on postgres: what status reads as held', () => {
  const get = eachEmptyStore('postgres');

  // The run_locks row stays behind a holder whose connection ended; heldRunLocks reads the
  // server's advisory locks, so `propgrade status` and /readyz never report a dead holder.
  it('a closed holder leaves its row but is no longer listed as held', async () => {
    const { target } = get();
    const holder = await openStoreAt(target);
    const reader = await openStoreAt(target);
    try {
      await take(holder, 'snapshot:nba', HOLDER, clock);
      await take(holder, 'settle:mlb', HOLDER, clock);
      expect((await heldRunLocks(reader)).map((l) => [l.name, l.owner])).toStrictEqual([
        ['settle:mlb', HOLDER],
        ['snapshot:nba', HOLDER],
      ]);
      await holder.close();
      expect(await raw(reader, 'select name from run_locks order by name')).toHaveLength(2);
      expect(await heldRunLocks(reader)).toStrictEqual([]);
    } finally {
      await reader.close();
    }
  });
});

describe.each(ENGINES)('run lock on %s: it dies with its holder process', (engine) => {
  const get = eachEmptyStore(engine);

  it('a holder killed with SIGKILL: the next store takes the lock at once, inside the lease', async () => {
    const { store, target } = get();
    const src = (p: string) => JSON.stringify(join(process.cwd(), 'src/store', p));
    const code = `
      const { openStoreAt } = await import(${src('db.ts')});
      const { acquireRunLock, processOwner } = await import(${src('repo/run-lock.ts')});
      const store = await openStoreAt(${JSON.stringify(target)});
      const got = await acquireRunLock(store, 'snapshot:nba', processOwner(), () => new Date(${JSON.stringify(clock().toISOString())}));
      process.stdout.write(('release' in got ? 'held ' : 'refused ') + processOwner() + '\\n');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `(async () => {${code}})().catch((e) => { console.error(e); process.exit(1); })`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      const said = await new Promise<string>((r) => child.stdout.once('data', (d: Buffer) => r(d.toString().trim())));
      const owner = said.replace(/^held /, '');
      expect(said).toBe(`held ${owner}`);
      expect(owner).toMatch(/^pid:\d+@/);
      expect(await acquireRunLock(store, 'snapshot:nba', OTHER, clock)).toStrictEqual({ heldBy: owner, since: '2026-11-24T12:00:00.000Z' });
      child.kill('SIGKILL');
      await exited;
      // PostgreSQL notices the closed connection a moment later: ask until it is free (at most 5 s).
      let got = await acquireRunLock(store, 'snapshot:nba', OTHER, clock);
      for (let i = 0; i < 50 && !isLock(got); i++) {
        await new Promise((r) => setTimeout(r, 100));
        got = await acquireRunLock(store, 'snapshot:nba', OTHER, clock);
      }
      expect(isLock(got)).toBe(true);
      expect(await raw(store, 'select owner from run_locks where name = ?', ['snapshot:nba'])).toStrictEqual([{ owner: OTHER }]);
      if (isLock(got)) await got.release();
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }, 30_000);
});

describe('run lock: known engine difference (reported)', () => {
  // SQLite lets the owner named in the row take its own lock again (the upsert rewrites the row);
  // PostgreSQL's session advisory lock is per connection, and each acquire takes a new one.
  it('the same owner asking again while it holds the lock: SQLite takes it, PostgreSQL refuses naming that owner', () => {
    expect(seen.both('same owner again')).toStrictEqual({ sqlite: 'taken', postgres: { heldBy: HOLDER, since: '2026-11-24T12:00:00.000Z' } });
  });
});
