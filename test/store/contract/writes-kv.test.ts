import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/store/db.js';
import { claimLog, readLog, writeLog } from '../../../src/store/repo/content-log.js';
import { kvDelete, kvGet, kvGetAsOf, kvSet } from '../../../src/store/repo/kv.js';
import { addCreditsSpent, creditsSpentToday, logFuturesCredits, readFuturesCredits } from '../../../src/store/repo/odds-credits.js';
import { rememberReplayFolder, replayOrigin } from '../../../src/store/repo/replay-origin.js';
import { insertSnapshot } from '../../../src/store/repo/snapshots.js';
import { ENGINES } from '../../helpers/engines.js';
import { eachEmptyStore, observations, raw } from './writes-helpers.js';

/** Contract: kv_cache and the writes built on it (replay origin, Odds API credits), and content_log. */

const seen = observations();
const T0 = new Date('2025-11-05T15:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const KV = 'select key, cast(value as text) as value, updated_at as "updatedAt", expires_at as "expiresAt" from kv_cache order by key';

describe.each(ENGINES)('kv and content-log writes on %s', (engine) => {
  const get = eachEmptyStore(engine);

  it('kvSet / kvGet: values of every JSON kind as written, expiry at expires_at exactly, a rewrite replaces all three columns', async () => {
    const { store } = get();
    const obj = { z: 1, a: { y: [1, 'two', null, false], b: 0.1 }, m: '' };
    await kvSet(store, 'obj', obj, T0, 60);
    await kvSet(store, 'zero', 0, T0, null);
    await kvSet(store, 'false', false, T0, null);
    await kvSet(store, 'str', 'text "quoted"', T0, null);
    await kvSet(store, 'arr', [], T0, 0);
    expect(JSON.stringify(await kvGet(store, 'obj', at(59)))).toBe(JSON.stringify(obj));
    expect(await kvGet(store, 'obj', at(60))).toBeNull();
    expect(await kvGet(store, 'zero', at(10 ** 9))).toBe(0);
    expect(await kvGet(store, 'false', T0)).toBe(false);
    expect(await kvGet(store, 'str', T0)).toBe('text "quoted"');
    expect(await kvGet(store, 'arr', T0)).toBeNull(); // ttl 0 expires at once
    expect(await kvGet(store, 'absent', T0)).toBeNull();
    expect(await raw(store, KV)).toStrictEqual([
      { key: 'arr', value: '[]', updatedAt: '2025-11-05T15:00:00.000Z', expiresAt: '2025-11-05T15:00:00.000Z' },
      { key: 'false', value: 'false', updatedAt: '2025-11-05T15:00:00.000Z', expiresAt: null },
      { key: 'obj', value: JSON.stringify(obj), updatedAt: '2025-11-05T15:00:00.000Z', expiresAt: '2025-11-05T15:01:00.000Z' },
      { key: 'str', value: '"text \\"quoted\\""', updatedAt: '2025-11-05T15:00:00.000Z', expiresAt: null },
      { key: 'zero', value: '0', updatedAt: '2025-11-05T15:00:00.000Z', expiresAt: null },
    ]);

    await kvSet(store, 'obj', { b: 2, a: 1 }, at(120), null);
    expect(JSON.stringify(await kvGet(store, 'obj', at(10 ** 6)))).toBe('{"b":2,"a":1}');
    expect(await raw(store, 'select cast(value as text) as value, updated_at as u, expires_at as e from kv_cache where key = ?', ['obj'])).toStrictEqual([
      { value: '{"b":2,"a":1}', u: '2025-11-05T15:02:00.000Z', e: null },
    ]);
    seen.record(engine, 'kv rows', await raw(store, KV));
  });

  it('kvSet of a null value is refused on both engines (value is NOT NULL)', async () => {
    const { store } = get();
    const outcome = await kvSet(store, 'nothing', null, T0, null).then(
      () => 'written',
      (e: unknown) => `refused: ${/not[- ]null/i.test(`${String(e)} ${String((e as { cause?: unknown }).cause)}`) ? 'not null' : String(e)}`,
    );
    seen.record(engine, 'kvSet null', { outcome, rows: await raw(store, KV) });
    expect(outcome).toBe('refused: not null');
  });

  it('kvGetAsOf: written at or before now and not expired; a later write hides the value from an earlier clock', async () => {
    const { store } = get();
    await kvSet(store, 'k', { v: 1 }, T0, 3600);
    expect(await kvGetAsOf(store, 'k', at(-1))).toBeNull();
    expect(await kvGetAsOf(store, 'k', T0)).toStrictEqual({ v: 1 });
    expect(await kvGetAsOf(store, 'k', at(3599))).toStrictEqual({ v: 1 });
    expect(await kvGetAsOf(store, 'k', at(3600))).toBeNull();
    await kvSet(store, 'k', { v: 2 }, at(600), null);
    expect(await kvGetAsOf(store, 'k', at(300))).toBeNull();
    expect(await kvGetAsOf(store, 'k', at(10 ** 7))).toStrictEqual({ v: 2 });
    expect(await kvGet(store, 'k', at(300))).toStrictEqual({ v: 2 }); // kvGet ignores when it was written
  });

  it('kvDelete: removes the key, and deleting an absent key is no error', async () => {
    const { store } = get();
    await kvSet(store, 'a', 1, T0, null);
    await kvSet(store, 'b', 2, T0, null);
    await kvDelete(store, 'a');
    await kvDelete(store, 'never');
    expect(await kvGet(store, 'a', T0)).toBeNull();
    expect(await raw(store, 'select key from kv_cache')).toStrictEqual([{ key: 'b' }]);
  });

  it('rememberReplayFolder: a folder inside the package relative, any other absolute; replayOrigin reads it back', async () => {
    const { store } = get();
    expect(await replayOrigin(store)).toStrictEqual({ replayed: false, folder: null });
    await insertSnapshot(store, { sport: 'nba', runId: null, takenAt: '2025-11-05T15:05:00.000Z', slateDate: '2025-11-05', gradedCount: 0, rowCount: 0, source: 'replay' }, []);
    expect(await replayOrigin(store)).toStrictEqual({ replayed: true, folder: null });
    await rememberReplayFolder(store, join(PACKAGE_ROOT, 'data/replay'), T0);
    expect(await replayOrigin(store)).toStrictEqual({ replayed: true, folder: join(PACKAGE_ROOT, 'data/replay') });
    expect(await raw(store, KV)).toStrictEqual([{ key: 'meta:replay-folder', value: '{"folder":"data/replay"}', updatedAt: '2025-11-05T15:00:00.000Z', expiresAt: null }]);
    const outside = join(tmpdir(), 'elsewhere', 'replay');
    await rememberReplayFolder(store, outside, at(60));
    expect(await replayOrigin(store)).toStrictEqual({ replayed: true, folder: outside });
    expect(await raw(store, 'select cast(value as text) as value from kv_cache')).toStrictEqual([{ value: JSON.stringify({ folder: outside }) }]);
  });

  it('odds credits: addCreditsSpent adds to the ET day, logFuturesCredits appends entries; kv rows with their TTLs', async () => {
    const { store } = get();
    const now = new Date('2025-11-06T03:30:00.000Z'); // 22:30 ET on Nov 5
    expect(await creditsSpentToday(store, now)).toBe(0);
    expect(await addCreditsSpent(store, now, 12)).toBe(12);
    expect(await addCreditsSpent(store, now, 0.5)).toBe(12.5);
    expect(await creditsSpentToday(store, now)).toBe(12.5);
    expect(await creditsSpentToday(store, new Date('2025-11-06T05:00:00.000Z'))).toBe(0); // Nov 6 ET
    await logFuturesCredits(store, now, { sport: 'nba', key: 'basketball_nba_championship_winner', credits: 3, remaining: 480 });
    await logFuturesCredits(store, now, { sport: 'nhl', key: 'icehockey_nhl_championship_winner', credits: 1, remaining: null });
    expect(await readFuturesCredits(store, '2025-11-05', now)).toStrictEqual({
      date: '2025-11-05',
      calls: 2,
      credits: 4,
      remaining: 480,
      entries: [
        { at: '2025-11-06T03:30:00.000Z', sport: 'nba', key: 'basketball_nba_championship_winner', credits: 3 },
        { at: '2025-11-06T03:30:00.000Z', sport: 'nhl', key: 'icehockey_nhl_championship_winner', credits: 1 },
      ],
    });
    const rows = await raw(store, KV);
    expect(rows.map((r) => [r['key'], r['expiresAt']])).toStrictEqual([
      ['odds-api:credits:2025-11-05', '2025-11-09T03:30:00.000Z'],
      ['odds-api:futures-credits:2025-11-05', '2025-11-14T03:30:00.000Z'],
    ]);
    expect(rows[0]?.['value']).toBe('12.5');
    expect(JSON.parse(rows[1]?.['value'] as string)).toMatchObject({ date: '2025-11-05', calls: 2, credits: 4, remaining: 480 });
    seen.record(engine, 'odds credits kv', rows);
  });

  it('writeLog: insert, then an update that keeps created_at and the fields a patch leaves out', async () => {
    const { store } = get();
    const first = await writeLog(store, 'ghost_draft', '2025-11-05:settle', { status: 'draft', externalId: 'post-1', detail: { z: 1, a: 'b' } }, T0);
    expect(first).toStrictEqual({ id: 1, kind: 'ghost_draft', key: '2025-11-05:settle', externalId: 'post-1', status: 'draft', detail: { z: 1, a: 'b' }, createdAt: '2025-11-05T15:00:00.000Z', updatedAt: '2025-11-05T15:00:00.000Z' });
    const second = await writeLog(store, 'ghost_draft', '2025-11-05:settle', { status: 'published' }, at(60));
    expect(second).toStrictEqual({ ...first, status: 'published', updatedAt: '2025-11-05T15:01:00.000Z' });
    const third = await writeLog(store, 'ghost_draft', '2025-11-05:settle', { status: 'draft', externalId: null, detail: null }, at(120));
    expect(third).toStrictEqual({ ...first, externalId: null, detail: null, updatedAt: '2025-11-05T15:02:00.000Z' });
    expect(await readLog(store, 'ghost_draft', '2025-11-05:settle')).toStrictEqual(third);
    expect(await readLog(store, 'ghost_draft', 'other')).toBeNull();
    const other = await writeLog(store, 'listmonk_campaign', '2025-11-05', { status: 'creating' }, at(180));
    expect(other).toMatchObject({ externalId: null, detail: null });
    seen.record(engine, 'content_log ids', [first.id, other.id]);
    expect(await raw(store, 'select id, kind, external_id as x, status, cast(detail as text) as d, created_at as c from content_log order by id')).toStrictEqual([
      { id: 1, kind: 'ghost_draft', x: null, status: 'draft', d: null, c: '2025-11-05T15:00:00.000Z' },
      { id: other.id, kind: 'listmonk_campaign', x: null, status: 'creating', d: null, c: '2025-11-05T15:03:00.000Z' },
    ]);
  });

  it('claimLog: claimed when absent, not claimed while a fresh claim is in progress, claimed again once stale or claimable', async () => {
    const { store } = get();
    const options = (now: Date) => ({ status: 'sending', now, staleMs: 10 * 60 * 1000, inProgress: 'sending', claimable: (row: { status: string }) => row.status === 'failed' });
    const a = await claimLog(store, 'desk_pack_ready', '2025-11-05', options(T0));
    expect(a).toStrictEqual({ claimed: true, previous: null, attempt: 1 });
    const b = await claimLog(store, 'desk_pack_ready', '2025-11-05', options(at(599)));
    expect(b).toStrictEqual({
      claimed: false,
      row: { id: 1, kind: 'desk_pack_ready', key: '2025-11-05', externalId: null, status: 'sending', detail: { attempts: 1, claimed_at: '2025-11-05T15:00:00.000Z' }, createdAt: '2025-11-05T15:00:00.000Z', updatedAt: '2025-11-05T15:00:00.000Z' },
    });
    const c = await claimLog(store, 'desk_pack_ready', '2025-11-05', options(at(600)));
    expect(c).toStrictEqual({ claimed: true, previous: b.claimed ? null : b.row, attempt: 2 });
    await writeLog(store, 'desk_pack_ready', '2025-11-05', { status: 'sent' }, at(700));
    expect(await claimLog(store, 'desk_pack_ready', '2025-11-05', options(at(10 ** 6)))).toMatchObject({ claimed: false, row: { status: 'sent' } });
    await writeLog(store, 'desk_pack_ready', '2025-11-05', { status: 'failed' }, at(800));
    expect(await claimLog(store, 'desk_pack_ready', '2025-11-05', options(at(900)))).toMatchObject({ claimed: true, attempt: 3, previous: { status: 'failed' } });
    expect(await raw(store, 'select status, cast(detail as text) as d, created_at as c, updated_at as u from content_log')).toStrictEqual([
      { status: 'sending', d: '{"attempts":3,"claimed_at":"2025-11-05T15:15:00.000Z"}', c: '2025-11-05T15:00:00.000Z', u: '2025-11-05T15:15:00.000Z' },
    ]);
  });

  it('claimLog: of 10 concurrent claims exactly one is claimed', async () => {
    const { store } = get();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => claimLog(store, 'desk_pack_ready', '2025-11-06', { status: 'sending', now: T0, staleMs: 60_000, inProgress: 'sending', claimable: () => false })),
    );
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
    expect(await raw(store, 'select count(*) as n from content_log')).toStrictEqual([{ n: 1 }]);
  });
});

describe('kv and content-log writes: both engines read back the same', () => {
  it.each(['kv rows', 'kvSet null', 'odds credits kv', 'content_log ids'])('%s', (name) => {
    const { sqlite, postgres } = seen.both(name);
    expect(sqlite).toBeDefined();
    expect(postgres).toStrictEqual(sqlite);
  });
});
