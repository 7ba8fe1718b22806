/**
 * pinTickerItem, the use case behind `propgrade ticker pin`, on both engines over a store that holds
 * the replay loop's real MOVEs (NBA 2025-11-05, 15:05 and 17:05): the raw row it writes, and the
 * ticker readers then see (the pin beside the MOVEs until it expires).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinTickerItem } from '../../src/jobs/ticker.js';
import { readTicker } from '../../src/reads/ticker.js';
import type { Store } from '../../src/store/db.js';
import { copyOn, ENGINES, type EngineStore } from '../helpers/engines.js';
import { replayLoopFiles } from '../helpers/replay-store.js';

const NOW = new Date('2025-11-05T17:05:00Z');

async function tickerRows(store: Store): Promise<Array<Record<string, unknown>>> {
  const text = 'select id, kind, sport, created_at as "createdAt", text, expires_at as "expiresAt" from ticker_events order by id';
  if (store.engine === 'sqlite') return store.sqlite.prepare(text).all() as Array<Record<string, unknown>>;
  return (await store.pg.pool.query(text)).rows as Array<Record<string, unknown>>;
}

let dir: string;
let presettle: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-ticker-job-'));
  ({ presettle } = await replayLoopFiles(dir));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(ENGINES)('pinTickerItem (%s)', (engine) => {
  let s: EngineStore;
  beforeAll(async () => {
    s = await copyOn(engine, presettle);
  }, 120_000);
  afterAll(() => s.cleanup());

  it('writes one PIN row stamped with the data clock, expiring after the hours given; readers see it beside the MOVEs until then', async () => {
    const before = await tickerRows(s.store);
    expect(before.filter((r) => r.kind === 'MOVE').length).toBeGreaterThan(0);
    const moves = (await readTicker(s.store, NOW, [])).items.filter((i) => i.kind === 'MOVE');

    const timed = await pinTickerItem(s.store, { text: 'Rain delay risk at Wrigley', sport: 'mlb', hours: 6 }, NOW);
    expect(timed).toEqual({ pinned: 'Rain delay risk at Wrigley', expiresAt: '2025-11-05T23:05:00.000Z' });
    const forever = await pinTickerItem(s.store, { text: 'Doubleheader today: lineups at 11am' }, NOW);
    expect(forever).toEqual({ pinned: 'Doubleheader today: lineups at 11am', expiresAt: null });

    const after = await tickerRows(s.store);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map(({ id: _id, ...r }) => r)).toEqual([
      { kind: 'PIN', sport: 'mlb', createdAt: NOW.toISOString(), text: 'Rain delay risk at Wrigley', expiresAt: '2025-11-05T23:05:00.000Z' },
      { kind: 'PIN', sport: null, createdAt: NOW.toISOString(), text: 'Doubleheader today: lineups at 11am', expiresAt: null },
    ]);

    const pins = (t: Awaited<ReturnType<typeof readTicker>>) => t.items.filter((i) => i.kind === 'PIN').map((i) => [i.text, i.source]);
    const now = await readTicker(s.store, NOW, []);
    expect(pins(now).sort()).toEqual([
      ['Doubleheader today: lineups at 11am', 'manual'],
      ['Rain delay risk at Wrigley', 'manual'],
    ]);
    expect(now.items.filter((i) => i.kind === 'MOVE')).toEqual(moves);
    // Past its six hours the timed pin is gone; the other stays.
    expect(pins(await readTicker(s.store, new Date('2025-11-05T23:05:00.001Z'), []))).toEqual([['Doubleheader today: lineups at 11am', 'manual']]);
  });
});
