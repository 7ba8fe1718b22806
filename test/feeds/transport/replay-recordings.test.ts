import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createReplayTransport, trackRecordings } from '../../../src/feeds/transport/replay.js';
import { ContextCache, freshnessOf } from '../../../src/store/cache.js';
import { tempStore } from '../../helpers/replay-store.js';

/**
 * A replayed answer's recording time (issue 41 item 8): the replay transport reports the manifest
 * recordedAt of every entry it serves inside trackRecordings, and the context cache keeps the
 * newest with the value, so a later read from the cache says the same time. Checked against the
 * bundled manifest's own entries, not the code's fields.
 */
const DIR = 'data/replay';
const manifest = JSON.parse(readFileSync(`${DIR}/manifest.json`, 'utf8')) as { entries: Array<{ key: string; url?: string; provider?: string; recordedAt?: string }> };
const entry = (suffix: string) => manifest.entries.find((e) => e.key.endsWith(suffix))!;
const NEWS = entry('/baseball/mlb/news');
const CARD = entry('/mma/ufc/scoreboard?dates=20250927');
const NOW = new Date('2025-11-05T17:05:00Z');
const transport = createReplayTransport(DIR, { now: () => NOW });
const get = (e: { url?: string; provider?: string }) => transport.fetch({ provider: e.provider as 'espn', url: e.url! });

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe('trackRecordings', () => {
  it("one request: its entry's recordedAt, as the manifest writes it", async () => {
    const { result, recordedAt } = await trackRecordings(() => get(NEWS));
    expect(result.ok).toBe(true);
    expect(recordedAt).toBe(NEWS.recordedAt);
    expect(recordedAt).toBe('2025-05-20T05:15:59Z');
  });

  it('several requests: the newest; a nested load hands its entries to the outer one', async () => {
    const outer = await trackRecordings(async () => {
      await get(NEWS);
      const inner = await trackRecordings(() => get(CARD));
      expect(inner.recordedAt).toBe(CARD.recordedAt);
    });
    expect(CARD.recordedAt).toBe('2025-09-25T18:55:19Z');
    expect(outer.recordedAt).toBe(CARD.recordedAt);
  });

  it('nothing served (not recorded): null, not a made-up time', async () => {
    const { result, recordedAt } = await trackRecordings(() => transport.fetch({ provider: 'espn', url: 'https://site.api.espn.com/apis/site/v2/sports/none' }));
    expect(result.ok).toBe(false);
    expect(recordedAt).toBeNull();
  });
});

describe('the context cache keeps the recording time with a replayed value', () => {
  it('loaded, then read from the cache: replay, the same recordedAt, read as of each read clock; no age', async () => {
    const t = tempStore();
    cleanup = t.cleanup;
    const cache = new ContextCache(t.store);
    const spec = { ttlSeconds: 900, maxStaleSeconds: 3600 };
    let loads = 0;
    const load = async () => {
      loads += 1;
      const r = await get(NEWS);
      return r.ok ? { ok: true as const, value: r.body.length } : { ok: false as const, reason: r.reason };
    };
    const first = await cache.read('k', spec, NOW, { recording: trackRecordings, load });
    const later = new Date(NOW.getTime() + 60_000);
    const again = await cache.read('k', spec, later, { recording: trackRecordings, load });
    expect(loads).toBe(1);
    expect(first.ok && freshnessOf(first)).toEqual({ replay: true, recordedAt: '2025-05-20T05:15:59Z', readAsOf: NOW.toISOString(), stale: false });
    expect(again.ok && freshnessOf(again)).toEqual({ replay: true, recordedAt: '2025-05-20T05:15:59Z', readAsOf: later.toISOString(), stale: false });
  });

  it('a value cached without a recording time (before it was kept) is read from the recording again', async () => {
    const t = tempStore();
    cleanup = t.cleanup;
    const cache = new ContextCache(t.store);
    const spec = { ttlSeconds: 900, maxStaleSeconds: 3600 };
    await cache.read('k', spec, NOW, { load: async () => ({ ok: true, value: 1 }) });
    const r = await cache.read('k', spec, NOW, { recording: trackRecordings, load: async () => ((await get(NEWS)).ok ? { ok: true, value: 2 } : { ok: false, reason: 'x' }) });
    expect(r).toMatchObject({ ok: true, value: 2, replay: { recordedAt: '2025-05-20T05:15:59Z' } });
  });
});
