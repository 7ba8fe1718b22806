import { afterEach, describe, expect, it } from 'vitest';
import { ContextCache, CONTEXT_CACHE, type LoadResult } from '../../src/store/cache.js';
import { tempStore } from '../helpers/replay-store.js';

const spec = { ttlSeconds: 90, maxStaleSeconds: 3600 };
const T0 = new Date('2025-11-05T23:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function setup() {
  const t = tempStore();
  cleanup = t.cleanup;
  return { store: t.store, cache: new ContextCache(t.store) };
}

/** A loader that counts its calls and answers from a script. */
function scripted<T>(answers: Array<LoadResult<T> | Error>) {
  let calls = 0;
  const seen: Array<unknown> = [];
  return {
    get calls() {
      return calls;
    },
    seen,
    load: async (previous: unknown): Promise<LoadResult<T>> => {
      seen.push(previous);
      const a = answers[Math.min(calls, answers.length - 1)]!;
      calls += 1;
      await new Promise((r) => setTimeout(r, 5));
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

describe('context cache', () => {
  it('has the seed TTLs: live 90 s, news 15 min, futures 12 h', () => {
    expect(CONTEXT_CACHE.live.ttlSeconds).toBe(90);
    expect(CONTEXT_CACHE.news.ttlSeconds).toBe(900);
    expect(CONTEXT_CACHE.futures.ttlSeconds).toBe(43_200);
  });

  it('answers from the cache within the TTL and goes upstream once it has passed', async () => {
    const { cache } = setup();
    const up = scripted<string>([{ ok: true, value: 'a' }, { ok: true, value: 'b' }]);
    expect(await cache.read('k', spec, at(0), up)).toMatchObject({ ok: true, value: 'a', ageSeconds: 0, stale: false, fromCache: false });
    expect(await cache.read('k', spec, at(89), up)).toMatchObject({ ok: true, value: 'a', ageSeconds: 89, stale: false, fromCache: true });
    expect(up.calls).toBe(1);
    expect(await cache.read('k', spec, at(90), up)).toMatchObject({ ok: true, value: 'b', ageSeconds: 0 });
    expect(up.calls).toBe(2);
  });

  it('single flight: 200 concurrent readers share one upstream call', async () => {
    const { cache } = setup();
    const up = scripted<number>([{ ok: true, value: 42 }]);
    const reads = await Promise.all(Array.from({ length: 200 }, () => cache.read('k', spec, at(0), up)));
    expect(up.calls).toBe(1);
    expect(reads.every((r) => r.ok && r.value === 42)).toBe(true);
    expect(cache.loads.get('k')).toBe(1);
  });

  it('stale on error: a failed refresh serves the last good value marked with its age and why', async () => {
    const { cache } = setup();
    const up = scripted<string>([{ ok: true, value: 'good' }, { ok: false, reason: 'HTTP 503' }]);
    await cache.read('k', spec, at(0), up);
    expect(await cache.read('k', spec, at(600), up)).toEqual({ ok: true, value: 'good', fetchedAt: at(0).toISOString(), ageSeconds: 600, stale: true, staleReason: 'HTTP 503', fromCache: true });
    // Past the stale window the feature hides instead.
    expect(await cache.read('k', spec, at(3601), up)).toEqual({ ok: false, reason: 'HTTP 503' });
  });

  it('no value and a failure: the hidden state with the reason, never an invented value; a throw is a failure too', async () => {
    const { cache } = setup();
    expect(await cache.read('k', spec, at(0), scripted<string>([{ ok: false, reason: 'not recorded' }]))).toEqual({ ok: false, reason: 'not recorded' });
    // A reason is public (issue 33): a thrown error's text may carry an upstream URL or a path, so only its kind is kept.
    expect(await cache.read('k2', spec, at(0), scripted<string>([new TypeError('boom at https://site.api.espn.com/x')]))).toEqual({ ok: false, reason: 'upstream read failed (TypeError)' });
  });

  it('survives a restart (kv_cache), and the loader sees the previous value even after the TTL', async () => {
    const { store, cache } = setup();
    await cache.read('k', spec, at(0), scripted<string>([{ ok: true, value: 'first' }]));
    const restarted = new ContextCache(store);
    const up = scripted<string>([{ ok: true, value: 'second' }]);
    expect(await restarted.read('k', spec, at(30), up)).toMatchObject({ value: 'first', fromCache: true });
    expect(up.calls).toBe(0);
    await restarted.read('k', spec, at(100), up);
    expect(up.seen[0]).toEqual({ value: 'first', fetchedAt: at(0).toISOString() });
  });

  it('reads as of the clock: a value cached under a later clock is not served under an earlier one', async () => {
    const { cache } = setup();
    await cache.read('k', spec, at(1000), scripted<string>([{ ok: true, value: 'later' }]));
    const up = scripted<string>([{ ok: false, reason: 'no answer' }]);
    expect(await cache.read('k', spec, at(0), up)).toEqual({ ok: false, reason: 'no answer' });
    expect(up.seen[0]).toBeNull();
  });

  it('a provider that is down is not asked again for 30 s (wall clock): readers get the stale value or the hidden state', async () => {
    const t = tempStore();
    cleanup = t.cleanup;
    let wall = 1_000_000;
    const cache = new ContextCache(t.store, () => wall);
    const up = scripted<string>([{ ok: false, reason: 'HTTP 503' }, { ok: true, value: 'back' }]);
    expect(await cache.read('k', spec, at(0), up)).toEqual({ ok: false, reason: 'HTTP 503' });
    wall += 29_000;
    expect(await cache.read('k', spec, at(29), up)).toEqual({ ok: false, reason: 'HTTP 503' });
    expect(up.calls).toBe(1);
    wall += 1_000;
    expect(await cache.read('k', spec, at(30), up)).toMatchObject({ ok: true, value: 'back' });
    expect(up.calls).toBe(2);
  });

  it('refresh skips a fresh value but still falls back to it on failure', async () => {
    const { cache } = setup();
    await cache.read('k', spec, at(0), scripted<string>([{ ok: true, value: 'v' }]));
    const up = scripted<string>([{ ok: false, reason: 'down' }]);
    expect(await cache.read('k', spec, at(10), { ...up, load: up.load, refresh: true })).toMatchObject({ ok: true, value: 'v', stale: true, ageSeconds: 10 });
    expect(up.calls).toBe(1);
  });
});
