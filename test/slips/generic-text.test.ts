import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRows, parseSlipText } from '../../src/slips/parse.js';
import { rowsFromText } from '../../src/slips/rows.js';
import { slipResultSchema, type SlipLeg } from '../../src/slips/schema.js';
import { FIXTURES } from './score.js';

/**
 * The generic line parser reads pasted text that carries no sportsbook fingerprint. Its input
 * shape is plain hand-typed lines, so the texts below are typed here, not taken from a slip.
 */
const fields = (l: SlipLeg) => [l.player.value, l.stat.value, l.line.value, l.side.value, l.price.value];

describe('generic lines: player, side, line, stat (typed text)', () => {
  it('reads the plain shapes exactly, with the book left unknown', () => {
    const typed = [
      'Jalen Brunson over 27.5 points',
      'Jalen Brunson o27.5 pts -110',
      'Karl-Anthony Towns Under 11.5 Rebounds',
      'Josh Hart rebounds u8.5',
      "De'Aaron Fox 3+ threes (+140)",
      '2. Mikal Bridges - Over 2.5 3PM',
      'Jalen Williams - Assists - Over 5.5',
    ].join('\n');
    const r = parseSlipText(typed);
    slipResultSchema.parse(r);
    expect(r.book.value).toBeNull();
    expect(r.book.needsReview).toBe(false);
    expect(r.book.reasons.join()).toMatch(/no sportsbook fingerprint: read line by line/);
    expect(r.bets).toHaveLength(1);
    const legs = r.bets[0]!.legs;
    expect(legs.map(fields)).toEqual([
      ['Jalen Brunson', 'points', 27.5, 'over', null],
      ['Jalen Brunson', 'points', 27.5, 'over', -110],
      ['Karl-Anthony Towns', 'rebounds', 11.5, 'under', null],
      ['Josh Hart', 'rebounds', 8.5, 'under', null],
      // `3+` is "at least 3": over 2.5, the rule the book parsers use.
      ["De'Aaron Fox", 'threes', 2.5, 'over', 140],
      ['Mikal Bridges', 'threes', 2.5, 'over', null],
      ['Jalen Williams', 'assists', 5.5, 'over', null],
    ]);
    expect(legs.every((l) => l.gradeable && !l.needsReview)).toBe(true);
    expect(r.needsReview).toBe(false);
    // No amounts, no id: nothing is made up for what was not typed.
    const bet = r.bets[0]!;
    expect([bet.stake.value, bet.payout.value, bet.betId.value, bet.betType]).toEqual([null, null, null, null]);
  });

  it('flags what it cannot read unambiguously and never fills it in', () => {
    const typed = [
      'Brunson over 27.5 points',
      'New York Knicks over 110.5 points',
      'Knicks team total over 110.5 points',
      'Jalen Brunson over 27.5',
      'Jalen Brunson over 275 points',
      'Jalen Brunson over +27.5 points',
      'Over 220.5 points',
      'Jalen Brunson Points over 27.5 points',
    ].join('\n');
    const legs = parseSlipText(typed).bets[0]!.legs;
    expect(legs).toHaveLength(8);
    const [surname, team, teamTotal, noStat, outOfRange, signed, noPlayer, twoStats] = legs as [SlipLeg, SlipLeg, SlipLeg, SlipLeg, SlipLeg, SlipLeg, SlipLeg, SlipLeg];
    expect(surname.player).toMatchObject({ value: null, raw: 'Brunson', needsReview: true });
    expect(team.player).toMatchObject({ value: null, needsReview: true });
    expect(team.player.reasons.join()).toMatch(/team name/);
    expect(teamTotal.player.reasons.join()).toMatch(/team or game market/);
    expect(noStat.stat).toMatchObject({ value: null, needsReview: true });
    expect(outOfRange.line.reasons.join()).toMatch(/outside 0.5..70/);
    expect(signed.line).toMatchObject({ value: null, raw: '+27.5', needsReview: true });
    expect(noPlayer.player).toMatchObject({ value: null, needsReview: true });
    expect(twoStats.player.reasons.join()).toMatch(/ends in a stat word/);
    for (const leg of legs) {
      expect(leg.needsReview).toBe(true);
      expect(leg.gradeable).toBe(false);
    }
  });

  it('a market propgrade does not grade is kept as typed, unmapped and ungradeable', () => {
    const leg = parseSlipText('Josh Allen over 245.5 passing yards').bets[0]!.legs[0]!;
    expect([leg.player.value, leg.market.value, leg.stat.value, leg.line.value]).toEqual(['Josh Allen', 'passing yards', null, 245.5]);
    expect(leg.gradeable).toBe(false);
    expect(leg.ungradeableReason).toMatch(/not a graded player stat/);
  });

  it('a price alone on a line belongs to no leg; a header price goes to the bet', () => {
    const r = parseSlipText(['3 leg parlay', '+600', 'Jalen Brunson over 27.5 points', '-110', 'Josh Hart over 8.5 rebounds', 'OG Anunoby over 1.5 threes'].join('\n'));
    const bet = r.bets[0]!;
    expect(bet.price.value).toBe(600);
    expect(bet.headerLegCount).toBe(3);
    expect(bet.legs.map((l) => l.price.value)).toEqual([null, null, null]);
    expect(r.warnings.join('\n')).toMatch(/price "-110" on a line of its own is not attached to any leg/);
  });

  it('a line without a side is not a leg; text with no leg reads nothing', () => {
    const r = parseSlipText('Knicks @ Celtics 7:30 PM\nJalen Brunson 27.5 points\nWager $10 to win over $50');
    expect(r.bets).toEqual([]);
    expect(r.needsReview).toBe(true);
    expect(r.warnings.join()).toMatch(/no sportsbook fingerprint/);
  });

  it('--book keeps the chosen layout: no generic fallback', () => {
    const r = parseSlipText('Jalen Brunson over 27.5 points', 'fanduel');
    expect(r.book.value).toBe('fanduel');
    expect(r.bets.flatMap((b) => b.legs)).toEqual([]);
  });

  it('a detected book whose layout does not fit falls back to generic lines, book unknown', () => {
    const r = parseSlipText('Same Game Parlay +450\nJalen Brunson over 27.5 points\nJosh Hart over 8.5 rebounds');
    expect(r.book.value).toBeNull();
    expect(r.warnings[0]).toMatch(/fanduel words found, but its layout did not fit/);
    expect(r.bets[0]!.price.value).toBe(450);
    expect(r.bets[0]!.legs.map(fields)).toEqual([
      ['Jalen Brunson', 'points', 27.5, 'over', null],
      ['Josh Hart', 'rebounds', 8.5, 'over', null],
    ]);
  });

  it('only pasted text goes through it: OCR rows without a fingerprint read nothing', () => {
    const r = parseRows(rowsFromText('Jalen Brunson over 27.5 points'), { source: 'image' });
    expect(r.bets).toEqual([]);
  });

  it('real book text still goes to its layout parser', () => {
    const r = parseSlipText(readFileSync(join(FIXTURES, 'text', 'fanduel_straight_points.txt'), 'utf8'));
    expect(r.book.value).toBe('fanduel');
    expect(r.bets[0]!.legs[0]!.price.value).toBe(-120);
  });
});

describe('a parlay price pasted on its own line is the bet price, not leg 1', () => {
  it('FanDuel SGP (LAYOUTS.md §1a lines, price moved under the header)', () => {
    const text = [
      'Same Game Parlay',
      '+1211',
      'Jameson Williams Over 45.5',
      'JAMESON WILLIAMS - RECEIVING YDS',
      'Jahmyr Gibbs Over 3.5',
      'JAHMYR GIBBS - TOTAL RECEPTIONS',
      '$50.00 $655.89',
      'TOTAL WAGER TOTAL PAYOUT',
    ].join('\n');
    const r = parseSlipText(text);
    expect(r.book.value).toBe('fanduel');
    const bet = r.bets[0]!;
    expect(bet.price.value).toBe(1211);
    expect(bet.legs.map((l) => l.price.value)).toEqual([null, null]);
    // The stake × odds check runs on the bet price and confirms it: $50 at +1211 (±1) pays $655.89.
    expect([bet.price.needsReview, bet.stake.needsReview, bet.payout.needsReview]).toEqual([false, false, false]);
    expect(r.needsReview).toBe(false);
  });

  it('DraftKings SGP (LAYOUTS.md §2b real text order): no phantom leg, no lost leg', () => {
    const text = ['SGP', '2 Picks', '+37500', '18+, 9+', 'Lost', 'Wager: $2.00', '18+', 'Jordan Hawkins Points', '9+', 'Zion Williamson Assists'].join('\n');
    const r = parseSlipText(text);
    expect(r.book.value).toBe('draftkings');
    const bet = r.bets[0]!;
    expect(bet.price.value).toBe(37500);
    expect(bet.legs.map(fields)).toEqual([
      ['Jordan Hawkins', 'points', 17.5, 'over', null],
      ['Zion Williamson', 'assists', 8.5, 'over', null],
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('a price already on the header row is left as it is (Hard Rock fixture)', () => {
    const r = parseSlipText(readFileSync(join(FIXTURES, 'text', 'hardrock_share_sgp.txt'), 'utf8'));
    expect(r.bets[0]!.price.value).toBe(190);
    expect(r.bets[0]!.legs.map((l) => l.price.value)).toEqual([null, null, null, null]);
  });
});
