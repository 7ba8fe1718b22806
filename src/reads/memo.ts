import { LRUCache } from 'lru-cache';
import type { Store } from '../store/db.js';

/**
 * Bounded in-process memos of values computed from the store (issue 40): a read whose answer is a
 * pure function of stored data keys it by the version of that data and its parameters, so each
 * answer is computed once per version and parameter set, and a caller cycling parameters can only
 * evict, never grow the process or the store. Kept per store (a test or a CLI may hold several);
 * concurrent misses of one key share one computation. Nothing here is written to the store: a
 * restart computes again, which is why only store-derived values live here (a provider's answer
 * stays in the kv-backed context cache, whose stale fallback needs it across restarts).
 */
export interface Memo<V extends object> {
  /** The kept value of `key`, or `compute()` kept under it (a failed computation is not kept). */
  get(store: Store, key: string, compute: () => Promise<V>): Promise<V>;
  /** The kept value, if any, without computing (and without refreshing its recency). */
  peek(store: Store, key: string): V | undefined;
  /** Keeps `value` under `key` (a read that decides for itself whether an answer may be kept). */
  set(store: Store, key: string, value: V): void;
  /** Drops the kept value of `key` (the next get computes it again). */
  delete(store: Store, key: string): void;
  /** Values kept for `store`, and how many times a value was computed (or set). */
  stats(store: Store): { size: number; computed: number };
}

export function storeMemo<V extends object>(max: number): Memo<V> {
  const byStore = new WeakMap<Store, { lru: LRUCache<string, V>; inflight: Map<string, Promise<V>>; computed: number }>();
  const of = (store: Store) => {
    let m = byStore.get(store);
    if (!m) byStore.set(store, (m = { lru: new LRUCache<string, V>({ max }), inflight: new Map(), computed: 0 }));
    return m;
  };
  return {
    get(store, key, compute) {
      const m = of(store);
      const kept = m.lru.get(key);
      if (kept !== undefined) return Promise.resolve(kept);
      const running = m.inflight.get(key);
      if (running) return running;
      m.computed += 1;
      const task = compute()
        .then((value) => {
          m.lru.set(key, value);
          return value;
        })
        .finally(() => m.inflight.delete(key));
      m.inflight.set(key, task);
      return task;
    },
    peek: (store, key) => byStore.get(store)?.lru.peek(key),
    set: (store, key, value) => {
      const m = of(store);
      m.computed += 1;
      m.lru.set(key, value);
    },
    delete: (store, key) => {
      byStore.get(store)?.lru.delete(key);
    },
    stats: (store) => {
      const m = byStore.get(store);
      return { size: m?.lru.size ?? 0, computed: m?.computed ?? 0 };
    },
  };
}

/**
 * Answers a read hands out more than once, unchanged (the live answer while its age stands): the
 * server may serialize such an object once. A read adds an answer here only when it will never
 * change it.
 */
export const keptAnswers = new WeakSet<object>();
