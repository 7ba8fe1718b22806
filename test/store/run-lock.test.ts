import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireRunLock, ownerIsGone, processOwner, holderText } from '../../src/store/repo/run-lock.js';
import { tempStore } from '../helpers/replay-store.js';

const clock = () => new Date('2026-11-24T12:00:00Z');

/** A real child process: its pid, and a way to kill it and wait until it is gone. */
async function childProcess(): Promise<{ pid: number; kill(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((r) => child.once('spawn', r));
  return {
    pid: child.pid as number,
    kill: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

describe('run lock', () => {
  let t: ReturnType<typeof tempStore>;
  afterEach(() => t?.cleanup());

  it('a live holder keeps the lock; a second run is told who holds it', async () => {
    t = tempStore();
    const child = await childProcess();
    try {
      const owner = `pid:${child.pid}@${hostname()}`;
      t.store.sqlite.prepare('insert into run_locks (name, owner, acquired_at, lease_until) values (?, ?, ?, ?)').run('snapshot:nba', owner, '2026-11-24T11:59:00Z', '2026-11-24T12:29:00Z');
      expect(ownerIsGone(owner)).toBe(false);
      expect(await acquireRunLock(t.store, 'snapshot:nba', processOwner(), clock)).toEqual({ heldBy: owner, since: '2026-11-24T11:59:00Z' });
    } finally {
      await child.kill();
    }
  });

  it('dies with its holder: after kill -9 the next run takes it at once, inside the lease', async () => {
    t = tempStore();
    const child = await childProcess();
    const owner = `pid:${child.pid}@${hostname()}`;
    t.store.sqlite.prepare('insert into run_locks (name, owner, acquired_at, lease_until) values (?, ?, ?, ?)').run('snapshot:nba', owner, '2026-11-24T11:59:00Z', '2026-11-24T12:29:00Z');
    await child.kill();
    expect(ownerIsGone(owner)).toBe(true);
    const lock = await acquireRunLock(t.store, 'snapshot:nba', processOwner(), clock);
    expect('release' in lock).toBe(true);
    const row = t.store.sqlite.prepare('select owner from run_locks where name = ?').get('snapshot:nba') as { owner: string };
    expect(row.owner).toBe(processOwner());
  });

  it('a holder on another host, or an owner it cannot read, is never presumed dead: the lease decides', async () => {
    t = tempStore();
    expect(ownerIsGone('pid:1@some-other-host')).toBe(false);
    expect(ownerIsGone('test-holder')).toBe(false);
    t.store.sqlite.prepare('insert into run_locks (name, owner, acquired_at, lease_until) values (?, ?, ?, ?)').run('settle:nba', 'pid:999999@some-other-host', '2026-11-24T11:59:00Z', '2026-11-24T12:29:00Z');
    expect(await acquireRunLock(t.store, 'settle:nba', processOwner(), clock)).toMatchObject({ heldBy: 'pid:999999@some-other-host' });
    // Past the lease it is taken over.
    expect('release' in (await acquireRunLock(t.store, 'settle:nba', processOwner(), () => new Date('2026-11-24T12:30:00Z')))).toBe(true);
  });
});

describe('holderText', () => {
  it('names the holder and since when, and never invents either for a holder that has not named itself yet', () => {
    expect(holderText({ heldBy: 'pid:42@runner', since: '2026-11-29T14:00:00.000Z' })).toBe('pid:42@runner since 2026-11-29T14:00:00.000Z');
    expect(holderText({ heldBy: null, since: null })).toBe('another run, which has just taken it');
  });
});
