import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/errors.js';
import { CRON_UTC_HOURS, nextCronTime, startCron } from '../../src/server/cron.js';
import { toErrorReply } from '../../src/server/envelope.js';
import { internalKeyMatches } from '../../src/server/internal-key.js';
import { createRateLimiter } from '../../src/server/rate-limit.js';
import { etagMatches } from '../../src/server/snapshot-cache.js';
import { syncStatus } from '../../src/domain/sync-status.js';

describe('syncStatus', () => {
  const last = new Date('2025-11-05T17:05:00Z');
  const after = (min: number) => new Date(last.getTime() + min * 60_000);
  it('is normal under 1.5x, amber from 1.5x, stale from 3x the expected interval', () => {
    expect(syncStatus(last, after(0), 180)).toBe('normal');
    expect(syncStatus(last, after(269.99), 180)).toBe('normal');
    expect(syncStatus(last, after(270), 180)).toBe('amber');
    expect(syncStatus(last, after(539.99), 180)).toBe('amber');
    expect(syncStatus(last, after(540), 180)).toBe('stale');
    expect(syncStatus(last, after(45), 30)).toBe('amber');
  });
});

describe('nextCronTime', () => {
  it('fires at 14, 19, 22, 1 and 3 UTC, on the hour, strictly after now', () => {
    expect([...CRON_UTC_HOURS].sort((a, b) => a - b)).toEqual([1, 3, 14, 19, 22]);
    expect(nextCronTime(new Date('2025-11-05T13:59:59Z')).toISOString()).toBe('2025-11-05T14:00:00.000Z');
    expect(nextCronTime(new Date('2025-11-05T14:00:00Z')).toISOString()).toBe('2025-11-05T19:00:00.000Z');
    expect(nextCronTime(new Date('2025-11-05T22:30:00Z')).toISOString()).toBe('2025-11-06T01:00:00.000Z');
    expect(nextCronTime(new Date('2025-11-06T01:00:00Z')).toISOString()).toBe('2025-11-06T03:00:00.000Z');
    expect(nextCronTime(new Date('2025-12-31T23:00:00Z')).toISOString()).toBe('2026-01-01T01:00:00.000Z');
  });
});

describe('startCron', () => {
  it('runs at each cron hour and reschedules itself', async () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2025-11-05T13:59:00Z'));
      const runs: string[] = [];
      const cron = startCron(async () => {
        runs.push(new Date().toISOString());
      });
      expect(cron.next().toISOString()).toBe('2025-11-05T14:00:00.000Z');
      await vi.advanceTimersByTimeAsync(59_000);
      expect(runs).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(runs).toEqual(['2025-11-05T14:00:00.000Z']);
      expect(cron.next().toISOString()).toBe('2025-11-05T19:00:00.000Z');
      await vi.advanceTimersByTimeAsync(5 * 3600_000);
      expect(runs).toEqual(['2025-11-05T14:00:00.000Z', '2025-11-05T19:00:00.000Z']);
      cron.stop();
      await vi.advanceTimersByTimeAsync(24 * 3600_000);
      expect(runs).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('etagMatches', () => {
  it('matches exact, weak-prefixed, listed and * validators only', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abcd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });
});

describe('internalKeyMatches', () => {
  const key = 'k'.repeat(32);
  it('needs a configured key and the exact presented key, whatever the lengths', () => {
    expect(internalKeyMatches(key, key)).toBe(true);
    expect(internalKeyMatches(key, `${key}k`)).toBe(false);
    expect(internalKeyMatches(key, 'k')).toBe(false);
    expect(internalKeyMatches(key, undefined)).toBe(false);
    expect(internalKeyMatches(undefined, key)).toBe(false);
    expect(internalKeyMatches('', '')).toBe(false);
  });
});

describe('toErrorReply', () => {
  it('keeps an AppError code, message, details and Retry-After', () => {
    expect(toErrorReply(new AppError('RATE_LIMITED', 'slow down', { retryAfter: 30, details: { limit: 2 } }))).toEqual({
      status: 429,
      body: { error: { code: 'RATE_LIMITED', message: 'slow down', details: { limit: 2 } } },
      retryAfter: 30,
    });
  });
  it('hides anything unexpected behind a fixed 500 message', () => {
    const reply = toErrorReply(new Error('SQLITE_CORRUPT: database disk image is malformed at /srv/x.sqlite'));
    expect(reply).toEqual({ status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } });
  });
});

describe('createRateLimiter', () => {
  it('allows `limit` hits per window per key and says when the window resets', () => {
    const limiter = createRateLimiter();
    const t0 = new Date('2025-11-05T17:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    expect(limiter.hit('a', 2, 60, at(0))).toEqual({ ok: true });
    expect(limiter.hit('a', 2, 60, at(10))).toEqual({ ok: true });
    expect(limiter.hit('a', 2, 60, at(15))).toEqual({ ok: false, retryAfter: 45 });
    expect(limiter.hit('b', 2, 60, at(15))).toEqual({ ok: true });
    expect(limiter.hit('a', 2, 60, at(60))).toEqual({ ok: true });
  });
});

describe('security headers', () => {
  it('every answer, an error included, says nosniff and no referrer, and names no server', async () => {
    const { seedStore, startServer, quiet } = await import('./_harness.js');
    const { loadConfig } = await import('../../src/config.js');
    const seeded = await seedStore();
    const api = await startServer({ store: seeded.store, config: loadConfig({}), now: () => seeded.now, log: quiet });
    try {
      for (const path of ['/api/snapshot/summary', '/api/nope', '/openapi.json']) {
        const r = await fetch(`${api.base}${path}`);
        expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(r.headers.get('referrer-policy'), path).toBe('no-referrer');
        expect(r.headers.get('x-frame-options'), path).toBe('DENY');
        expect(r.headers.get('server'), path).toBeNull();
        expect(r.headers.get('x-powered-by'), path).toBeNull();
      }
    } finally {
      await api.close();
      seeded.cleanup();
    }
  }, 60_000);
});

describe('an AppError with an underlying error keeps its code through h3', () => {
  it('maps to its own status, not a 500', async () => {
    const { createError } = await import('h3');
    const { AppError } = await import('../../src/errors.js');
    const { toErrorReply } = await import('../../src/server/envelope.js');
    const app = new AppError('UNAVAILABLE', 'OCR engine failed to start', { cause: new Error('worker died') });
    const reply = toErrorReply(createError(app));
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({ error: { code: 'UNAVAILABLE', message: 'OCR engine failed to start' } });
  });
});
