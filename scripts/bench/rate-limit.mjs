// Benchmark: the per-caller rate limiter with many live windows (issue 40 item 5). Run after
// `npm run build`: node scripts/bench/rate-limit.mjs [liveWindows]
//
// N callers open a window each (all live), then new callers arrive one by one: the time per new
// caller's hit. The baseline is the limiter as it was before issue 40, kept here verbatim: past
// 10,000 windows every new window swept the whole map. The current limiter (dist/server/rate-limit.js)
// drops only expired heads of an opening-ordered map. Ratio: old time per new caller / new.
import { benchResult, dist, median, round, SMOKE } from './_shared.mjs';

const { createRateLimiter } = await dist('server/rate-limit.js');
const LIVE = Number(process.argv[2] ?? (SMOKE ? 12_000 : 20_000));
const NEW_CALLERS = SMOKE ? 200 : 2_000;
const ROUNDS = SMOKE ? 1 : 5;

/** The limiter before issue 40 (src/server/rate-limit.ts at b6e877d). */
function oldLimiter() {
  const windows = new Map();
  return {
    hit(key, limit, windowSeconds, now) {
      const t = now.getTime();
      const span = windowSeconds * 1000;
      let w = windows.get(key);
      if (!w || t - w.start >= span) {
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

/** Microseconds per new caller once `LIVE` windows are live. */
function perNewCaller(make) {
  const limiter = make();
  const t0 = Date.UTC(2026, 11, 1, 12);
  for (let i = 0; i < LIVE; i++) limiter.hit(`ip:198.18.${i >> 8}.${i & 255}#${i}`, 60, 60, new Date(t0 + (i % 1000)));
  const start = process.hrtime.bigint();
  for (let i = 0; i < NEW_CALLERS; i++) limiter.hit(`ip:new-${i}`, 60, 60, new Date(t0 + 1000 + i));
  return Number(process.hrtime.bigint() - start) / 1000 / NEW_CALLERS;
}

const old = [];
const now = [];
for (let r = 0; r < ROUNDS; r++) {
  old.push(perNewCaller(oldLimiter));
  now.push(perNewCaller(createRateLimiter));
}
const oldUs = median(old);
const newUs = median(now);
const ratio = oldUs / newUs;
console.log(`rate limiter, ${LIVE} live windows: a new caller's hit ${round(oldUs, 1)} µs before, ${round(newUs, 2)} µs now (${round(ratio, 0)}x)`);
benchResult('rate-limit', `a new caller past ${LIVE} live windows: ${round(ratio, 0)}x faster than the whole-map sweep`, ratio, { liveWindows: LIVE, oldUsPerNewCaller: round(oldUs, 1), newUsPerNewCaller: round(newUs, 2) });
