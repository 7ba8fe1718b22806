import { LRUCache } from 'lru-cache';
import type { Store } from '../store/db.js';
import { countInWindow } from '../store/repo/rate-windows.js';

/**
 * Fixed-window request limiter held in memory (each process keeps its own; docs/api.md "Limits").
 * Each key gets `limit` requests per window of `windowSeconds` on the clock passed in (the wall
 * clock); the answer says how long until the window resets.
 *
 * Expiry is O(1) per request: windows of one length live in one Map in the order they opened
 * (a key whose window expired is deleted and set again, so it moves to the end), so the oldest
 * window is always at the head. Each hit drops expired heads and stops at the first live one:
 * a new caller never walks the live windows (the old sweep walked the whole map once it held
 * 10,000), and an expired window is dropped by the next request on a window of its length.
 */
export type Verdict = { ok: true } | { ok: false; retryAfter: number };

/** What a route asks of a limit: a verdict at once (this process's memory) or after the store counted it (shared). */
export interface RequestLimiter {
  hit(key: string, limit: number, windowSeconds: number, now: Date): Verdict | Promise<Verdict>;
}

export interface RateLimiter extends RequestLimiter {
  hit(key: string, limit: number, windowSeconds: number, now: Date): Verdict;
  /** Windows held now (live, or expired and not yet dropped), and how many map entries the sweeps have looked at since the start. */
  stats(): { windows: number; examined: number };
}

interface Window {
  start: number;
  count: number;
}

export function createRateLimiter(): RateLimiter {
  /** Window length in ms -> key -> window, oldest window first. */
  const bySpan = new Map<number, Map<string, Window>>();
  let examined = 0;

  /** Drops the expired heads of `windows` (each looked at once); stops at the first live window. */
  const sweep = (windows: Map<string, Window>, span: number, t: number): void => {
    for (const [key, w] of windows) {
      examined += 1;
      if (t - w.start < span) return;
      windows.delete(key);
    }
  };

  return {
    hit(key, limit, windowSeconds, now) {
      const t = now.getTime();
      const span = windowSeconds * 1000;
      let windows = bySpan.get(span);
      if (windows === undefined) bySpan.set(span, (windows = new Map()));
      sweep(windows, span, t);
      let w = windows.get(key);
      if (w === undefined || t - w.start >= span) {
        // Deleted first so the new window goes to the end: the map stays in opening order. A clock
        // that steps back can leave an older start behind a newer one; that window is dropped by
        // the check above when its key comes back, or once it reaches the head.
        windows.delete(key);
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      if (w.count >= limit) return { ok: false, retryAfter: Math.max(1, Math.ceil((w.start + span - t) / 1000)) };
      w.count += 1;
      return { ok: true };
    },
    stats() {
      let windows = 0;
      for (const m of bySpan.values()) windows += m.size;
      return { windows, examined };
    },
  };
}

const OK: Verdict = { ok: true };

/** Windows this process remembers as full, so a caller's flood past the limit costs no store write. */
const FULL_WINDOWS_KEPT = 50_000;

/**
 * The limiter of servers that share one store (PostgreSQL; docs/api.md "Limits"): each counted
 * request adds one to its window's row in the store (store/repo/rate-windows.ts), so N servers give
 * one limit, not N. Windows are fixed and aligned to the wall clock (a 60 s window opens at each
 * whole minute), which every server computes alike. A window the store has answered full is
 * remembered here until it ends: the rest of a flood is refused without a write. A store that cannot
 * count lets the request through (`onError` hears it): the limit must not turn a store fault into
 * refusals, and the request's own reads meet the same fault.
 */
export function createSharedRateLimiter(store: Store, onError: (error: unknown) => void = () => {}): RequestLimiter {
  const fullUntil = new LRUCache<string, number>({ max: FULL_WINDOWS_KEPT });
  return {
    hit(key, limit, windowSeconds, now) {
      const t = now.getTime();
      const span = windowSeconds * 1000;
      const start = Math.floor(t / span) * span;
      const end = start + span;
      const refused = (): Verdict => ({ ok: false, retryAfter: Math.max(1, Math.ceil((end - t) / 1000)) });
      const id = `${key}:${windowSeconds}`;
      if ((fullUntil.get(id) ?? 0) === end) return refused();
      return countInWindow(store, id, new Date(start), new Date(end)).then(
        (n) => {
          if (n <= limit) return OK;
          fullUntil.set(id, end);
          return refused();
        },
        (error: unknown) => {
          onError(error);
          return OK;
        },
      );
    },
  };
}
