import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOcrPage } from '../../src/slips/parse.js';
import { ocrPageSchema, slipResultSchema, type SlipResult } from '../../src/slips/schema.js';
import { bookOf, IMAGES, PINS } from './pins.js';
import { FIXTURES, loadTruth, tally, type Tally } from './score.js';

/** Parser tests on the OCR word boxes recorded from each real image: no OCR engine needed. */
const stem = (image: string) => image.replace(/\.(png|jpg)$/, '');
function parsed(image: string): SlipResult {
  const page = ocrPageSchema.parse(JSON.parse(readFileSync(join(FIXTURES, 'words', `${stem(image)}.words.json`), 'utf8')));
  return parseOcrPage(page);
}

describe('recorded OCR of the 20 real slips', () => {
  const perBook = new Map<string, Tally>();
  for (const image of IMAGES) {
    it(`${image}: no unflagged wrong field, and the result matches the schema`, () => {
      const result = parsed(image);
      slipResultSchema.parse(result);
      const t = tally(result, loadTruth(stem(image)));
      expect(t.wrongFields).toEqual([]);
      const acc = perBook.get(bookOf(image)) ?? { correct: 0, flagged: 0, missed: 0, wrong: 0, wrongFields: [] };
      tally(result, loadTruth(stem(image)), acc);
      perBook.set(bookOf(image), acc);
    });
  }
  it('per-book figures only improve on the pins', () => {
    for (const [book, pin] of Object.entries(PINS)) {
      const t = perBook.get(book)!;
      expect(t.wrong, book).toBe(0);
      expect(t.correct, book).toBeGreaterThanOrEqual(pin.correct);
      expect(t.flagged, book).toBeLessThanOrEqual(pin.flagged);
      expect(t.missed, book).toBeLessThanOrEqual(pin.missed);
    }
  });
});

describe('FanDuel', () => {
  it('reads five O/U player legs, the header price and the footer amounts by column', () => {
    const r = parsed('fd_app_sgp_props_over_dark.png');
    expect(r.book.value).toBe('fanduel');
    const bet = r.bets[0]!;
    expect(bet.legs.map((l) => [l.player.value, l.market.value, l.line.value, l.side.value])).toEqual([
      ['Jameson Williams', 'RECEIVING YDS', 45.5, 'over'],
      ['Jahmyr Gibbs', 'TOTAL RECEPTIONS', 3.5, 'over'],
      ['Jared Goff', 'PASSING TDS', 1.5, 'over'],
      ['Tyquan Thornton', 'TOTAL RECEPTIONS', 1.5, 'over'],
      ['Marquise Brown', 'RECEIVING YDS', 39.5, 'over'],
    ]);
    expect(bet.stake.value).toBe(50);
    expect(bet.payout.value).toBe(655.89);
    // `+1211` came out as `+121` (conf 72): the stake × odds check fails and flags all three.
    expect(bet.price.value).toBe(121);
    expect(bet.price.needsReview).toBe(true);
    expect(bet.stake.reasons.join()).toMatch(/does not give payout/);
    // Football markets are not graded sports: kept raw, marked ungradeable, never mapped.
    expect(bet.legs[0]!.stat.value).toBeNull();
    expect(bet.legs[0]!.gradeable).toBe(false);
    expect(bet.legs[0]!.ungradeableReason).toMatch(/not a graded player stat/);
  });

  it('reads N+ milestones as over N-0.5 and checks a bonus-bet payout (winnings only)', () => {
    const bet = parsed('fd_app_sgp_alt_yards_dark.png').bets[0]!;
    expect(bet.bonusBet).toBe(true);
    expect(bet.legs.map((l) => [l.player.value, l.line.value, l.side.value, l.line.raw])).toEqual([
      ['Tyquan Thornton', 59.5, 'over', '60+'],
      ['Jameson Williams', 69.5, 'over', '70+'],
      ['Jahmyr Gibbs', 39.5, 'over', '40+'],
      ['Brashard Smith', 24.5, 'over', '25+'],
    ]);
    expect([bet.price.value, bet.stake.value, bet.payout.value]).toEqual([12770, 25, 3192.51]);
    expect([bet.price.needsReview, bet.stake.needsReview, bet.payout.needsReview]).toEqual([false, false, false]);
  });

  it('never trusts the struck-through price on a boosted slip', () => {
    const bet = parsed('fd_app_mybets_sgp_boost_dark_1.jpg').bets[0]!;
    expect(bet.boosted).toBe(true);
    expect(bet.price.value).toBeNull();
    expect(bet.price.raw).toBe('+233');
    expect(bet.price.needsReview).toBe(true);
    expect(bet.betId.value).toBe('O/0350322/0014150');
    expect(bet.legs.map((l) => [l.selection.value, l.market.value, l.line.value, l.side.value])).toEqual([
      ['Cleveland Cavaliers -5.5', 'SPREAD BETTING', -5.5, null],
      ['Cleveland Cavaliers', 'MONEYLINE', null, null],
      ['Under 243.5', 'TOTAL POINTS', 243.5, 'under'],
    ]);
  });

  it('flags `$49.15` read as `$4915` (no cents) instead of reporting 4915', () => {
    const bet = parsed('fd_app_mybets_sgp_boost_dark_3.jpg').bets[0]!;
    expect(bet.payout.value).toBe(4915);
    expect(bet.payout.needsReview).toBe(true);
    expect(bet.payout.reasons.join()).toMatch(/no cents/);
  });

  it('keeps a wrapped free-text selection whole and reads no side or line out of it', () => {
    const bet = parsed('fd_app_mybets_sgp_boost_dark_4.jpg').bets[0]!;
    expect(bet.legs[0]!.selection.value).toBe('Pittsburgh Steelers to win the game (tie is a win)');
    expect(bet.legs[1]!.line.value).toBeNull();
    expect(bet.legs[1]!.side.value).toBeNull();
  });
});

describe('DraftKings', () => {
  it('splits `Travis Hunter Receptions` into player and market, odds from the row end', () => {
    const leg = parsed('dk_app_bet_placed_prop_light.png').bets[0]!.legs[0]!;
    expect([leg.player.value, leg.market.value, leg.line.value, leg.side.value, leg.price.value]).toEqual([
      'Travis Hunter',
      'Receptions',
      3.5,
      'over',
      -146,
    ]);
  });

  it('round robin: legs are named players, stake is bets × amount', () => {
    const bet = parsed('dk_app_bet_placed_rr_anytime_td_light.png').bets[0]!;
    expect(bet.legs.map((l) => l.player.value)).toEqual(['Hassan Haskins', 'Travis Hunter', 'Taysom Hill']);
    expect(bet.stake.value).toBe(15);
    expect(bet.headerLegCount).toBeNull();
  });

  it('flags `+2.5` read as `+25` with high confidence', () => {
    const leg = parsed('dk_web_mybets_open_spread_dark_1.jpg').bets[0]!.legs[0]!;
    expect(leg.line.value).toBe(25);
    expect(leg.line.confidence).toBeGreaterThan(0.85);
    expect(leg.line.needsReview).toBe(true);
    expect(leg.line.reasons.join()).toMatch(/lost its decimal point/);
  });

  it('an unreadable selection (`OVERAS`) asks for its side and line rather than leaving them blank', () => {
    const leg = parsed('dk_web_mybets_open_alt_total_dark.jpg').bets[0]!.legs[0]!;
    expect(leg.side).toMatchObject({ value: null, needsReview: true });
    expect(leg.line).toMatchObject({ value: null, needsReview: true });
  });
});

describe('Hard Rock Bet', () => {
  it('splits a My Bets screen into its two bet cards, whole-dollar stakes checked against the odds', () => {
    const r = parsed('hr_app_mybets_prop_settled_green.png');
    expect(r.bets).toHaveLength(2);
    const [a, b] = r.bets;
    expect([a!.stake.value, a!.payout.value, a!.betId.value]).toEqual([1000, 1869.57, '7653085905464066327']);
    expect(a!.legs[0]!.player.value).toBe('Patrick Mahomes');
    expect([a!.legs[0]!.line.value, a!.legs[0]!.side.value, a!.legs[0]!.price.value]).toEqual([205.5, 'under', -115]);
    expect(a!.needsReview).toBe(false);
    expect([b!.stake.value, b!.payout.value, b!.legs[0]!.selection.value, b!.legs[0]!.player.value]).toEqual([1000, 1689.66, 'Cowboys', null]);
  });

  it('reads the player only from the caps subtitle and grades an MLB hits leg as gradeable', () => {
    const bet = parsed('hr_share_sgpmax_props_light.png').bets[0]!;
    expect(bet.headerLegCount).toBe(4);
    expect(bet.legs).toHaveLength(4);
    const hits = bet.legs[2]!;
    expect([hits.player.value, hits.stat.value, hits.line.value, hits.side.value]).toEqual(['Will Smith', 'hits', 0.5, 'over']);
    expect(hits.gradeable).toBe(true);
    // The nested SGP's own price (+185) sits on its event row and is not a leg.
    expect(bet.legs[0]!.selection.value).toBe('Dodgers');
  });

  it('a dash in `1ST JAGUARS DRIVE - OFFENSE TO SCORE` does not make a player; a sign-less price is flagged', () => {
    const bet = parsed('hr_share_winner_green.png').bets[0]!;
    expect(bet.legs[0]!.player.value).toBeNull();
    expect(bet.legs[0]!.price).toMatchObject({ value: null, raw: '110', needsReview: true });
    // `$20` came out as `520` with no dollar sign: asked for, never read as 520.
    expect(bet.stake).toMatchObject({ value: null, needsReview: true });
  });
});
