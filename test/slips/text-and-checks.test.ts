import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { checkLine, payoutMatches, statForMarketLabel } from '../../src/slips/checks.js';
import { absent } from '../../src/slips/fields.js';
import { checkImage, sniffImage, UPLOAD_CAP_BYTES } from '../../src/slips/image.js';
import { parseSlipText } from '../../src/slips/parse.js';
import { NO_GRADER_REASON, readSlipText, type GradeLeg } from '../../src/slips/reader.js';
import { rowsFromWords } from '../../src/slips/rows.js';
import type { Field } from '../../src/slips/schema.js';
import { readLine, readMoney, readOdds } from '../../src/slips/text.js';
import { FIXTURES } from './score.js';

const text = (name: string) => readFileSync(join(FIXTURES, 'text', name), 'utf8');
const lineField = (value: number, raw: string): Field<number> => ({ ...absent<number>(), value, raw, confidence: 0.95 });

describe('pasted text goes through the same parsers', () => {
  it('FanDuel straight: a gradeable NBA points leg, payout cross-checked with the leg price', () => {
    const r = parseSlipText(text('fanduel_straight_points.txt'));
    expect(r.book.value).toBe('fanduel');
    const bet = r.bets[0]!;
    const leg = bet.legs[0]!;
    expect([leg.player.value, leg.stat.value, leg.line.value, leg.side.value, leg.price.value]).toEqual([
      'Ausar Thompson',
      'points',
      10.5,
      'under',
      -120,
    ]);
    expect([bet.stake.value, bet.payout.value, bet.betId.value]).toEqual([1.23, 2.26, 'O/0242888/0028018']);
    expect(r.needsReview).toBe(false);
    expect(leg.gradeable).toBe(true);
  });

  it('DraftKings My Bets: `3+` over `Marcus Smart Three Pointers Made` is threes over 2.5 at +700', () => {
    const r = parseSlipText(text('draftkings_mybets_threes.txt'));
    expect(r.book.value).toBe('draftkings');
    const bet = r.bets[0]!;
    const leg = bet.legs[0]!;
    expect([leg.player.value, leg.stat.value, leg.line.value, leg.side.value, leg.price.value]).toEqual(['Marcus Smart', 'threes', 2.5, 'over', 700]);
    expect([bet.stake.value, bet.payout.value, bet.betId.value]).toEqual([3, 24, 'DK639010189651938159']);
    expect(r.needsReview).toBe(false);
  });

  it('Hard Rock share card: whole-dollar amounts pass only because $20 at +190 pays $58', () => {
    const r = parseSlipText(text('hardrock_share_sgp.txt'));
    const bet = r.bets[0]!;
    expect(bet.legs).toHaveLength(4);
    expect(bet.legs.map((l) => l.player.value)).toEqual(['Michael Penix Jr.', 'Bijan Robinson', 'Justin Jefferson', 'Justin Jefferson']);
    expect([bet.stake.value, bet.payout.value, bet.stake.needsReview, bet.payout.needsReview]).toEqual([20, 58, false, false]);
    const changed = parseSlipText(text('hardrock_share_sgp.txt').replace('$58', '$85'));
    expect(changed.bets[0]!.payout.needsReview).toBe(true);
  });

  it('PrizePicks: the side is always needs_review, never inferred; a short leg count is reported', () => {
    const r = parseSlipText(text('prizepicks_transcript.txt'));
    expect(r.book.value).toBe('prizepicks');
    const bet = r.bets[0]!;
    const leg = bet.legs[0]!;
    expect([leg.player.value, leg.stat.value, leg.line.value]).toEqual(['Bam Adebayo', 'rebounds', 10]);
    expect(leg.side).toMatchObject({ value: null, needsReview: true });
    expect(leg.gradeable).toBe(false);
    expect(bet.headerLegCount).toBe(4);
    expect(bet.needsReview).toBe(true);
    expect(r.warnings.join()).toMatch(/header says 4 legs but 1 was read/);
  });

  it('unknown text: no book, no legs, needs_review, nothing invented', () => {
    const r = parseSlipText('hello world\nthis is not a slip');
    expect(r.book.value).toBeNull();
    expect(r.bets).toEqual([]);
    expect(r.needsReview).toBe(true);
  });

  it('--book overrides detection and says so', () => {
    const r = parseSlipText(text('fanduel_straight_points.txt'), 'draftkings');
    expect(r.book.value).toBe('draftkings');
    expect(r.warnings.join()).toMatch(/looks like fanduel/);
  });
});

describe('grading hook', () => {
  it('without a grader, gradeable legs say grading is unavailable; others keep their reason', async () => {
    const r = await readSlipText(text('fanduel_straight_points.txt'));
    expect(r.bets[0]!.legs[0]!.grading).toEqual({ status: 'unavailable', reason: NO_GRADER_REASON });
    const hr = await readSlipText(text('hardrock_share_sgp.txt'));
    expect(hr.bets[0]!.legs[0]!.grading).toBeNull();
  });

  it('passes exactly player/stat/line/side to the injected grader and shows refusals as refusals', async () => {
    const gradeLeg = vi.fn<GradeLeg>(async () => ({ status: 'refused', refusal: { reason: 'no snapshot for this player' } }));
    const r = await readSlipText(text('fanduel_straight_points.txt'), { gradeLeg });
    expect(gradeLeg).toHaveBeenCalledWith({ player: 'Ausar Thompson', stat: 'points', line: 10.5, side: 'under' });
    expect(r.bets[0]!.legs[0]!.grading).toEqual({ status: 'refused', refusal: { reason: 'no snapshot for this player' } });
  });
});

describe('structural checks catch the high-confidence misreads LAYOUTS.md §7 lists', () => {
  it('`o26.5` read as `026.5`', () => {
    const f = lineField(26.5, '026.5');
    checkLine(f, 'points', 'POINTS', false);
    expect(f.needsReview).toBe(true);
  });
  it('`8½` read as `82` on rebounds is out of range', () => {
    const f = lineField(82, '82');
    checkLine(f, 'rebounds', 'Rebounds', false);
    expect(f.reasons.join()).toMatch(/outside 0.5..30/);
  });
  it('quarter lines and plausible lines', () => {
    const q = lineField(10.25, '10.25');
    checkLine(q, 'points', 'POINTS', false);
    expect(q.needsReview).toBe(true);
    const ok = lineField(24.5, '24.5');
    checkLine(ok, 'points', 'POINTS', false);
    expect(ok.needsReview).toBe(false);
  });
  it('stake × odds ≈ payout, with a one-point odds rounding band', () => {
    expect(payoutMatches(50, 1211, 655.89, { bonusBet: false, added: null })).toBe(true);
    expect(payoutMatches(50, 121, 655.89, { bonusBet: false, added: null })).toBe(false);
    expect(payoutMatches(25, 12770, 3192.51, { bonusBet: true, added: null })).toBe(true);
    expect(payoutMatches(10, 433, 66.26, { bonusBet: false, added: 12.98 })).toBe(true);
    expect(payoutMatches(168.1, -153, 277.96, { bonusBet: false, added: null })).toBe(true);
  });
  it('token readers refuse near-misses', () => {
    expect(readOdds('−146')?.value).toBe(-146);
    expect(readOdds('121')).toBeNull();
    expect(readOdds('+25')).toBeNull();
    expect(readMoney('$4313')).toMatchObject({ value: 4313, cents: false });
    expect(readMoney('$1,869.57')).toMatchObject({ value: 1869.57, cents: true });
    expect(readMoney('520')).toBeNull();
    expect(readLine('(53.5)')?.value).toBe(53.5);
    expect(statForMarketLabel('Three Pointers Made')).toBe('threes');
    expect(statForMarketLabel('RECEIVING YDS')).toBeNull();
  });
});

describe('rows from word boxes', () => {
  it('puts a right-aligned price on its row and a tiny hyphen back between name and market', () => {
    const w = (text: string, x0: number, y0: number, x1: number, y1: number) => ({ text, conf: 0.9, bbox: { x0, y0, x1, y1 } });
    const rows = rowsFromWords([
      w('+190', 760, 352, 848, 386),
      w('JUSTIN', 115, 1100, 200, 1119),
      w('4-Bet', 155, 355, 260, 390),
      w('Parlay', 265, 356, 370, 392),
      w('-', 210, 1112, 218, 1114),
      w('TD', 230, 1100, 260, 1119),
    ]);
    expect(rows.map((r) => r.text)).toEqual(['4-Bet Parlay +190', 'JUSTIN - TD']);
  });
});

describe('image checks', () => {
  const png = readFileSync(join(FIXTURES, 'images', 'dk_app_bet_placed_prop_light.png'));
  it('reads the size of a real PNG and JPEG from their headers', () => {
    expect(checkImage(png)).toEqual({ kind: 'png', width: 1320, height: 341 });
    expect(checkImage(readFileSync(join(FIXTURES, 'images', 'dk_web_mybets_open_spread_dark_1.jpg')))).toEqual({ kind: 'jpeg', width: 590, height: 354 });
  });
  it('refuses a non-image, a broken header and anything over the 4 MB cap', () => {
    expect(sniffImage(Buffer.from('{"name":"propgrade"}'))).toBeNull();
    expect(() => checkImage(Buffer.from('{"name":"propgrade"}'))).toThrow(/not an image/);
    expect(() => checkImage(png.subarray(0, 12))).toThrow(/corrupt PNG/);
    expect(() => checkImage(Buffer.alloc(UPLOAD_CAP_BYTES + 1))).toThrow(/upload cap is 4 MB/);
  });
});
