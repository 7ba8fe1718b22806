import { describe, expect, it } from 'vitest';
import { MARKET_RULES, consensusOver, impliedMean, mainLineOf, overProbability, priceLadder, type LadderLine } from '../../../src/domain/model/market.js';
import { FITTED_PARAMS, letterForEv, marketDispersionFor } from '../../../src/domain/model/index.js';
import { storedMarketPricing } from '../../../src/domain/slate.js';

/** Implied probability and the multiplicative no-vig P(over) of a pair, by hand. */
const r = (a: number) => (a < 0 ? -a / (-a + 100) : 100 / (a + 100));
const mult = (o: number, u: number) => r(o) / (r(o) + r(u));
const dec = (a: number) => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);

// Pascal Siakam points, 2025-11-05 noon (data/replay, IND v BKN): the 26.5 main line as six books quoted it.
const MAIN: LadderLine = {
  line: 26.5,
  quotes: [
    { book: 'betmgm', over: -115, under: -115 },
    { book: 'betonlineag', over: -112, under: -108 },
    { book: 'betrivers', over: 102, under: -136 },
    { book: 'draftkings', over: -118, under: -108 },
    { book: 'fanatics', over: -120, under: -110 },
    { book: 'fanduel', over: -114, under: -114 },
  ],
};
const POINTS = marketDispersionFor(FITTED_PARAMS, 'nba', 'points');

describe('consensus fair probability', () => {
  it('never names a main line "implied": with three books, each is judged by a thin consensus of all three', () => {
    // A three-book main line (the WNBA morning market): the others are two (thin), and the implied
    // ladder is solved from this very line, so the fair is the all-books consensus and says so.
    const three: LadderLine = { line: 26.5, quotes: MAIN.quotes.slice(0, 3) };
    const alt: LadderLine = { line: 24.5, quotes: [{ book: 'betmgm', over: -150, under: 120 }] };
    const rows = priceLadder([three, alt], POINTS);
    const main = rows.filter((x) => x.isMainLine);
    expect(main.length).toBe(2);
    for (const row of main) {
      expect(row).toMatchObject({ fairSource: 'consensus', thinConsensus: true, consensusBooks: 3 });
      const all = consensusOver(three.quotes)?.pOver as number;
      expect(row.fairProb).toBeCloseTo(row.side === 'over' ? all : 1 - all, 12);
    }
    // The alt rung is still priced from the main line.
    expect(rows.filter((x) => !x.isMainLine).every((x) => x.fairSource === 'market_implied')).toBe(true);
  });

  it('is the mean multiplicative no-vig P(over) of the books quoting both sides, leaving the graded book out', () => {
    const all = consensusOver(MAIN.quotes);
    expect(all?.books).toBe(6);
    expect(all?.pOver).toBeCloseTo(MAIN.quotes.reduce((s, q) => s + mult(q.over as number, q.under as number), 0) / 6, 12);
    const others = consensusOver(MAIN.quotes, 'betrivers');
    expect(others?.books).toBe(5);
    expect(others?.pOver).toBeCloseTo(MAIN.quotes.filter((q) => q.book !== 'betrivers').reduce((s, q) => s + mult(q.over as number, q.under as number), 0) / 5, 12);
    expect(consensusOver([{ book: 'x', over: -110, under: null }])).toBeNull();
  });

  it('prices each side at the best price and judges it against the other books', () => {
    const rows = priceLadder([MAIN], POINTS);
    const over = rows.find((x) => x.side === 'over');
    expect(over).toMatchObject({ book: 'betrivers', bookOdds: 102, fairSource: 'consensus', consensusBooks: 5, thinConsensus: false, isMainLine: true, outlierPrice: false });
    const fairOver = consensusOver(MAIN.quotes, 'betrivers')?.pOver as number;
    expect(over?.fairProb).toBeCloseTo(fairOver, 12);
    // +102 against the others' 0.505 fair: +2.0% EV, an A claim at the A floor.
    expect(100 * (fairOver * dec(102) - 1)).toBeCloseTo(2.0, 1);
    expect(letterForEv(100 * (fairOver * dec(102) - 1))).toBe('A');
    const under = rows.find((x) => x.side === 'under');
    expect(under).toMatchObject({ bookOdds: -108, fairSource: 'consensus', consensusBooks: 5 });
  });
});

describe('Siakam-style outlier: one book at +200 where the others are near even', () => {
  const line: LadderLine = { line: 26.5, quotes: [...MAIN.quotes.filter((q) => q.book !== 'betrivers'), { book: 'bovada', over: -280, under: 200 }] };

  it('sets the +200 aside and grades the under at the best credible price', () => {
    const under = priceLadder([line], POINTS).find((x) => x.side === 'under');
    const fair = 1 - (consensusOver(line.quotes, 'bovada')?.pOver as number);
    expect(fair - 1 / dec(200)).toBeGreaterThan(MARKET_RULES.outlierProbGap);
    expect(under).toMatchObject({ outlierPrice: true, gradedAtOutlier: false, outlier: { book: 'bovada', price: 200 } });
    expect(under?.book).not.toBe('bovada');
    expect(under?.bookOdds).toBe(-108);
  });

  it('never gives an A to a row whose only price is the outlier', () => {
    // A rung only bovada quotes: +200 on the under where the main line implies about even money.
    const rung: LadderLine = { line: 27.5, quotes: [{ book: 'bovada', over: -280, under: 200 }] };
    const rows = priceLadder([MAIN, rung], POINTS).filter((x) => x.line === 27.5);
    const under = rows.find((x) => x.side === 'under');
    expect(under).toMatchObject({ fairSource: 'market_implied', outlierPrice: true, gradedAtOutlier: true, book: 'bovada', bookOdds: 200 });
    const stored = storedMarketPricing({ ...(under as NonNullable<typeof under>), outlierBook: 'bovada', devigMethod: 'multiplicative' });
    expect(stored?.gradedAtOutlier).toBe(true);
  });
});

describe('market-implied ladder', () => {
  it('solves the mean that reproduces the main line consensus, then prices every rung from it', () => {
    const anchor = consensusOver(MAIN.quotes)?.pOver as number;
    const mu = impliedMean(26.5, anchor, POINTS as NonNullable<typeof POINTS>) as number;
    expect(overProbability(mu, POINTS as NonNullable<typeof POINTS>, 26.5)).toBeCloseTo(anchor, 9);
    const rung: LadderLine = { line: 22.5, quotes: [{ book: 'bovada', over: -275, under: 200 }] };
    const rows = priceLadder([MAIN, rung], POINTS).filter((x) => x.line === 22.5);
    const over = rows.find((x) => x.side === 'over');
    expect(over).toMatchObject({ fairSource: 'market_implied', consensusBooks: 6, isMainLine: false });
    expect(over?.fairProb).toBeCloseTo(overProbability(mu, POINTS as NonNullable<typeof POINTS>, 22.5), 12);
    // A lower line is likelier to go over.
    expect(over?.fairProb).toBeGreaterThan(anchor);
  });

  it('without a fitted dispersion a rung falls back to a thin consensus, then to the book itself', () => {
    const rung: LadderLine = { line: 22.5, quotes: [{ book: 'bovada', over: -275, under: 200 }, { book: 'betrivers', over: -250, under: 180 }] };
    const thin = priceLadder([MAIN, rung], null).find((x) => x.line === 22.5 && x.side === 'over');
    expect(thin).toMatchObject({ fairSource: 'consensus', thinConsensus: true, consensusBooks: 2 });
    expect(thin?.fairProb).toBeCloseTo((mult(-275, 200) + mult(-250, 180)) / 2, 12);
    const alone = priceLadder([{ line: 22.5, quotes: [{ book: 'bovada', over: -275, under: 200 }] }], null);
    expect(alone.find((x) => x.side === 'over')).toMatchObject({ fairSource: 'book', consensusBooks: 1, thinConsensus: true });
  });

  it('the main line is the line most books quote on both sides; one-sided quotes price nothing', () => {
    const oneSided: LadderLine = { line: 25.5, quotes: [{ book: 'a', over: -110, under: null }, { book: 'b', over: -105, under: null }] };
    expect(mainLineOf([oneSided, MAIN])?.line).toBe(26.5);
    expect(priceLadder([oneSided], POINTS)).toEqual([]);
  });
});

describe('multiplicativeOver is devigTwoWay multiplicative, to the bit (underround pairs left out)', () => {
  it('on real, edge and invalid price pairs', async () => {
    const { multiplicativeOver } = await import('../../../src/domain/model/market.js');
    const { devigTwoWay } = await import('../../../src/domain/devig.js');
    const { seededRandom } = await import('../../../src/domain/model/resample.js');
    const rand = seededRandom(18);
    const edge = [100, -100, 101, -101, 99, -99, 0, 1e6, -1e6, 1e-9, Number.NaN, Number.POSITIVE_INFINITY, -110, -120, 150, 5000, -5000, 250, -250.5, 133.33];
    const pairs: Array<[number, number]> = [];
    for (const a of edge) for (const b of edge) pairs.push([a, b]);
    for (let i = 0; i < 20_000; i++) {
      const price = () => {
        const x = rand();
        if (x < 0.05) return edge[Math.floor(rand() * edge.length)] as number;
        const v = Math.round(100 + rand() * 900 * (rand() < 0.2 ? 10 : 1));
        return rand() < 0.5 ? v : -v;
      };
      pairs.push([price(), price()]);
    }
    let compared = 0;
    for (const [o, u] of pairs) {
      const dv = devigTwoWay(o, u, 'multiplicative');
      // The consensus leaves underround pairs out (devig flags them, market.ts keeps its rule).
      const want = dv.ok && !dv.underround ? (dv.probs[0] ?? null) : null;
      const got = multiplicativeOver(o, u);
      if (!Object.is(got, want)) expect({ o, u, got }).toEqual({ o, u, got: want });
      compared += 1;
    }
    expect(compared).toBe(pairs.length);
    // The consensus rule on an underround pair (+110/+110, booksum 0.952): devig de-vigs it, flagged; the consensus leaves it out.
    expect(devigTwoWay(110, 110, 'multiplicative')).toMatchObject({ ok: true, underround: true, probs: [0.5, 0.5] });
    expect(multiplicativeOver(110, 110)).toBeNull();
  });
});
