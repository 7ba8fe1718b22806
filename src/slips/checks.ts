import { parseStat, type StatType } from '../domain/stats.js';
import { absent, flag } from './fields.js';
import type { Book, Field, SlipBet, SlipLeg } from './schema.js';
import { fold } from './text.js';

/**
 * Structural checks on top of OCR confidence. LAYOUTS.md §7: several misreads come back at
 * 90%+ confidence (`o26.5`→`026.5`, `8½`→`82`, `+2.5`→`+25`, `$43.13`→`$4313`), so each check
 * flags the fields it cannot vouch for instead of trusting the engine.
 */

const STAT_PHRASES: Record<string, StatType> = {
  'made threes': 'threes',
  'three pointers made': 'threes',
  '3-pointers made': 'threes',
  'threes made': 'threes',
  'pts + reb + ast': 'pra',
  'points + rebounds + assists': 'pra',
  'pts+reb+ast': 'pra',
  'total bases': 'total_bases',
  'home runs': 'home_runs',
  'strikeouts thrown': 'strikeouts',
  'pitcher strikeouts': 'strikeouts',
  'shots on target': 'shots_on_target',
};

/** The canonical stat for a player market label (`POINTS`, `Three Pointers Made O/U`), else null. */
export function statForMarketLabel(label: string): StatType | null {
  const s = fold(label)
    .replace(/\s+o\/u$/, '')
    .replace(/^(alt|alternate)\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return STAT_PHRASES[s] ?? parseStat(s);
}

/** Plausible O/U line range per canonical stat (inclusive), from the sizes these props are offered at. */
const STAT_RANGE: Record<StatType, [number, number]> = {
  points: [0.5, 70],
  rebounds: [0.5, 30],
  assists: [0.5, 25],
  threes: [0.5, 15],
  pra: [0.5, 100],
  blocks: [0.5, 10],
  steals: [0.5, 10],
  hits: [0.5, 6],
  total_bases: [0.5, 12],
  home_runs: [0.5, 4],
  strikeouts: [0.5, 18],
  // 27 outs is a complete nine-inning game.
  pitcher_outs: [0.5, 27],
  shots: [0.5, 12],
  shots_on_target: [0.5, 8],
  goals: [0.5, 4],
  tackles: [0.5, 10],
};

/** Ranges for markets propgrade does not grade, matched on the printed label; first match wins. */
const MARKET_RANGE: Array<[RegExp, [number, number]]> = [
  [/spread|handicap|run line|puck line/, [-60, 60]],
  [/pass(ing)? (yds|yards)/, [0.5, 600]],
  [/(yds|yards)/, [0.5, 400]],
  [/receptions/, [0.5, 20]],
  [/(tds|touchdowns)/, [0.5, 8]],
  [/sacks/, [0.5, 6]],
  [/total runs/, [0.5, 30]],
  [/total (match )?points|total$/, [0.5, 350]],
];

function rangeFor(stat: StatType | null, market: string | null): [number, number] | null {
  if (stat) return STAT_RANGE[stat];
  if (!market) return null;
  const m = fold(market);
  return MARKET_RANGE.find(([re]) => re.test(m))?.[1] ?? null;
}

/** Lines end in .5 or are whole, sit in the stat's range, and show none of the known misread shapes. */
export function checkLine(line: Field<number>, stat: StatType | null, market: string | null, milestone: boolean): void {
  if (line.value === null) return;
  const v = line.value;
  if (!Number.isInteger(v * 2)) flag(line, `line ${v} is neither whole nor .5`);
  const raw = (line.raw ?? '').replace(/[()+,\s]/g, '');
  if (/^-?0\d/.test(raw)) flag(line, `line "${line.raw}" starts with 0: may be a misread o/O side (o26.5 → 026.5)`);
  if (!milestone && !raw.includes('.') && Number.isInteger(v) && Math.abs(v) >= 10 && Math.abs(v) % 10 === 5) {
    flag(line, `whole line ${v} ending in 5 may have lost its decimal point (${Math.trunc(v / 10)}.5)`);
  }
  const range = rangeFor(stat, market);
  if (range && (v < range[0] || v > range[1])) flag(line, `line ${v} is outside ${range[0]}..${range[1]} for ${stat ?? market}`);
}

/** Sportsbooks other than Hard Rock always print cents; a missing point (`$4313`) is a misread. */
export function checkMoney(money: Field<number>, cents: boolean | null, book: Book | null): void {
  if (money.value === null || cents === null) return;
  if (!cents && book !== 'hardrock') flag(money, `amount "${money.raw}" has no cents: the decimal point may be lost`);
}

function decimalOdds(american: number): number {
  return american > 0 ? 1 + american / 100 : 1 + 100 / -american;
}

/**
 * stake × odds ≈ payout. Books print odds rounded to a whole American number, so the expected
 * payout is a band between the odds one point either side. A bonus bet pays winnings only; a
 * Hard Rock profit boost adds the printed `+$X added`.
 */
export function payoutMatches(stake: number, american: number, payout: number, opts: { bonusBet: boolean; added: number | null }): boolean {
  const expected = (a: number) => stake * (decimalOdds(a) - (opts.bonusBet ? 1 : 0)) + (opts.added ?? 0);
  const neighbours = [american - 1, american, american + 1].filter((a) => Math.abs(a) >= 100);
  const values = neighbours.map(expected);
  const lo = Math.min(...values) - 0.02;
  const hi = Math.max(...values) + 0.02;
  return payout >= lo && payout <= hi;
}

export interface PayoutContext {
  price: Field<number>;
  cents: { stake: boolean | null; payout: boolean | null };
  added: number | null;
  book: Book | null;
}

/**
 * Cross-checks stake, price and payout. A failure flags all three: the check cannot tell which
 * one was misread. A Hard Rock amount without cents is only trusted when the check passes.
 * Returns whether the check ran and passed.
 */
export function checkPayout(bet: SlipBet, ctx: PayoutContext): boolean {
  const { stake, payout } = bet;
  const price = ctx.price;
  if (stake.value === null || payout.value === null || price.value === null) {
    if (ctx.book === 'hardrock') {
      if (ctx.cents.stake === false) flag(stake, 'whole-dollar amount could not be cross-checked against the odds');
      if (ctx.cents.payout === false) flag(payout, 'whole-dollar amount could not be cross-checked against the odds');
    }
    return false;
  }
  if (payoutMatches(stake.value, price.value, payout.value, { bonusBet: bet.bonusBet, added: ctx.added })) return true;
  const reason = `stake ${stake.value} at ${price.value > 0 ? '+' : ''}${price.value} does not give payout ${payout.value}`;
  flag(stake, reason);
  flag(payout, reason);
  flag(price, reason);
  return false;
}

/** A leg needs review when any field does; it is gradeable only with every grading field read cleanly. */
export function finalizeLeg(leg: SlipLeg): SlipLeg {
  const fields = [leg.selection, leg.player, leg.market, leg.stat, leg.line, leg.side, leg.price];
  leg.needsReview = fields.some((f) => f.needsReview);
  const missingParts = (['player', 'stat', 'line', 'side'] as const).filter((k) => leg[k].value === null);
  if (missingParts.length) {
    const marketText = leg.market.value ?? leg.market.raw;
    // Printed but not read with confidence (`Brunson` alone, a garbled line) is not the same as absent.
    const unclear = missingParts.filter((k) => leg[k].needsReview && leg[k].raw !== null);
    leg.gradeable = false;
    leg.ungradeableReason =
      leg.stat.value === null && leg.player.value !== null && marketText
        ? `market "${marketText}" is not a graded player stat`
        : unclear.length
          ? `needs review before grading (${unclear.join(', ')})`
          : `no ${missingParts.join(', ')} on this leg`;
  } else if (leg.needsReview) {
    leg.gradeable = false;
    leg.ungradeableReason = 'needs review before grading';
  } else {
    leg.gradeable = true;
    leg.ungradeableReason = null;
  }
  return leg;
}

/** The header's leg count (`4-Bet Parlay`, `5 leg parlay`, `2 Picks`) must match the legs found. */
export function checkLegCount(bet: SlipBet, warnings: string[]): void {
  if (bet.headerLegCount === null || bet.headerLegCount === bet.legs.length) return;
  warnings.push(`header says ${bet.headerLegCount} legs but ${bet.legs.length} ${bet.legs.length === 1 ? 'was' : 'were'} read`);
  bet.needsReview = true;
}

export function emptyLeg(): SlipLeg {
  return {
    selection: absent(),
    player: absent(),
    market: absent(),
    stat: absent(),
    line: absent(),
    side: absent(),
    price: absent(),
    needsReview: false,
    gradeable: false,
    ungradeableReason: null,
    grading: null,
  };
}

