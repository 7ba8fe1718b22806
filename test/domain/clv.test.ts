import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import fc from 'fast-check';
import { computeClv, FLAT_PCT, type ClvInput } from '../../src/domain/clv.js';
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

/** Multiplicative no-vig probability of one side of one book's pair (the consensus de-vig). */
function pairProb(q: Quote, side: 'over' | 'under'): number | null {
  const r = devigTwoWay(q.over, q.under, 'multiplicative');
  return r.ok ? (r.probs[side === 'over' ? 0 : 1] ?? null) : null;
}

/** The other books' consensus for the side at `line`: the mean no-vig probability of every other book quoting both sides of it. */
function othersConsensus(snap: ReturnType<typeof quotes>, book: string, market: string, player: string, line: number, side: 'over' | 'under'): { prob: number; books: number } | null {
  const probs: number[] = [];
  for (const [key, q] of snap.map) {
    const [b, m, p] = key.split('|');
    if (b === book || m !== market || p !== player || q.line !== line) continue;
    const prob = pairProb(q, side);
    if (prob !== null) probs.push(prob);
  }
  return probs.length === 0 ? null : { prob: probs.reduce((a, x) => a + x, 0) / probs.length, books: probs.length };
}

/** A claim locked at the 11:25Z snapshot at `book`'s price, its close the other books' consensus at 23:20Z at the same line. */
function realEntry(book: string, market: string, player: string, side: 'over' | 'under'): ClvInput & { books: number } {
  const key = `${book}|${market}|${player}`;
  const lock = locked.map.get(key);
  if (!lock) throw new Error(`no locked quote ${key}`);
  const atLock = othersConsensus(locked, book, market, player, lock.line, side);
  const atClose = othersConsensus(closing, book, market, player, lock.line, side);
  return {
    side,
    line: lock.line,
    lockedPrice: side === 'over' ? lock.over : lock.under,
    lockedFairProb: atLock?.prob ?? null,
    commenceTime: locked.commenceTime,
    closingLine: atClose ? lock.line : null,
    closingFairProb: atClose?.prob ?? null,
    closingCapturedAt: atClose ? closing.capturedAt : null,
    books: Math.min(atLock?.books ?? 0, atClose?.books ?? 0),
  };
}

describe('computeClv on a real WNBA close, one yardstick (Mystics @ Dream, 2024-06-11, tip 23:30Z, close 23:20Z)', () => {
  it('uses the close captured 10 minutes before the tip', () => {
    expect(closing.capturedAt).toBe('2024-06-11T23:20:38Z');
    expect(closing.commenceTime).toBe('2024-06-11T23:30:00Z');
  });

  it('FanDuel Rhyne Howard points 14.5 over at +100: the others\' consensus moved toward the over, so the locked price beat the close', () => {
    const over = realEntry('fanduel', 'player_points', 'Rhyne Howard', 'over');
    expect(over.line).toBe(14.5);
    expect(over.lockedPrice).toBe(100);
    const o = computeClv(over);
    expect(o.clv).toBeCloseTo((over.closingFairProb ?? 0) - (over.lockedFairProb ?? 0), 12);
    expect(o.clv).toBeGreaterThan(0);
    // The locked +100 (decimal 2.0) at the closing consensus: 100 x (p x 2 - 1).
    expect(o.clvPct).toBeCloseTo(100 * ((over.closingFairProb ?? 0) * 2 - 1), 12);
    expect(o).toMatchObject({ clvLine: 0, verdict: (o.clvPct ?? 0) > FLAT_PCT ? 'beat' : (o.clvPct ?? 0) < -FLAT_PCT ? 'faded' : 'flat' });
  });

  it('every real same-line claim: clv is the consensus move, clv_pct the locked price at the closing consensus, the verdict its sign', () => {
    let checked = 0;
    for (const key of locked.map.keys()) {
      const [book = '', market = '', player = ''] = key.split('|');
      for (const side of ['over', 'under'] as const) {
        const e = realEntry(book, market, player, side);
        if (e.closingFairProb === null || e.lockedFairProb === null || e.lockedPrice === null) continue;
        const r = computeClv(e);
        const decimal = americanToDecimal(e.lockedPrice) ?? 0;
        expect(r.clv).toBeCloseTo(e.closingFairProb - e.lockedFairProb, 12);
        expect(r.clvPct).toBeCloseTo(100 * (e.closingFairProb * decimal - 1), 10);
        const pct = r.clvPct ?? 0;
        expect(r.verdict).toBe(Math.abs(pct) < FLAT_PCT ? 'flat' : pct > 0 ? 'beat' : 'faded');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  it('no other book at the locked line at the close: no close, everything null', () => {
    const e = realEntry('betrivers', 'player_points', 'Aaliyah Edwards', 'over');
    expect(e.lockedFairProb).not.toBeNull();
    if (e.closingCapturedAt === null) expect(computeClv(e)).toEqual({ clv: null, clvPct: null, clvLine: null, verdict: null });
  });
});

describe('computeClv rules', () => {
  const base: ClvInput = {
    side: 'over',
    line: 5.5,
    lockedPrice: 100,
    lockedFairProb: 0.5,
    commenceTime: '2025-06-04T23:05:00Z',
    closingLine: 5.5,
    closingFairProb: 0.52,
    closingCapturedAt: '2025-06-04T23:00:00Z',
  };

  it('flat inside half a percent of the locked price\'s EV at the close, beat/faded at or beyond it', () => {
    // +100 is decimal 2: clv_pct = 100 x (2p - 1).
    expect(computeClv({ ...base, closingFairProb: 0.5024 }).verdict).toBe('flat');
    expect(computeClv({ ...base, closingFairProb: 0.4976 }).verdict).toBe('flat');
    expect(computeClv({ ...base, closingFairProb: 0.503 }).verdict).toBe('beat');
    expect(computeClv({ ...base, closingFairProb: 0.497 }).verdict).toBe('faded');
  });

  it('a price with no edge at the lock that the market did not move reads faded: the vig is not beaten', () => {
    // -110 at a 50% fair: EV -4.5% at the lock and at the close.
    const r = computeClv({ ...base, lockedPrice: -110, closingFairProb: 0.5 });
    expect(r.clv).toBe(0);
    expect(r.clvPct).toBeCloseTo(100 * (0.5 * (1 + 100 / 110) - 1), 12);
    expect(r.verdict).toBe('faded');
  });

  it('a close captured at or after the start is not a close', () => {
    expect(computeClv({ ...base, closingCapturedAt: base.commenceTime })).toEqual({ clv: null, clvPct: null, clvLine: null, verdict: null });
    expect(computeClv({ ...base, closingCapturedAt: '2025-06-05T01:00:00Z' }).verdict).toBeNull();
  });

  it('without a closing fair there is no verdict; without a locked fair, clv_pct still reads the locked price at the close', () => {
    expect(computeClv({ ...base, closingFairProb: null })).toEqual({ clv: null, clvPct: null, clvLine: 0, verdict: null });
    expect(computeClv({ ...base, lockedFairProb: null })).toMatchObject({ clv: null, clvLine: 0, verdict: 'beat' });
  });

  it('a close only at another line: the line move carries the verdict, no price figure', () => {
    expect(computeClv({ ...base, closingLine: 6.5 })).toEqual({ clv: null, clvPct: null, clvLine: 1, verdict: 'beat' });
    expect(computeClv({ ...base, side: 'under', closingLine: 6.5 })).toEqual({ clv: null, clvPct: null, clvLine: -1, verdict: 'faded' });
  });

  it('no closing line at all is no close', () => {
    expect(computeClv({ ...base, closingLine: null })).toEqual({ clv: null, clvPct: null, clvLine: null, verdict: null });
  });
});

describe('computeClv holds to its definition for any prices (property)', () => {
  const american = fc.oneof(fc.integer({ min: 100, max: 2000 }), fc.integer({ min: -2000, max: -100 }));
  const prob = fc.double({ min: 0.001, max: 0.999, noNaN: true });
  it('clv_pct = 100 x (closing fair x decimal(locked price) - 1), clv = closing - locked, the verdict follows clv_pct', () => {
    fc.assert(
      fc.property(american, prob, prob, fc.constantFrom('over', 'under') as fc.Arbitrary<'over' | 'under'>, (price, lockedFair, closingFair, side) => {
        const r = computeClv({ ...{ line: 2.5, commenceTime: '2025-06-04T23:05:00Z', closingCapturedAt: '2025-06-04T23:00:00Z' }, side, lockedPrice: price, lockedFairProb: lockedFair, closingLine: 2.5, closingFairProb: closingFair });
        const decimal = price > 0 ? 1 + price / 100 : 1 + 100 / -price;
        expect(r.clvPct).toBe(100 * (closingFair * decimal - 1));
        expect(r.clv).toBe(closingFair - lockedFair);
        const pct = r.clvPct as number;
        expect(r.verdict).toBe(Math.abs(pct) < FLAT_PCT ? 'flat' : pct > 0 ? 'beat' : 'faded');
      }),
    );
  });
});
