import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { arsenalStatsUrl, avgSpeedUrl } from '../../src/feeds/savant/index.js';
import { createReplayTransport } from '../../src/feeds/transport/index.js';
import type { FetchOutcome, FetchRequest, Transport } from '../../src/feeds/transport/types.js';
import { defaultArsenalSeason, readArsenal } from '../../src/reads/arsenal.js';
import { ContextCache } from '../../src/store/cache.js';
import type { ContextDeps } from '../../src/feeds/context.js';
import { silentLogger } from '../../src/feeds/sources.js';
import { toWire } from '../../src/wire.js';
import { REPLAY_DIR, tempStore } from '../helpers/replay-store.js';

/**
 * Pitcher arsenal (spec: Pitcher arsenal) on the real Baseball Savant 2022 and 2025 exports: through
 * the bundled replay (data/replay/savant, byte copies of ../shared/feeds/savant) and through a
 * transport serving the test fixtures' copies, for the cache rules.
 */

const csv = (file: string) => readFileSync(`test/fixtures/savant/${file}`, 'utf8');
/** After both 2025 exports were recorded (the velocity file: 2026-01-23T00:55:22Z). */
const AFTER_2025 = new Date('2026-01-24T00:00:00Z');

let cleanups: Array<() => void> = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

function deps(keyless: Transport, now: Date, cache?: ContextCache): ContextDeps {
  const s = tempStore();
  cleanups.push(s.cleanup);
  return { store: s.store, config: loadConfig({}), cache: cache ?? new ContextCache(s.store), providers: { source: 'replay', keyless, odds: null, close: async () => {} }, now, log: silentLogger };
}

const replayAt = (now: Date) => deps(createReplayTransport(REPLAY_DIR, { now: () => now }), now);

/** Serves the 2025 fixture CSVs (or a replacement body) and counts the calls. */
function counting(bodies: { stats?: string | null; speed?: string | null } = {}) {
  const calls: FetchRequest[] = [];
  let down = false;
  const t: Transport = {
    kind: 'replay',
    async fetch(request): Promise<FetchOutcome> {
      calls.push(request);
      await new Promise((r) => setTimeout(r, 5));
      if (down) return { ok: false, status: 503, reason: 'HTTP 503' };
      const body =
        request.url === arsenalStatsUrl(2025) ? (bodies.stats === undefined ? csv('mlb-pitch-arsenal-stats-2025.csv') : bodies.stats) : request.url === avgSpeedUrl(2025) ? (bodies.speed === undefined ? csv('mlb-pitch-arsenals-avg-speed-2025.csv') : bodies.speed) : null;
      return body === null ? { ok: false, status: 404, reason: `not recorded: ${request.url}` } : { ok: true, status: 200, headers: {}, body, source: 'replay' };
    },
  };
  return { t, calls, setDown: (d: boolean) => void (down = d) };
}

describe('arsenal on the recorded 2025 exports', () => {
  it("Kevin Gausman: per pitch usage, whiff, velocity, ranked by usage, with each pitch's n; strikeout %", async () => {
    const v = await readArsenal(replayAt(AFTER_2025), 'Kevin Gausman');
    if (!('found' in v) || !v.found) throw new Error('Gausman should be found');
    expect(v.season).toBe(2025);
    expect(v.pitcher).toEqual({ name: 'Kevin Gausman', key: 'kevin gausman', mlbamId: 592332, team: 'TOR' });
    expect(v.pitches.map((p) => p.pitchType)).toEqual(['FF', 'FS', 'SL', 'SI']);
    expect(v.pitches[0]).toEqual({ pitchType: 'FF', pitchName: '4-Seam Fastball', usagePct: 53.7, whiffPct: 16.9, velocityMph: 94.5, kPct: 19, pitches: 1628, pa: 437 });
    expect(v.strikeoutPct).toBe(24.5);
    expect(v.pa).toBe(v.pitches.reduce((t, p) => t + p.pa!, 0));
    const usage = v.pitches.map((p) => p.usagePct);
    expect([...usage].sort((a, b) => b - a)).toEqual(usage);
  });

  it('null, never 0: Senga’s split-finger has no velocity cell; Brad Lord’s slurve has no whiff cell', async () => {
    const senga = await readArsenal(replayAt(AFTER_2025), 'Kodai Senga');
    if (!('found' in senga) || !senga.found) throw new Error('Senga');
    const fs = senga.pitches.find((p) => p.pitchType === 'FS')!;
    expect(fs).toMatchObject({ usagePct: 28.5, whiffPct: 41.8, velocityMph: null });
    expect((toWire(fs) as Record<string, unknown>)['velocity_mph']).toBeNull();
    // The real row behind it: ff si fc sl ch cu fs kn st sv, with fs_avg_speed (7th) an empty cell.
    expect(csv('mlb-pitch-arsenals-avg-speed-2025.csv').split('\n').find((l) => l.includes('"673540"'))).toBe('"Senga, Kodai","673540","94.7","88.6","89.6","83.2",,"68.5",,,"79.6",');
    const lord = await readArsenal(replayAt(AFTER_2025), 'Brad Lord');
    if (!('found' in lord) || !lord.found) throw new Error('Lord');
    expect(lord.pitches.find((p) => p.pitchType === 'SV')).toMatchObject({ whiffPct: null, usagePct: 0.1 });
    expect(JSON.stringify(toWire(lord))).toContain('"whiff_pct":null');
  });

  it('an ambiguous name answers both candidates (two Luis Garcias, 2025), never a guess; the MLBAM id picks one', async () => {
    const d = replayAt(AFTER_2025);
    const v = await readArsenal(d, 'Luis Garcia');
    expect(v).toMatchObject({ status: 'ambiguous' });
    if (!('status' in v)) return;
    expect(v.candidates.map((c) => c.mlbamId).sort()).toEqual([472610, 677651]);
    expect(await readArsenal(d, '677651')).toMatchObject({ found: true, pitcher: { mlbamId: 677651, team: 'HOU' } });
  });

  it('an unknown pitcher is {found: false} with did-you-mean names', async () => {
    const v = await readArsenal(replayAt(AFTER_2025), 'Kevin Gausmann');
    expect(v).toMatchObject({ found: false, season: 2025, reason: expect.stringMatching(/no pitcher 'Kevin Gausmann'/), suggestions: [{ name: 'Kevin Gausman' }] });
    expect(await readArsenal(replayAt(AFTER_2025), 'Nobody Atall')).toMatchObject({ found: false, suggestions: [] });
  });

  it('before the exports were recorded (the bundled clock): {found: false} with the reason', async () => {
    const v = await readArsenal(replayAt(new Date('2025-11-05T17:05:00Z')), 'Kevin Gausman');
    expect(v).toMatchObject({ found: false, season: 2025, reason: expect.stringMatching(/not recorded/) });
  });
});

describe('arsenal on the recorded 2022 exports (older format)', () => {
  it('Carlos Rodón: the split name header rebuilt, CUKC joined to its velocity', async () => {
    const v = await readArsenal(replayAt(new Date('2025-11-05T17:05:00Z')), 'Carlos Rodon', { season: 2022 });
    if (!('found' in v) || !v.found) throw new Error('Rodón');
    expect(v.pitcher).toMatchObject({ name: 'Carlos Rodón', mlbamId: 607074, team: 'SF' });
    expect(v.pitches.map((p) => [p.pitchType, p.usagePct, p.velocityMph])).toEqual([
      ['FF', 60.8, 95.7],
      ['SL', 31.6, 85.4],
      ['CUKC', 5.8, 80.1],
    ]);
    expect(v.strikeoutPct).toBe(31.9);
  });
});

describe('arsenal: unknown shapes, upstream errors and the cache (24 h, single flight, stale on error)', () => {
  const NOW = new Date('2026-02-01T12:00:00Z');

  it('an unknown data shape or an upstream error is {found: false}, never a throw', async () => {
    const html = '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>';
    expect(await readArsenal(deps(counting({ stats: 'player,pitch\n1,FF\n' }).t, NOW), 'Kevin Gausman', { season: 2025 })).toMatchObject({ found: false, reason: expect.stringMatching(/unknown columns/) });
    expect(await readArsenal(deps(counting({ speed: html.replace(/></g, '>\n<') }).t, NOW), 'Kevin Gausman', { season: 2025 })).toMatchObject({ found: false });
    expect(await readArsenal(deps(counting({ stats: null }).t, NOW), 'Kevin Gausman', { season: 2025 })).toMatchObject({ found: false, reason: expect.stringMatching(/not recorded/) });
  });

  it('200 concurrent readers make one upstream load; within 24 h no new call; a failed refresh serves the stale value', async () => {
    const { t, calls, setDown } = counting();
    const s = tempStore();
    cleanups.push(s.cleanup);
    const cache = new ContextCache(s.store, () => 0);
    const at = (now: Date): ContextDeps => ({ store: s.store, config: loadConfig({}), cache, providers: { source: 'replay', keyless: t, odds: null, close: async () => {} }, now, log: silentLogger });
    const burst = await Promise.all(Array.from({ length: 200 }, () => readArsenal(at(NOW), 'Kevin Gausman', { season: 2025 })));
    expect(burst.every((v) => 'found' in v && v.found)).toBe(true);
    expect(calls).toHaveLength(2); // one load: both CSVs once
    await readArsenal(at(new Date(NOW.getTime() + 23.9 * 3600_000)), 'Kodai Senga', { season: 2025 });
    expect(calls).toHaveLength(2);
    setDown(true);
    const stale = await readArsenal(at(new Date(NOW.getTime() + 25 * 3600_000)), 'Kevin Gausman', { season: 2025 });
    expect(calls).toHaveLength(4);
    expect(stale).toMatchObject({ found: true, stale: true, ageSeconds: 25 * 3600 });
  });

  it('the default season: the clock’s year from April, else the previous one', () => {
    expect(defaultArsenalSeason(new Date('2026-01-24T00:00:00Z'))).toBe(2025);
    expect(defaultArsenalSeason(new Date('2025-04-01T16:00:00Z'))).toBe(2025);
    expect(defaultArsenalSeason(new Date('2025-03-31T16:00:00Z'))).toBe(2024);
  });
});
