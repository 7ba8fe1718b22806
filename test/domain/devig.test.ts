import { describe, expect, it } from 'vitest';
import {
  DEFAULT_N_WAY_METHOD,
  DEFAULT_TWO_WAY_METHOD,
  DEVIG_METHODS,
  devig,
  devigDecimal,
  devigMethodSchema,
  devigTwoWay,
  type DevigMethod,
  type DevigResult,
} from '../../src/domain/devig.js';
import { goto as gotoFormula } from '../../src/domain/devig/methods.js';
import { normalCdf, normalQuantile } from '../../src/domain/devig/normal.js';
import { bracketAbove, brentRoot } from '../../src/domain/devig/solve.js';
import { americanToDecimal, fairAmerican } from '../../src/domain/odds.js';

// Reference: ../shared/devig/DEVIG.md (sections cited per block). Tolerance 1e-9 against exact values;
// printed (rounded) anchor values are checked to half their last printed digit.

type Ok = Extract<DevigResult, { ok: true }>;

function ok(result: DevigResult): Ok {
  if (!result.ok) throw new Error(`expected a de-vig, got refusal: ${result.reason}`);
  return result;
}

function expectClose(actual: readonly number[], expected: readonly number[], tol: number): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => {
    expect(Math.abs(a - (expected[i] ?? Number.NaN)), `leg ${i + 1}: ${a} vs ${expected[i]}`).toBeLessThanOrEqual(tol);
  });
}

function expectRefused(result: DevigResult, reason: RegExp): void {
  expect(result.ok).toBe(false);
  expect(result).not.toHaveProperty('probs');
  expect(result).not.toHaveProperty('fairAmerican');
  if (!result.ok) expect(result.reason).toMatch(reason);
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

describe('method names', () => {
  it('offers the required methods plus the cheap extras, and never "logarithmic"', () => {
    for (const m of ['multiplicative', 'additive', 'power', 'shin', 'odds_ratio', 'probit', 'worst_case']) {
      expect(devigMethodSchema.safeParse(m).success).toBe(true);
    }
    expect(DEVIG_METHODS).toEqual(expect.arrayContaining(['wpo', 'balanced_book', 'goto', 'jsd']));
    expect(devigMethodSchema.safeParse('logarithmic').success).toBe(false);
  });

  it('defaults to shin for two-way props and for n-way markets (DEVIG.md §6)', () => {
    expect(DEFAULT_TWO_WAY_METHOD).toBe('shin');
    expect(DEFAULT_N_WAY_METHOD).toBe('shin');
    expect(devigTwoWay(-130, 100).method).toBe('shin');
  });
});

describe('ordering on two-way props (DEVIG.md §2 table, first leg, 4 decimals)', () => {
  const columns: DevigMethod[] = ['multiplicative', 'additive', 'jsd', 'probit', 'odds_ratio', 'power', 'goto', 'balanced_book', 'worst_case'];
  const table: Array<[number, number, number[]]> = [
    [-110, -110, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]],
    [-130, 100, [0.5306, 0.5326, 0.5327, 0.5327, 0.5327, 0.5337, 0.5337, 0.5349, 0.5306]],
    [-250, 190, [0.6744, 0.6847, 0.6851, 0.6853, 0.6855, 0.6904, 0.6908, 0.6963, 0.6744]],
    [120, -150, [0.431, 0.4273, 0.4272, 0.4271, 0.4271, 0.4253, 0.4252, 0.4231, 0.4253]],
    [-1000, 600, [0.8642, 0.8831, 0.8844, 0.8852, 0.8857, 0.8953, 0.8963, 0.9041, 0.8642]],
  ];

  it.each(table)('%d/%d matches every column', (a, b, expected) => {
    columns.forEach((method, j) => {
      const p1 = ok(devig([a, b], method)).probs[0] as number;
      expect(Number(p1.toFixed(4)), `${method} at ${a}/${b}`).toBe(expected[j]);
    });
    // add = shin column
    expect(Number((ok(devig([a, b], 'shin')).probs[0] as number).toFixed(4))).toBe(expected[1]);
  });

  it('runs strictly mult < add = shin < jsd < probit < odds_ratio < power < goto < balanced_book for the favourite', () => {
    for (const [a, b, fav] of [[-130, 100, 0], [-250, 190, 0], [120, -150, 1], [-1000, 600, 0], [900, -3000, 1], [-50000, 4000, 0]] as const) {
      const p = (m: DevigMethod): number => ok(devig([a, b], m)).probs[fav] as number;
      expect(Math.abs(p('additive') - p('shin'))).toBeLessThanOrEqual(1e-15);
      const chain = ['multiplicative', 'additive', 'jsd', 'probit', 'odds_ratio', 'power', 'goto', 'balanced_book'] as const;
      for (let i = 1; i < chain.length; i++) {
        expect(p(chain[i - 1] as DevigMethod), `${chain[i - 1]} < ${chain[i]} at ${a}/${b}`).toBeLessThan(p(chain[i] as DevigMethod));
      }
    }
  });

  it('agrees across every method at -110/-110', () => {
    for (const m of DEVIG_METHODS) expectClose(ok(devig([-110, -110], m)).probs, [0.5, 0.5], 1e-15);
  });

  it('reproduces the quoted gaps: mult vs power 0.3/1.6/3.1 pp, mult vs balanced book 0.4/2.2/4.0 pp', () => {
    const gap = (a: number, b: number, m: DevigMethod): string =>
      (100 * ((ok(devig([a, b], m)).probs[0] as number) - (ok(devig([a, b], 'multiplicative')).probs[0] as number))).toFixed(1);
    expect([gap(-130, 100, 'power'), gap(-250, 190, 'power'), gap(-1000, 600, 'power')]).toEqual(['0.3', '1.6', '3.1']);
    expect([gap(-130, 100, 'balanced_book'), gap(-250, 190, 'balanced_book'), gap(-1000, 600, 'balanced_book')]).toEqual(['0.4', '2.2', '4.0']);
  });
});

describe('penaltyblog 2.7/2.3/4.4 (DEVIG.md §5)', () => {
  const odds = [2.7, 2.3, 4.4];
  // Exact: the defining equations solved at 50 digits (mpmath bisection), independent of this code.
  const exact = {
    power: { probs: [0.35917109985300014, 0.42373075299456394, 0.21709814715243592], k: 1.0309132393159352 },
    shin: { probs: [0.35934391959190941, 0.42324384818311944, 0.21741223222497115], z: 0.016236442856292708 },
    odds_ratio: { probs: [0.35881036212616685, 0.42256142219060052, 0.21862821568323263], c: 1.0511691272931498 },
  };

  it('has overround (margin) 0.0324257063387498, not the docstring 0.1362', () => {
    const r = ok(devigDecimal(odds, 'multiplicative'));
    expect(r.overround).toBeCloseTo(0.03242570633874986, 15);
    expect(r.booksum).toBeCloseTo(1.03242570633874986, 15);
  });

  it('matches the printed notebook values to 8 digits', () => {
    expectClose(ok(devigDecimal(odds, 'multiplicative')).probs, [0.35873804, 0.42112726, 0.2201347], 5e-9);
    expectClose(ok(devigDecimal(odds, 'additive')).probs, [0.3595618, 0.42397404, 0.21646416], 5e-9);
    expectClose(ok(devigDecimal(odds, 'wpo')).probs, [0.3595618, 0.42397404, 0.21646416], 5e-9);
    expectClose(ok(devigDecimal(odds, 'power')).probs, [0.3591711, 0.42373075, 0.21709815], 5e-9);
    expectClose(ok(devigDecimal(odds, 'shin')).probs, [0.35934392, 0.42324385, 0.21741223], 5e-9);
  });

  it('solves power k 1.0309132393, shin z 0.0162364429, odds_ratio c 1.0511691273', () => {
    const power = ok(devigDecimal(odds, 'power'));
    const shin = ok(devigDecimal(odds, 'shin'));
    const or = ok(devigDecimal(odds, 'odds_ratio'));
    expect(Math.abs((power.params?.k ?? 0) - 1.0309132393)).toBeLessThan(5e-11);
    expect(Math.abs((shin.params?.z ?? 0) - 0.0162364429)).toBeLessThan(5e-11);
    expect(Math.abs((or.params?.c ?? 0) - 1.0511691273)).toBeLessThan(5e-11);
    expectClose(power.probs, exact.power.probs, 1e-9);
    expectClose(shin.probs, exact.shin.probs, 1e-9);
    expectClose(or.probs, exact.odds_ratio.probs, 1e-9);
    // The solvers are far tighter than the contract: parameters to 1e-12.
    expect(Math.abs((power.params?.k ?? 0) - exact.power.k)).toBeLessThan(1e-12);
    expect(Math.abs((shin.params?.z ?? 0) - exact.shin.z)).toBeLessThan(1e-12);
    expect(Math.abs((or.params?.c ?? 0) - exact.odds_ratio.c)).toBeLessThan(1e-12);
  });

  it('probit and jsd agree with an independent 40-digit solution', () => {
    const probit = ok(devigDecimal(odds, 'probit'));
    expectClose(probit.probs, [0.35894609516557527, 0.42284699698688537, 0.21820690784753936], 1e-12);
    expect(Math.abs((probit.params?.c ?? 0) - 0.030404689527745851)).toBeLessThan(1e-12);
    const jsd = ok(devigDecimal(odds, 'jsd'));
    expectClose(jsd.probs, [0.35915870813883421, 0.42325480603013208, 0.21758648583103371], 1e-12);
    expect(Math.abs((jsd.params?.D ?? 0) - 0.0082348899140700606)).toBeLessThan(1e-12);
  });
});

describe('mberk/shin vectors (DEVIG.md §5)', () => {
  it('2.6/2.4/4.3 gives z 0.01694251276 and the README probabilities', () => {
    const r = ok(devigDecimal([2.6, 2.4, 4.3], 'shin'));
    expect(Math.abs((r.params?.z ?? 0) - 0.01694251276)).toBeLessThan(5e-12);
    expectClose(r.probs, [0.37299406033208965, 0.4047794109200184, 0.2222265287474275], 1e-9);
  });

  it('1.5/2.74 (two-way closed form) gives z 0.03172728541 and equals additive', () => {
    const shin = ok(devigDecimal([1.5, 2.74], 'shin'));
    expect(Math.abs((shin.params?.z ?? 0) - 0.03172728540646625)).toBeLessThan(1e-15);
    expectClose(shin.probs, [0.6508515815085157, 0.3491484184914841], 1e-15);
    expectClose(shin.probs, ok(devigDecimal([1.5, 2.74], 'additive')).probs, 1e-15);
  });
});

describe('goto_conversion README vectors (DEVIG.md §5)', () => {
  it('1.2/3.4/5.6 matches to the last digit', () => {
    expectClose(ok(devigDecimal([1.2, 3.4, 5.6], 'goto')).probs, [0.7753528189788175, 0.17479473292721065, 0.04985244809397199], 1e-15);
    expectClose(ok(devig([-500, 240, 460], 'goto')).probs, [0.7753528189788175, 0.17479473292721065, 0.04985244809397199], 1e-15);
  });

  it('2/3.4/5.6 is an underround book: the formula matches the README, and the public de-vig gives it flagged', () => {
    const odds = [2, 3.4, 5.6];
    const r = odds.map((o) => 1 / o);
    const raw = gotoFormula({ odds, r, booksum: sum(r) });
    expect('probs' in raw && raw.probs).toBeTruthy();
    if ('probs' in raw) expectClose(raw.probs, [0.5078707717902462, 0.30346951747815437, 0.1886597107315994], 1e-15);
    const out = ok(devigDecimal(odds, 'goto'));
    expect(out.underround).toBe(true);
    expectClose(out.probs, [0.5078707717902462, 0.30346951747815437, 0.1886597107315994], 1e-15);
  });
});

describe('Crazy Ninja Odds devigger help (DEVIG.md §5)', () => {
  it('+900/-3000: +968 multiplicative, +1412 additive and shin, +2192 power', () => {
    const fair = (m: DevigMethod): number => Math.round(ok(devig([900, -3000], m)).fairAmerican[0] as number);
    expect(fair('multiplicative')).toBe(968);
    expect(fair('additive')).toBe(1412);
    expect(fair('shin')).toBe(1412);
    expect(fair('power')).toBe(2192);
  });

  it('-1000/+600 multiplicative is 86.4%', () => {
    expect((ok(devig([-1000, 600], 'multiplicative')).probs[0] as number).toFixed(3)).toBe('0.864');
  });

  it('worst case takes the lowest probability per leg: power for the dog, multiplicative for the favourite', () => {
    const worst = ok(devig([900, -3000], 'worst_case'));
    expect(Math.round(worst.fairAmerican[0] as number)).toBe(2192);
    expect(Math.round(worst.fairAmerican[1] as number)).toBe(Math.round(ok(devig([900, -3000], 'multiplicative')).fairAmerican[1] as number));
  });
});

describe('probit (pyimpliedodds tests, DEVIG.md §5)', () => {
  it('-110/-110 is 0.5/0.5', () => {
    expectClose(ok(devig([-110, -110], 'probit')).probs, [0.5, 0.5], 1e-15);
  });

  it('-50000/+4000 lands in (0.990, 0.995)/(0.005, 0.010), at 0.99234/0.00766', () => {
    const [p1, p2] = ok(devig([-50000, 4000], 'probit')).probs as [number, number];
    expect(p1).toBeGreaterThan(0.99);
    expect(p1).toBeLessThan(0.995);
    expect(p2).toBeGreaterThan(0.005);
    expect(p2).toBeLessThan(0.01);
    // Independent 40-digit value of Φ((Φ⁻¹(r1) - Φ⁻¹(r2))/2).
    expect(Math.abs(p1 - 0.99233839514904063)).toBeLessThan(1e-12);
  });

  it('two-way closed form agrees with an independent 40-digit value at -1000/+600', () => {
    expect(Math.abs((ok(devig([-1000, 600], 'probit')).probs[0] as number) - 0.88519694669760538)).toBeLessThan(1e-12);
  });
});

describe('equivalences (DEVIG.md §2)', () => {
  const twoWay: Array<[number, number]> = [[-110, -110], [-130, 100], [-250, 190], [120, -150], [-1000, 600], [900, -3000], [-50000, 4000], [-105, -115]];

  it('two-way additive == shin == wpo', () => {
    for (const [a, b] of twoWay) {
      const add = ok(devig([a, b], 'additive')).probs;
      expectClose(ok(devig([a, b], 'shin')).probs, add, 1e-15);
      expectClose(ok(devig([a, b], 'wpo')).probs, add, 1e-15);
    }
  });

  it('the two-way Shin z puts Shin’s own formula on the additive answer', () => {
    for (const [a, b] of twoWay) {
      const shin = ok(devig([a, b], 'shin'));
      const z = shin.params?.z as number;
      const r = [a, b].map((x) => 1 / (americanToDecimal(x) as number));
      const fromZ = r.map((ri) => (Math.sqrt(z * z + (4 * (1 - z) * ri * ri) / shin.booksum) - z) / (2 * (1 - z)));
      expectClose(fromZ, shin.probs, 1e-14);
    }
  });

  it('n-way wpo == additive', () => {
    for (const odds of [[2.7, 2.3, 4.4], [4.2, 3.7, 1.95], [4.1, 4.2, 8.2, 2.1]]) {
      expectClose(ok(devigDecimal(odds, 'wpo')).probs, ok(devigDecimal(odds, 'additive')).probs, 1e-15);
    }
  });

  it('two-way closed forms satisfy their defining n-way equations', () => {
    for (const [a, b] of twoWay) {
      const r = [a, b].map((x) => 1 / (americanToDecimal(x) as number));
      const or = ok(devig([a, b], 'odds_ratio'));
      const c = or.params?.c as number;
      expectClose(r.map((ri) => ri / (c + ri - c * ri)), or.probs, 1e-14);
      const probit = ok(devig([a, b], 'probit'));
      const shift = probit.params?.c as number;
      expectClose(r.map((ri) => normalCdf(normalQuantile(ri) - shift)), probit.probs, 1e-14);
      expect(Math.abs(sum(probit.probs) - 1)).toBeLessThan(1e-14);
      const bb = ok(devig([a, b], 'balanced_book'));
      expect(Math.abs((bb.probs[0] as number) - (1 - (r[1] as number)) / (2 - bb.booksum))).toBeLessThan(1e-15);
    }
  });
});

describe('n-way solvers recover known fair probabilities from a book built by the model', () => {
  const fair = [0.5, 0.3, 0.15, 0.05];
  const logit = (p: number): number => Math.log(p / (1 - p));

  it('power: r = p^(1/k)', () => {
    const k = 1.08;
    const result = ok(devigDecimal(fair.map((p) => 1 / p ** (1 / k)), 'power'));
    expectClose(result.probs, fair, 1e-12);
    expect(Math.abs((result.params?.k ?? 0) - k)).toBeLessThan(1e-12);
  });

  it('shin: r_i = s_i·Σs_j with s_i = √(z·p_i + (1-z)·p_i²)', () => {
    const z = 0.03;
    const s = fair.map((p) => Math.sqrt(z * p + (1 - z) * p * p));
    const result = ok(devigDecimal(s.map((si) => 1 / (si * sum(s))), 'shin'));
    expectClose(result.probs, fair, 1e-12);
    expect(Math.abs((result.params?.z ?? 0) - z)).toBeLessThan(1e-12);
  });

  it('odds_ratio: logit r = logit p + ln c', () => {
    const c = 1.15;
    const result = ok(devigDecimal(fair.map((p) => 1 + Math.exp(-(logit(p) + Math.log(c)))), 'odds_ratio'));
    expectClose(result.probs, fair, 1e-12);
    expect(Math.abs((result.params?.c ?? 0) - c)).toBeLessThan(1e-12);
  });

  it('probit: r = Φ(Φ⁻¹(p) + c)', () => {
    const c = 0.07;
    const result = ok(devigDecimal(fair.map((p) => 1 / normalCdf(normalQuantile(p) + c)), 'probit'));
    expectClose(result.probs, fair, 1e-12);
    expect(Math.abs((result.params?.c ?? 0) - c)).toBeLessThan(1e-12);
  });

  it('balanced_book: r = p(1-z) + z; additive: r = p + M/n; multiplicative: r = p·B', () => {
    const z = 0.02;
    expectClose(ok(devigDecimal(fair.map((p) => 1 / (p * (1 - z) + z)), 'balanced_book')).probs, fair, 1e-12);
    expectClose(ok(devigDecimal(fair.map((p) => 1 / (p + 0.06 / 4)), 'additive')).probs, fair, 1e-12);
    expectClose(ok(devigDecimal(fair.map((p) => 1 / (p * 1.06)), 'multiplicative')).probs, fair, 1e-12);
  });

  it('a fair book (booksum exactly 1) comes back unchanged with identity parameters', () => {
    const odds = [2, 4, 4];
    for (const m of DEVIG_METHODS) expectClose(ok(devigDecimal(odds, m)).probs, [0.5, 0.25, 0.25], 1e-15);
    expect(ok(devigDecimal(odds, 'power')).params?.k).toBe(1);
    expect(ok(devigDecimal(odds, 'shin')).params?.z).toBe(0);
    expect(ok(devigDecimal(odds, 'odds_ratio')).params?.c).toBe(1);
    expect(ok(devigDecimal(odds, 'probit')).params?.c).toBe(0);
    expect(ok(devig([100, -100], 'shin')).overround).toBe(0);
  });
});

describe('properties over real-shaped books', () => {
  // R implied's my_odds rows (tests/testthat/test_1.R), the anchors' vectors and two-way props.
  const books: number[][] = [
    [4.2, 3.7, 1.95],
    [2.45, 3.7, 2.9],
    [2.05, 3.2, 3.8],
    [1.595, 3.99, 6.76],
    [1.19, 7.0, 14.0],
    [2.7, 2.3, 4.4],
    [2.6, 2.4, 4.3],
    [4.1, 4.2, 8.2, 2.1],
    [3.8, 4.7, 5.9, 2.3],
    ...[[-110, -110], [-130, 100], [-250, 190], [120, -150], [-1000, 600], [900, -3000], [-50000, 4000]].map((pair) =>
      pair.map((a) => americanToDecimal(a) as number),
    ),
  ];

  it('every method sums to 1 (worst_case to at most 1) with every leg in (0, 1)', () => {
    for (const odds of books) {
      for (const m of DEVIG_METHODS) {
        const r = ok(devigDecimal(odds, m));
        for (const p of r.probs) {
          expect(p).toBeGreaterThan(0);
          expect(p).toBeLessThan(1);
        }
        if (m === 'worst_case') expect(sum(r.probs)).toBeLessThanOrEqual(1 + 1e-15);
        else expect(Math.abs(sum(r.probs) - 1), `${m} on ${odds.join('/')}`).toBeLessThan(1e-12);
      }
    }
  });

  it('reports booksum = Σ1/O, overround = booksum - 1 and fair odds from the formula', () => {
    for (const odds of books) {
      const booksum = sum(odds.map((o) => 1 / o));
      for (const m of DEVIG_METHODS) {
        const r = ok(devigDecimal(odds, m));
        expect(r.method).toBe(m);
        expect(r.booksum).toBeCloseTo(booksum, 15);
        expect(r.overround).toBe(r.booksum - 1);
        expect(r.fairAmerican).toEqual(r.probs.map(fairAmerican));
      }
    }
  });

  it('worst_case is the per-leg minimum of multiplicative, additive, power and shin', () => {
    for (const odds of books) {
      const parts = (['multiplicative', 'additive', 'power', 'shin'] as const).map((m) => ok(devigDecimal(odds, m)).probs);
      const expected = odds.map((_, i) => Math.min(...parts.map((p) => p[i] as number)));
      expect(ok(devigDecimal(odds, 'worst_case')).probs).toEqual(expected);
    }
  });

  it('bracketed solvers never fail on a valid overround book (grid of 3-way American books)', () => {
    const prices = [-2000, -500, -200, -120, 100, 150, 300, 800, 2500];
    let books3 = 0;
    for (const a of prices) {
      for (const b of prices) {
        for (const c of prices) {
          const booksum = [a, b, c].reduce((s, x) => s + 1 / (americanToDecimal(x) as number), 0);
          if (booksum < 1) continue;
          books3++;
          for (const m of ['shin', 'power', 'odds_ratio', 'probit', 'multiplicative'] as const) {
            const r = ok(devig([a, b, c], m));
            expect(Math.abs(sum(r.probs) - 1)).toBeLessThan(1e-12);
          }
        }
      }
    }
    expect(books3).toBeGreaterThan(300);
  });
});

describe('refusals: never a one-sided de-vig, never a number', () => {
  it.each(DEVIG_METHODS)('%s refuses a missing leg, a short book and an invalid price', (m) => {
    expectRefused(devig([-110, null], m), /leg 2 has no price/);
    expectRefused(devig([undefined, -110], m), /leg 1 has no price/);
    expectRefused(devig([-110, -110, null], m), /leg 3 has no price/);
    expectRefused(devig([-110], m), /at least 2 legs, got 1/);
    expectRefused(devig([], m), /at least 2 legs, got 0/);
    expectRefused(devig([-50, -110], m), /leg 1 price -50 is not a valid American price/);
    expectRefused(devig([-110, 99], m), /leg 2 price 99/);
    expectRefused(devig([-110, 0], m), /leg 2 price 0/);
    expectRefused(devig([Number.NaN, -110], m), /leg 1 price NaN/);
    expectRefused(devig([Number.POSITIVE_INFINITY, -110], m), /leg 1 price Infinity/);
    expectRefused(devigDecimal([1, 2], m), /leg 1 price 1 is not a valid decimal price/);
    expectRefused(devigDecimal([2, 0.9], m), /leg 2 price 0.9/);
    expectRefused(devigDecimal([2, null], m), /leg 2 has no price/);
    expectRefused(devigTwoWay(null, -110, m), /the over has no price/);
    expectRefused(devigTwoWay(-110, undefined, m), /the under has no price/);
  });

  it('longshot fields: additive, wpo, balanced_book, goto go negative and refuse; shin, power, odds_ratio, probit do not', () => {
    // R implied's my_odds2 (designed to break additive and wpo) and the vignette's 1.15/5/10/25.
    const myOdds2 = [0.87, 0.2, 0.1, 0.05, 0.02, 0.01].map((r) => 1 / r);
    for (const odds of [myOdds2, [1.15, 5, 10, 25]]) {
      for (const m of ['additive', 'wpo', 'balanced_book', 'goto'] as const) {
        expectRefused(devigDecimal(odds, m), new RegExp(`${m} gives leg \\d probability .*outside \\(0, 1\\)`));
      }
      expectRefused(devigDecimal(odds, 'worst_case'), /worst_case needs additive/);
      for (const m of ['multiplicative', 'shin', 'power', 'odds_ratio', 'probit'] as const) {
        expect(Math.abs(sum(ok(devigDecimal(odds, m)).probs) - 1)).toBeLessThan(1e-12);
      }
    }
    expect(devigDecimal([1.15, 5, 10, 25], 'additive')).toMatchObject({ ok: false, reason: expect.stringMatching(/leg 4/) });
  });

  it('jsd has no answer on my_odds2 (R: "does not work") but works on the vignette book', () => {
    const myOdds2 = [0.87, 0.2, 0.1, 0.05, 0.02, 0.01].map((r) => 1 / r);
    expectRefused(devigDecimal(myOdds2, 'jsd'), /jsd: no shared distance/);
    expect(Math.abs(sum(ok(devigDecimal([1.15, 5, 10, 25], 'jsd')).probs) - 1)).toBeLessThan(1e-12);
  });
});

describe('numerical internals', () => {
  it('Φ matches independent 40-digit values, including the far tail', () => {
    const ref: Array<[number, number]> = [
      [-20, 2.7536241186062337e-89],
      [-8.5, 9.4795348222033184e-18],
      [-5, 2.8665157187919391e-7],
      [-3, 0.0013498980316300945],
      [-1.5, 0.066807201268858066],
      [0.7, 0.75803634777692697],
      [2.2, 0.9860965524865014],
      [4.5, 0.99999660232687527],
    ];
    for (const [x, want] of ref) expect(Math.abs(normalCdf(x) - want) / want, `Φ(${x})`).toBeLessThan(1e-14);
    expect(normalCdf(0)).toBe(0.5);
  });

  it('Φ⁻¹ inverts Φ and matches 40-digit values', () => {
    expect(Math.abs(normalQuantile(0.975) - 1.959963984540054)).toBeLessThan(1e-14);
    expect(Math.abs(normalQuantile(1e-9) - -5.9978070150076869)).toBeLessThan(1e-13);
    expect(Math.abs(normalQuantile(1e-20) - -9.2623400897984076)).toBeLessThan(1e-13);
    for (const p of [1e-12, 1e-6, 0.001, 0.02, 0.3, 0.5, 0.52380952380952381, 0.8, 0.999]) {
      expect(Math.abs(normalCdf(normalQuantile(p)) - p) / Math.min(p, 1 - p)).toBeLessThan(1e-13);
    }
    expect(normalQuantile(0)).toBeNaN();
    expect(normalQuantile(1)).toBeNaN();
  });

  it('Brent finds a bracketed root to machine precision and reports a missing bracket as null', () => {
    expect(Math.abs((brentRoot((x) => x * x - 2, 0, 2) ?? 0) - Math.SQRT2)).toBeLessThan(1e-15);
    expect(brentRoot((x) => x * x + 1, -1, 1)).toBeNull();
    expect(brentRoot((x) => x - 1, 1, 3)).toBe(1);
    expect(bracketAbove((k) => 0.6 ** k + 0.5 ** k - 1, 1, 1)).toBe(2);
    expect(bracketAbove(() => 1, 0, 1, 10)).toBeNull();
  });
});

/**
 * Underround books (booksum < 1), issue 27: every method that defines one raises the legs to sum
 * to 1 and flags it; jsd does not define it and refuses. The expected values were computed
 * independently (plain bisection over each method's own equation, in Python), not by this code.
 */
describe('underround: de-vigged and flagged by every method that defines it', () => {
  const TWO = [2.2, 1.9];
  const THREE = [2, 3.4, 5.6];
  const expected: Record<Exclude<DevigMethod, 'worst_case' | 'jsd'>, { two: number[]; three: number[] }> = {
    multiplicative: { two: [0.4634146341463415, 0.5365853658536586], three: [0.5140388768898487, 0.3023758099352052, 0.183585313174946] },
    additive: { two: [0.4641148325358852, 0.5358851674641149], three: [0.5091036414565826, 0.30322128851540614, 0.18767507002801118] },
    wpo: { two: [0.4641148325358852, 0.5358851674641149], three: [0.5091036414565826, 0.30322128851540614, 0.18767507002801118] },
    balanced_book: { two: [0.46478873239436624, 0.5352112676056339], three: [0.5067357512953368, 0.30362694300518134, 0.18963730569948184] },
    goto: { two: [0.4644522012660228, 0.5355477987339772], three: [0.5078707717902462, 0.30346951747815437, 0.1886597107315994] },
    power: { two: [0.46440716306391944, 0.5355928369360808], three: [0.5092710661618141, 0.3038143492940069, 0.18691458454417917] },
    odds_ratio: { two: [0.4641016151377546, 0.5358983848622454], three: [0.5112227996138569, 0.3035245606260964, 0.18525263976004683] },
    probit: { two: [0.464104449403139, 0.535895550596861], three: [0.5107833478314092, 0.3034994789408229, 0.18571717322776798] },
    shin: { two: [0.4641148325358852, 0.5358851674641149], three: [0.5103157314451439, 0.30300128273053245, 0.18668298582432385] },
  };

  it.each(Object.keys(expected) as Array<keyof typeof expected>)('%s: legs raised to sum to 1, flagged underround, negative overround', (m) => {
    for (const [odds, want] of [
      [TWO, expected[m].two],
      [THREE, expected[m].three],
    ] as const) {
      const out = ok(devigDecimal(odds, m));
      expect(out.underround).toBe(true);
      expect(out.booksum).toBeLessThan(1);
      expect(out.overround).toBeCloseTo(out.booksum - 1, 15);
      expectClose(out.probs, want, 1e-9);
      out.probs.forEach((p, i) => expect(p).toBeGreaterThan(1 / (odds[i] as number)));
    }
  });

  it('the solved parameters sit on the far side of their no-margin value: shin z < 0, power k < 1, odds_ratio c < 1, probit c < 0', () => {
    expect(ok(devigDecimal(THREE, 'shin')).params?.['z']).toBeCloseTo(-0.013616625277290628, 9);
    expect(ok(devigDecimal(THREE, 'power')).params?.['k']).toBeCloseTo(0.9734943409164589, 9);
    expect(ok(devigDecimal(THREE, 'odds_ratio')).params?.['c']).toBeCloseTo(0.956094291481781, 9);
    expect(ok(devigDecimal(THREE, 'probit')).params?.['c']).toBeCloseTo(-0.02703313680168712, 9);
    expect(ok(devigDecimal(TWO, 'shin')).params?.['z']).toBeCloseTo(-0.019136822443335144, 12);
  });

  it('worst_case takes the per-leg minimum of its four, flagged; +110/+110 is 50/50 for every defined method', () => {
    const worst = ok(devigDecimal(THREE, 'worst_case'));
    expect(worst.underround).toBe(true);
    const parts = (['multiplicative', 'additive', 'power', 'shin'] as const).map((m) => expected[m].three);
    expectClose(worst.probs, [0, 1, 2].map((i) => Math.min(...parts.map((p) => p[i] as number))), 1e-9);
    for (const m of DEVIG_METHODS.filter((x) => x !== 'jsd')) {
      const even = ok(devig([110, 110], m));
      expect([even.underround, even.booksum]).toEqual([true, 2 / 2.1]);
      expectClose(even.probs, [0.5, 0.5], 1e-12);
    }
  });

  it('jsd does not define it: a documented refusal, as for any book it cannot price', () => {
    expectRefused(devig([110, 110], 'jsd'), /jsd is not defined for an underround book \(booksum < 1\)/);
    expectRefused(devigDecimal(THREE, 'jsd'), /jsd is not defined for an underround book/);
  });

  it('a book with a margin carries no flag', () => {
    expect(ok(devig([-110, -110], 'shin')).underround).toBeUndefined();
    expect('underround' in ok(devig([-110, -110], 'multiplicative'))).toBe(false);
  });
});
