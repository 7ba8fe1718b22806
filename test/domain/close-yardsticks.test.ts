import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { closeBooksOf } from '../../src/domain/close-lead.js';
import { fairOverForBook, type LadderLine } from '../../src/domain/model/market.js';
import { createRecordTally, OUTCOME_CODE } from '../../src/domain/records.js';
import { toAmerican } from '../../src/feeds/odds-api/odds-format.js';

// A real Pinnacle/AU ladder shape (issue 43): books quoting both sides, one over-only (TAB).
const ladder: LadderLine[] = [
  {
    line: 5.5,
    quotes: [
      { book: 'pinnacle', over: -186.22, under: 138 },
      { book: 'neds', over: -175, under: 130 },
      { book: 'bet365_au', over: -180, under: 135 },
      { book: 'tab', over: -170, under: null },
      { book: 'fanduel', over: -190, under: 145 },
    ],
  },
];

describe('closeBooksOf: the books that formed a close, by the rule that formed it', () => {
  it('a consensus names the other two-sided books, sorted, never the locked book or a one-sided one', () => {
    const fair = fairOverForBook(ladder, 5.5, 'fanduel', null);
    expect(fair?.source).toBe('consensus');
    expect(fair?.books).toBe(3);
    expect(closeBooksOf(ladder, 5.5, 'fanduel', fair!)).toBe('bet365_au,neds,pinnacle');
  });
  it("a thin consensus keeps the locked book in; the book's own pair is the locked book alone", () => {
    expect(closeBooksOf(ladder, 5.5, 'fanduel', { source: 'consensus', thin: true })).toBe('bet365_au,fanduel,neds,pinnacle');
    expect(closeBooksOf(ladder, 5.5, 'fanduel', { source: 'book', thin: true })).toBe('fanduel');
  });
});

describe('the record counts the Pinnacle yardstick beside the consensus one', () => {
  it('splits Pinnacle verdicts by their own lead and gates the pooled rate at n >= 20', () => {
    const t = createRecordTally();
    for (let i = 0; i < 25; i++) t.add(3, OUTCOME_CODE.hit, 'faded', 0.5, -110, 10, `g${i}`, i < 15 ? 'beat' : 'faded', 12);
    t.add(3, OUTCOME_CODE.miss, 'beat', 0.5, -110, 200, 'g99', null, null);
    const a = t.aggregate({ from: '2025-06-03', to: '2025-09-18' }, { team: null, player: null, sport: 'mlb' });
    expect(a.beatClosePinnacle.n).toBe(25);
    expect(a.beatClosePinnacle.pct).toBe(60);
    expect(a.beatClosePinnacleByLead.map((b) => [b.band, b.n, b.beat])).toEqual([['within_30m', 25, 15], ['30m_to_3h', 0, 0], ['over_3h', 0, 0]]);
    expect(a.beatCloseByLead.map((b) => [b.band, b.n, b.beat])).toEqual([['within_30m', 25, 0], ['30m_to_3h', 0, 0], ['over_3h', 1, 1]]);
    const c = t.tiers().find((x) => x.grade === 'C');
    expect(c?.beatClosePinnacle.n).toBe(25);
  });
});

describe('the season builder writes each decimal price as the adapter reads a decimal answer', () => {
  it('every distinct price of the Pinnacle/AU file converts as toAmerican(price, decimal) does', async () => {
    const { americanFromDecimal } = (await import(pathToFileURL(path.resolve('scripts/season-replay/mlb-pinnacle-au.mjs')).href)) as { americanFromDecimal: (t: string) => number | null };
    // The raw file's own prices (../shared), not the builder's output.
    const text = execFileSync('sh', ['-c', "zcat ../shared/history/mlb_player_props_pinnacle_au_2025.csv.gz | cut -d, -f17,18 | tr ',' '\\n' | sort -u"], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const prices = text.split('\n').filter((p) => /^[0-9.]+$/.test(p));
    expect(prices.length).toBeGreaterThan(100);
    for (const p of prices) expect(americanFromDecimal(p)).toBe(toAmerican(Number(p), 'decimal'));
    expect(americanFromDecimal('1')).toBeNull();
  });
});
