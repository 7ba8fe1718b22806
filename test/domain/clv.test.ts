import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { computeClv, FLAT_THRESHOLD, type ClvInput } from '../../src/domain/clv.js';
import { devigTwoWay } from '../../src/domain/devig.js';
import { americanToDecimal } from '../../src/domain/odds.js';
import { readJson } from '../fixtures/ledger/real-ledger.js';

/** Just the parts of an Odds API historical event-odds payload this test reads. */
const snapshotSchema = z.object({
  timestamp: z.string(),
  data: z.object({
    commence_time: z.string(),
    bookmakers: z.array(
      z.object({
        key: z.string(),
        markets: z.array(
          z.object({
            key: z.string(),
            outcomes: z.array(z.object({ name: z.string(), description: z.string(), price: z.number(), point: z.number() })),
          }),
        ),
      }),
    ),
  }),
});

type Quote = { line: number; over: number | null; under: number | null };

function quotes(file: string) {
  const snap = snapshotSchema.parse(readJson(file));
  const map = new Map<string, Quote>();
  for (const b of snap.data.bookmakers) {
    for (const m of b.markets) {
      for (const o of m.outcomes) {
        const key = `${b.key}|${m.key}|${o.description}`;
        const q = map.get(key) ?? { line: o.point, over: null, under: null };
        if (o.name === 'Over') q.over = o.price;
        if (o.name === 'Under') q.under = o.price;
        map.set(key, q);
      }
    }
  }
  return { capturedAt: snap.timestamp, commenceTime: snap.data.commence_time, map };
}

const locked = quotes('wnba-historical-event-odds-player-props-2024-06-11T1125Z.json');
const closing = quotes('wnba-historical-event-odds-player-props-2024-06-11T2320Z-closing.json');

function fairProb(q: Quote, side: 'over' | 'under'): number | null {
  const r = devigTwoWay(q.over, q.under);
  return r.ok ? (r.probs[side === 'over' ? 0 : 1] ?? null) : null;
}

/** A ledger entry locked at the 11:25Z snapshot with the 23:20Z snapshot as its close (when the book still quoted it). */
function realEntry(book: string, market: string, player: string, side: 'over' | 'under'): ClvInput {
  const key = `${book}|${market}|${player}`;
  const lock = locked.map.get(key);
  if (!lock) throw new Error(`no locked quote ${key}`);
  const close = closing.map.get(key);
  return {
    side,
    line: lock.line,
    lockedFairProb: fairProb(lock, side),
    commenceTime: locked.commenceTime,
    closingLine: close?.line ?? null,
    closingFairProb: close ? fairProb(close, side) : null,
    closingCapturedAt: close ? closing.capturedAt : null,
  };
}

describe('computeClv on a real WNBA close (Mystics @ Dream, 2024-06-11, tip 23:30Z, close 23:20Z)', () => {
  it('uses the close captured 10 minutes before the tip', () => {
    expect(closing.capturedAt).toBe('2024-06-11T23:20:38Z');
    expect(closing.commenceTime).toBe('2024-06-11T23:30:00Z');
  });

  it('same line, price shortened on the over (FanDuel Rhyne Howard points 14.5: +100/-130 -> -120/-110): over beat, under faded', () => {
    const over = realEntry('fanduel', 'player_points', 'Rhyne Howard', 'over');
    const under = realEntry('fanduel', 'player_points', 'Rhyne Howard', 'under');
    expect(over.line).toBe(14.5);
    expect(over.closingLine).toBe(14.5);
    const o = computeClv(over);
    const u = computeClv(under);
    expect(o.clv).toBeCloseTo((over.closingFairProb ?? 0) - (over.lockedFairProb ?? 0), 12);
    // About four points of fair probability (multiplicative de-vig: 0.469 -> 0.510).
    expect(o.clv).toBeGreaterThan(0.04);
    expect(o.clv).toBeLessThan(0.05);
    expect(o).toMatchObject({ clvLine: 0, verdict: 'beat' });
    expect(u.clv).toBeCloseTo(-(o.clv ?? 0), 12);
    expect(u).toMatchObject({ clvLine: 0, verdict: 'faded' });
    // The spec's "locked minus closing" in price terms: the locked over price (+100, decimal 2.0)
    // is longer than the close (-120, decimal 1.83), and that positive difference is a beat.
    const lockedDecimal = americanToDecimal(100) ?? 0;
    const closingDecimal = americanToDecimal(-120) ?? 0;
    expect(Math.sign(lockedDecimal - closingDecimal)).toBe(Math.sign(o.clv ?? 0));
  });

  it('unchanged prices are flat with clv exactly 0 (DraftKings Allisha Gray points 15.5, -120/-110 both times)', () => {
    const e = realEntry('draftkings', 'player_points', 'Allisha Gray', 'over');
    expect(computeClv(e)).toEqual({ clv: 0, clvLine: 0, verdict: 'flat' });
  });

  it('line moved up 12.5 -> 13.5 (BetRivers Tina Charles points): over beat by +1, under faded by -1, no probability clv', () => {
    expect(computeClv(realEntry('betrivers', 'player_points', 'Tina Charles', 'over'))).toEqual({ clv: null, clvLine: 1, verdict: 'beat' });
    expect(computeClv(realEntry('betrivers', 'player_points', 'Tina Charles', 'under'))).toEqual({ clv: null, clvLine: -1, verdict: 'faded' });
  });

  it('line moved down 4.5 -> 3.5 (BetRivers Ariel Atkins rebounds): over faded, under beat', () => {
    expect(computeClv(realEntry('betrivers', 'player_rebounds', 'Ariel Atkins', 'over'))).toEqual({ clv: null, clvLine: -1, verdict: 'faded' });
    expect(computeClv(realEntry('betrivers', 'player_rebounds', 'Ariel Atkins', 'under'))).toEqual({ clv: null, clvLine: 1, verdict: 'beat' });
  });

  it('no close captured (BetRivers pulled Aaliyah Edwards points before the tip): everything null', () => {
    const e = realEntry('betrivers', 'player_points', 'Aaliyah Edwards', 'over');
    expect(e.closingCapturedAt).toBeNull();
    expect(e.lockedFairProb).not.toBeNull();
    expect(computeClv(e)).toEqual({ clv: null, clvLine: null, verdict: null });
  });

  it('every same-line real pair gets a verdict consistent with the flat threshold, and sides mirror', () => {
    let checked = 0;
    for (const [key, lock] of locked.map) {
      const close = closing.map.get(key);
      if (!close || close.line !== lock.line || lock.over === null || lock.under === null) continue;
      const [book = '', market = '', player = ''] = key.split('|');
      const o = computeClv(realEntry(book, market, player, 'over'));
      const u = computeClv(realEntry(book, market, player, 'under'));
      expect(o.clv).not.toBeNull();
      // Two-way de-vig: the under's probability is 1 - the over's, so the clvs are exact mirrors.
      expect((o.clv ?? 0) + (u.clv ?? 0)).toBeCloseTo(0, 12);
      const expected = Math.abs(o.clv ?? 0) < FLAT_THRESHOLD ? 'flat' : (o.clv ?? 0) > 0 ? 'beat' : 'faded';
      expect(o.verdict).toBe(expected);
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });
});

describe('computeClv rules', () => {
  const base: ClvInput = {
    side: 'over',
    line: 5.5,
    lockedFairProb: 0.5,
    commenceTime: '2025-06-04T23:05:00Z',
    closingLine: 5.5,
    closingFairProb: 0.52,
    closingCapturedAt: '2025-06-04T23:00:00Z',
  };

  it('flat below half a point of probability, beat/faded at or beyond it', () => {
    expect(computeClv({ ...base, closingFairProb: 0.5049 }).verdict).toBe('flat');
    expect(computeClv({ ...base, closingFairProb: 0.4951 }).verdict).toBe('flat');
    expect(computeClv({ ...base, closingFairProb: 0.506 }).verdict).toBe('beat');
    expect(computeClv({ ...base, closingFairProb: 0.494 }).verdict).toBe('faded');
  });

  it('an under uses its own side probability: a rise is a beat', () => {
    expect(computeClv({ ...base, side: 'under', lockedFairProb: 0.45, closingFairProb: 0.48 })).toMatchObject({ verdict: 'beat' });
    expect(computeClv({ ...base, side: 'under', lockedFairProb: 0.45, closingFairProb: 0.48 }).clv).toBeCloseTo(0.03, 12);
  });

  it('a close captured at or after the start is not a close', () => {
    expect(computeClv({ ...base, closingCapturedAt: base.commenceTime })).toEqual({ clv: null, clvLine: null, verdict: null });
    expect(computeClv({ ...base, closingCapturedAt: '2025-06-05T01:00:00Z' }).verdict).toBeNull();
  });

  it('a close at the locked line without a fair probability on either end gives no verdict', () => {
    expect(computeClv({ ...base, closingFairProb: null })).toEqual({ clv: null, clvLine: 0, verdict: null });
    expect(computeClv({ ...base, lockedFairProb: null })).toEqual({ clv: null, clvLine: 0, verdict: null });
  });

  it('no closing line at all is no close', () => {
    expect(computeClv({ ...base, closingLine: null })).toEqual({ clv: null, clvLine: null, verdict: null });
  });
});
