import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basketballElapsed, compareLive, TRACKING_STATES, liveRead, mlbOffensiveOuts, PACE_MIN_ELAPSED, type LiveRead } from '../../src/domain/live.js';

/**
 * Property tests of the live states (issue 16, "Done when"): a state never reads as a loss before
 * settlement, an over that reached its line is HIT for the rest of the game, NEEDS N equals the
 * real remaining amount, and no clock means no pace.
 */

const halfOrWhole = fc.integer({ min: 0, max: 120 }).chain((n) => fc.constantFrom(n, n + 0.5));
const side = fc.constantFrom('over' as const, 'under' as const);
const elapsed = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
const anyInput = fc.record({ side, line: halfOrWhole, current: fc.option(fc.integer({ min: 0, max: 150 }), { nil: null }), elapsed, final: fc.boolean() });

/** A game's progression of one stat: non-decreasing values at increasing clock shares. */
const progression = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.double({ min: 0, max: 0.2, noNaN: true })), { minLength: 1, maxLength: 40 })
  .map((steps) => {
    let value = 0;
    let t = 0;
    return steps.map(([dv, dt]) => {
      value += dv;
      t = Math.min(1, t + dt);
      return { current: value, elapsed: t };
    });
  });

describe('live states (fast-check)', () => {
  it('never reads as a loss before settlement: only the five tracking states or none', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const r = liveRead(input);
        expect(r.state === null || (TRACKING_STATES as readonly string[]).includes(r.state)).toBe(true);
        expect(r.label ?? '').not.toMatch(/loss|lost|miss|lose|fail/i);
        if (input.current === null) expect(r).toMatchObject({ state: null, label: null, needs: null });
        if (input.side === 'over' && input.current !== null) expect(['HIT', 'ON PACE', 'NEEDS']).toContain(r.state);
        if (input.side === 'under' && input.current !== null) expect(['HOLDS', 'LINE PASSED']).toContain(r.state);
      }),
      { numRuns: 2000 },
    );
  });

  it('an over that reached its line is HIT for the rest of the game', () => {
    fc.assert(
      fc.property(halfOrWhole, progression, fc.boolean(), (line, steps, endsFinal) => {
        let hit = false;
        steps.forEach((s, i) => {
          const final = endsFinal && i === steps.length - 1;
          const r = liveRead({ side: 'over', line, current: s.current, elapsed: s.elapsed, final });
          if (hit) expect(r.state).toBe('HIT');
          if (s.current > line) {
            expect(r.state).toBe('HIT');
            hit = true;
          }
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('NEEDS N is the real remaining amount: the least that makes a winning total', () => {
    fc.assert(
      fc.property(halfOrWhole, fc.integer({ min: 0, max: 150 }), elapsed, fc.boolean(), (line, current, el, final) => {
        fc.pre(current <= line);
        const r = liveRead({ side: 'over', line, current, elapsed: el, final });
        expect(r.needs).not.toBeNull();
        const n = r.needs as number;
        expect(Number.isInteger(n) && n >= 1).toBe(true);
        expect(current + n > line).toBe(true); // enough to win the over
        expect(current + n - 1 > line).toBe(false); // and one less is not
        if (r.state === 'NEEDS') expect(r.label).toBe(`NEEDS ${n}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('no clock in the feed (or too early, or over): no pace state', () => {
    fc.assert(
      fc.property(halfOrWhole, fc.integer({ min: 0, max: 150 }), fc.boolean(), fc.double({ min: 0, max: PACE_MIN_ELAPSED, noNaN: true, maxExcluded: true }), (line, current, final, early) => {
        for (const el of [null, early]) {
          const r = liveRead({ side: 'over', line, current, elapsed: el, final });
          expect(r.state).not.toBe('ON PACE');
          expect(r.paceProjection).toBeNull();
        }
        const done = liveRead({ side: 'over', line, current, elapsed: 1, final: true });
        expect(done.state).not.toBe('ON PACE');
      }),
      { numRuns: 1000 },
    );
  });

  it('ON PACE means the pace projection reaches a winning total', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const r = liveRead(input);
        if (r.state === 'ON PACE') {
          expect(r.paceProjection).not.toBeNull();
          expect((r.paceProjection as number) > input.line).toBe(true);
          expect(input.final).toBe(false);
          expect(input.elapsed as number).toBeGreaterThanOrEqual(PACE_MIN_ELAPSED);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('sorting puts the closest to hitting first and rows without a state last', () => {
    fc.assert(
      fc.property(fc.array(anyInput, { maxLength: 30 }), (inputs) => {
        const rows = inputs.map((input, i) => ({ player: `p${i}`, stat: 'points', read: liveRead(input) }));
        const sorted = [...rows].sort(compareLive);
        const prox = sorted.map((r) => r.read.proximity);
        const firstNull = prox.indexOf(null);
        if (firstNull >= 0) expect(prox.slice(firstNull).every((p) => p === null)).toBe(true);
        const known = prox.filter((p): p is number => p !== null);
        for (let i = 1; i < known.length; i++) expect(known[i - 1]!).toBeGreaterThanOrEqual(known[i]!);
        expect(sorted.every((r: { read: LiveRead }) => r.read.proximity === null || (r.read.proximity >= 0 && r.read.proximity <= 1))).toBe(true);
      }),
    );
  });

  it('game time elapsed stays in [0, 1] and never runs backwards', () => {
    fc.assert(
      fc.property(fc.constantFrom('nba' as const, 'wnba' as const), fc.array(fc.integer({ min: 0, max: 2880 }), { minLength: 2, maxLength: 30 }), (sport, raw) => {
        const q = sport === 'nba' ? 720 : 600;
        const played = raw.map((x) => Math.min(x, 4 * q - 1)).sort((a, b) => a - b);
        const shares = played.map((p) => basketballElapsed(sport, 'in_progress', Math.floor(p / q) + 1, q - (p % q)) as number);
        for (const s of shares) expect(s >= 0 && s <= 1).toBe(true);
        for (let i = 1; i < shares.length; i++) expect(shares[i]!).toBeGreaterThanOrEqual(shares[i - 1]!);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.constantFrom('Top', 'Middle', 'Bottom', 'End'), fc.integer({ min: 0, max: 3 }), (inning, state, outs) => {
        const o = mlbOffensiveOuts({ inning, inningState: state, outs })!;
        expect(o.away).toBeGreaterThanOrEqual(o.home);
        expect(o.away - o.home).toBeLessThanOrEqual(3);
        expect(o.away).toBeLessThanOrEqual(inning * 3);
      }),
    );
  });
});
