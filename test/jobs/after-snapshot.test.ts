import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { afterSnapshotLine, afterSnapshotRuns } from '../../src/jobs/after-snapshot.js';
import { createUser } from '../../src/accounts/users.js';
import { users } from '../../src/store/schema.js';
import { collectingLogger, seededStore, snapshotAt } from '../helpers/replay-store.js';

/** A loopback webhook (Slack/Discord style): records every POST body, answers `status`. */
async function webhook(status = 200): Promise<{ url: string; bodies: unknown[]; close(): Promise<void> }> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += String(c)));
    req.on('end', () => {
      bodies.push(JSON.parse(data));
      res.statusCode = status;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

describe('after the snapshot runs: billing sweep and the desk-pack-ready notice', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  afterEach(() => t?.cleanup());
  const NOW = new Date('2025-11-05T17:05:00Z');

  it('announces the day once, sweeps expired graces, and a second run sends nothing', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', NOW.toISOString());
    const { user } = await createUser(t.store, { email: 'lapsed@example.test', tier: 'analyst' }, NOW);
    t.store.db.update(users).set({ graceUntil: '2025-11-05T12:00:00Z', subscriptionStatus: 'canceled' }).where(eq(users.id, user.id)).run();
    const hook = await webhook();
    try {
      const config = loadConfig({ DESK_NOTIFY_WEBHOOK: hook.url });
      const first = await afterSnapshotRuns(t.store, config, NOW, collectingLogger(), { replay: false, wallNow: NOW });
      expect(first.deskNotice.status).toBe('sent');
      expect(first.billing).toMatchObject({ downgraded: 1 });
      expect(t.store.db.select({ tier: users.tier }).from(users).where(eq(users.id, user.id)).get()?.tier).toBe('free');
      const second = await afterSnapshotRuns(t.store, config, new Date('2025-11-05T20:05:00Z'), collectingLogger(), { replay: false, wallNow: new Date('2025-11-05T20:05:00Z') });
      expect(second.deskNotice.status).toBe('already_sent');
      expect(second.billing).toMatchObject({ downgraded: 0 });
      expect(hook.bodies).toHaveLength(1);
      expect(JSON.stringify(hook.bodies[0])).toContain('desk pack ready');
      expect(afterSnapshotLine(second)).toMatch(/^billing: 0 expired grace\(s\) ended; desk notice: already_sent/);
    } finally {
      await hook.close();
    }
  }, 60_000);

  it('a failing webhook never fails the run; a replayed run is never announced; unconfigured says so', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', NOW.toISOString());
    const broken = await webhook(500);
    try {
      const failed = await afterSnapshotRuns(t.store, loadConfig({ DESK_NOTIFY_WEBHOOK: broken.url }), NOW, collectingLogger(), { replay: false, wallNow: NOW });
      expect(failed.deskNotice.status).toBe('failed');
      const replayed = await afterSnapshotRuns(t.store, loadConfig({ DESK_NOTIFY_WEBHOOK: broken.url }), NOW, collectingLogger(), { replay: true, wallNow: NOW });
      expect(replayed.deskNotice).toEqual({ status: 'skipped', detail: 'a replayed run is not announced' });
      const none = await afterSnapshotRuns(t.store, loadConfig({}), NOW, collectingLogger(), { replay: false, wallNow: NOW });
      expect(none.deskNotice.status).toBe('not_configured');
    } finally {
      await broken.close();
    }
  }, 60_000);

  it('graces end by the wall clock, not by the run\'s data clock (a replayed day)', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', NOW.toISOString());
    const wall = new Date('2026-11-27T20:00:00Z');
    const lapsed = (await createUser(t.store, { email: 'lapsed@example.test', tier: 'analyst' }, NOW)).user;
    const running = (await createUser(t.store, { email: 'running@example.test', tier: 'analyst' }, NOW)).user;
    // Expired by the wall clock although still ahead of the replayed day.
    t.store.db.update(users).set({ graceUntil: '2025-11-06T12:00:00Z', subscriptionStatus: 'canceled' }).where(eq(users.id, lapsed.id)).run();
    // Still running by the wall clock.
    t.store.db.update(users).set({ graceUntil: '2026-11-27T21:00:00Z', subscriptionStatus: 'canceled' }).where(eq(users.id, running.id)).run();
    const after = await afterSnapshotRuns(t.store, loadConfig({}), NOW, collectingLogger(), { replay: true, wallNow: wall });
    expect(after.billing).toEqual({ downgraded: 1, subscriptions: 0 });
    const tierOf = (id: number) => t.store.db.select({ tier: users.tier, graceUntil: users.graceUntil }).from(users).where(eq(users.id, id)).get();
    expect(tierOf(lapsed.id)).toEqual({ tier: 'free', graceUntil: null });
    expect(tierOf(running.id)).toEqual({ tier: 'analyst', graceUntil: '2026-11-27T21:00:00Z' });
  }, 60_000);
});
