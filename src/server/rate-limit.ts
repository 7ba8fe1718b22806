/**
 * Fixed-window request limiter held in memory (one process serves the API). Each key gets
 * `limit` requests per window; the answer says how long until the window resets.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number, now: Date): { ok: true } | { ok: false; retryAfter: number };
}

export function createRateLimiter(): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, limit, windowSeconds, now) {
      const t = now.getTime();
      const span = windowSeconds * 1000;
      let w = windows.get(key);
      if (!w || t - w.start >= span) {
        // Drop expired windows now and then so the map does not grow without bound.
        if (windows.size > 10_000) for (const [k, v] of windows) if (t - v.start >= span) windows.delete(k);
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      if (w.count >= limit) return { ok: false, retryAfter: Math.max(1, Math.ceil((w.start + span - t) / 1000)) };
      w.count += 1;
      return { ok: true };
    },
  };
}

