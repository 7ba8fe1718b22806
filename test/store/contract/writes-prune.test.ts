import { afterAll, describe, expect, it } from 'vitest';
import { insertUsage, usageSince } from '../../../src/store/repo/usage.js';
import { kvGet, kvSet } from '../../../src/store/repo/kv.js';
import { prunedTablesSize, pruneExpiredKv, pruneUnexpiringKv, pruneUsageBefore } from '../../../src/store/repo/prune.js';
import { countInWindow } from '../../../src/store/repo/rate-windows.js';
import { ENGINES } from '../../helpers/engines.js';
import { eachEmptyStore, observations, raw } from './writes-helpers.js';

/**
 * Contract (issue 40): the prune deletes of src/store/repo/prune.ts and the shared request windows
 * of src/store/repo/rate-windows.ts, on both engines, each checked against the raw rows left.
 */

const seen = observations();
const T0 = new Date('2026-12-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const keys = async (store: Parameters<typeof raw>[0]) => (await raw(store, 'select key from kv_cache order by key')).map((r) => r['key']);

describe.each(ENGINES)('prune and request windows on %s', (engine) => {
  const get = eachEmptyStore(engine);

  it('pruneExpiredKv deletes rows expired at `before` (inclusive), at most `limit` a call, never a row without expiry; a prefix narrows it', async () => {
    const { store } = get();
    for (let i = 0; i < 7; i += 1) await kvSet(store, `team-hub:nba:T${i}`, { i }, T0, 60 + i);
    await kvSet(store, 'limit:stats:ip:a:60:0', 3, T0, 30);
    await kvSet(store, 'meta:replay-folder', { folder: 'data/replay' }, T0, null);
    await kvSet(store, 'context:replay:news:nba', { v: 1 }, T0, null);
    // At +63 s the rows with ttl 60..63 (4 hubs) and the window (30 s) have expired: 5 rows.
    expect(await pruneExpiredKv(store, at(63).toISOString(), 3)).toBe(3);
    expect(await pruneExpiredKv(store, at(63).toISOString(), 3)).toBe(2);
    expect(await pruneExpiredKv(store, at(63).toISOString(), 3)).toBe(0);
    expect(await keys(store)).toStrictEqual(['context:replay:news:nba', 'meta:replay-folder', 'team-hub:nba:T4', 'team-hub:nba:T5', 'team-hub:nba:T6']);
    // A prefix: only the rows under it go.
    await kvSet(store, 'limit:stats:ip:b:60:0', 1, T0, 30);
    expect(await pruneExpiredKv(store, at(1000).toISOString(), 100, 'limit:')).toBe(1);
    expect(await keys(store)).toContain('team-hub:nba:T6');
    expect(await pruneExpiredKv(store, at(1000).toISOString(), 100)).toBe(3);
    expect(await keys(store)).toStrictEqual(['context:replay:news:nba', 'meta:replay-folder']);
    seen.record(engine, 'expired', await keys(store));
  });

  it('pruneUnexpiringKv deletes rows under the prefix without expiry written at or before `before`, and refuses a wildcard prefix', async () => {
    const { store } = get();
    await kvSet(store, 'context:live:live:nba:2026-11-01', { old: true }, at(-8 * 86_400), null);
    await kvSet(store, 'context:live:news:nba', { fresh: true }, at(-3600), null);
    await kvSet(store, 'context:live:futures:mlb', { edge: true }, at(-7 * 86_400), null);
    await kvSet(store, 'context:live:credits', 1, at(-30 * 86_400), 10);
    await kvSet(store, 'import:gamelogs:nba:abc', { rows: 1 }, at(-90 * 86_400), null);
    const horizon = at(-7 * 86_400).toISOString();
    expect(await pruneUnexpiringKv(store, 'context:', horizon, 100)).toBe(2);
    // The row with an expiry, the newer row and the row under another prefix stay.
    expect(await keys(store)).toStrictEqual(['context:live:credits', 'context:live:news:nba', 'import:gamelogs:nba:abc']);
    expect(await kvGet(store, 'import:gamelogs:nba:abc', T0)).toStrictEqual({ rows: 1 });
    await expect(pruneUnexpiringKv(store, 'con%', horizon, 100)).rejects.toThrow(/wildcard/);
    await expect(pruneUnexpiringKv(store, 'con_', horizon, 100)).rejects.toThrow(/wildcard/);
    seen.record(engine, 'unexpiring', await keys(store));
  });

  it('pruneUsageBefore deletes usage at or before `before`, at most `limit` a call; the meter reads the same count after', async () => {
    const { store } = get();
    for (let h = 0; h < 30; h += 1) await insertUsage(store, 'ip:198.51.100.7', 'scan_read', at(-h * 3600).toISOString());
    const windowStart = at(-24 * 3600).toISOString();
    const before = await usageSince(store, 'ip:198.51.100.7', 'scan_read', windowStart);
    // Hours 24..29 ago: 6 rows at or before the window's start.
    expect(await pruneUsageBefore(store, windowStart, 4)).toBe(4);
    expect(await pruneUsageBefore(store, windowStart, 4)).toBe(2);
    expect(await pruneUsageBefore(store, windowStart, 4)).toBe(0);
    expect(Number((await raw(store, 'select count(*) as n from usage_events'))[0]?.['n'])).toBe(24);
    expect(await usageSince(store, 'ip:198.51.100.7', 'scan_read', windowStart)).toStrictEqual(before);
    const size = await prunedTablesSize(store);
    expect(size).toStrictEqual({ kvRows: 0, kvValueBytes: 0, usageRows: 24 });
    seen.record(engine, 'usage', size);
  });

  it('countInWindow counts one request per call in its own row, which expires at the window end; concurrent calls each count', async () => {
    const { store } = get();
    const start = new Date(Math.floor(T0.getTime() / 60_000) * 60_000);
    const end = new Date(start.getTime() + 60_000);
    expect(await countInWindow(store, 'stats:ip:a:60', start, end)).toBe(1);
    expect(await countInWindow(store, 'stats:ip:a:60', start, end)).toBe(2);
    const counts = await Promise.all(Array.from({ length: 20 }, () => countInWindow(store, 'stats:ip:a:60', start, end)));
    expect([...counts].sort((a, b) => a - b)).toStrictEqual(Array.from({ length: 20 }, (_, i) => i + 3));
    expect(await countInWindow(store, 'stats:ip:b:60', start, end)).toBe(1);
    const rows = await raw(store, 'select key, cast(value as text) as value, expires_at as "expiresAt" from kv_cache order by key');
    expect(rows).toStrictEqual([
      { key: `limit:stats:ip:a:60:${start.getTime()}`, value: '22', expiresAt: end.toISOString() },
      { key: `limit:stats:ip:b:60:${start.getTime()}`, value: '1', expiresAt: end.toISOString() },
    ]);
    // Gone with the expired rows once the window has ended.
    expect(await pruneExpiredKv(store, end.toISOString(), 100, 'limit:')).toBe(2);
    seen.record(engine, 'windows', rows);
  });
});

afterAll(() => {
  for (const name of ['expired', 'unexpiring', 'usage', 'windows']) {
    const both = seen.both(name);
    if (both.sqlite !== undefined && both.postgres !== undefined) expect(both.postgres, name).toStrictEqual(both.sqlite);
  }
});
