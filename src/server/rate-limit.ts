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
export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number, now: Date): { ok: true } | { ok: false; retryAfter: number };
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
