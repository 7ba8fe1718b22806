import { absent, flag, missing, readField } from '../fields.js';
import { segments, type Row } from '../rows.js';
import type { Field, SlipLeg, SlipWord } from '../schema.js';
import { isAllCaps, readMoney, readOdds } from '../text.js';
import type { BookParse, DraftBet } from './types.js';
import { buildLeg, isJunkRow, readSelection, rowText, stripLeading, stripTrailing, takeOdds } from './common.js';

/**
 * DraftKings (LAYOUTS.md §2): the selection (`4+`, `Over 235.5`, `NORTH CAROLINA +9.5`, or a
 * player's name on a round robin) with the odds at the right of the same row, then the market
 * (`Travis Hunter Receptions`: name and stat with no separator, `Spread Alternate`,
 * `Anytime TD Scorer`), then the event. Amounts are inline: `Wager: $10.00 CAD  To Pay: $21.40 CAD`.
 */

const NOT_A_LEG = /^(bet placed|wager|to pay|paid|cash out|placed:|open|won|lost|hide picks|show picks|sgpx?|final score)\b/i;
const DATE = /\b[A-Z][a-z]{2} \d{1,2}, \d{4}\b/;
const EVENT = /\s@\s/;
const BADGES = /^(open|cash|out|\(?ashout|ⓘ|©|®)$/i;

/** Stat names DraftKings appends to the player's name; longest first so `Three Pointers Made` beats `Made`. */
const STAT_SUFFIXES = [
  'Points + Rebounds + Assists',
  'Pts + Reb + Ast',
  'Three Pointers Made',
  'Anytime TD Scorer',
  'Anytime Touchdown Scorer',
  'Strikeouts Thrown',
  'Passing Touchdowns',
  'Receiving Yards',
  'Rushing Yards',
  'Passing Yards',
  'Shots on Target',
  'Total Bases',
  'Home Runs',
  'Receptions',
  'Strikeouts',
  'Rebounds',
  'Assists',
  'Points',
  'Steals',
  'Blocks',
  'Shots',
  'Hits',
].map((s) => s.toLowerCase().split(' '));

function splitPlayerStat(words: SlipWord[]): { player: SlipWord[]; stat: SlipWord[] } | null {
  const lower = words.map((w) => w.text.toLowerCase());
  const hasOU = lower[lower.length - 1] === 'o/u';
  const core = hasOU ? lower.slice(0, -1) : lower;
  for (const suffix of STAT_SUFFIXES) {
    if (core.length <= suffix.length) continue;
    if (suffix.every((s, i) => core[core.length - suffix.length + i] === s)) {
      const cut = core.length - suffix.length;
      return { player: words.slice(0, cut), stat: words.slice(cut) };
    }
  }
  return null;
}

/** The SGP card's summary of its selections (`18+, 9+`) under the header: not a leg of its own. */
const isSummaryRow = (row: Row): boolean => row.words.length > 1 && row.words.every((w) => /^\d{1,3}\+,?$/.test(w.text)) && /,/.test(rowText(row));

function isSkippable(row: Row): boolean {
  const t = rowText(row);
  return isJunkRow(row) || NOT_A_LEG.test(t) || DATE.test(t) || /\bDK\d{10,}/.test(t) || /\bpicks?\b/i.test(t) || isSummaryRow(row);
}

/** A market row reads as title-case words; the caps rows below a dark card are the teams. */
function isMarketRow(row: Row): boolean {
  const t = rowText(row);
  return !isSkippable(row) && !EVENT.test(t) && !isAllCaps(t) && !readOdds(row.words[row.words.length - 1]?.text ?? '');
}

export function parseDraftKings(rows: Row[]): BookParse {
  const warnings: string[] = [];
  const headerRow = rows.find((r) => /\bpicks?\b/i.test(rowText(r)));
  const headerText = headerRow ? rowText(headerRow) : '';
  const count = /(\d+)\s*picks?\b(?!\s*round robin)/i.exec(headerText);
  const roundRobin = /round robin/i.test(headerText);
  const headerOdds = headerRow ? takeOdds(headerRow.words).odds : null;

  const legs: SlipLeg[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    if (isSkippable(row) || EVENT.test(rowText(row))) continue;
    const next = rows[i + 1];
    const hasMarket = next !== undefined && isMarketRow(next);
    const leg = draftKingsLeg(row, hasMarket ? next : null);
    if (!leg) continue;
    legs.push(leg);
    if (hasMarket) i += 1;
  }

  const { stake, payout, cents, currency } = amounts(rows);
  const idWord = rows.flatMap((r) => r.words).find((w) => /^DK\d{15,20}$/.test(w.text));
  const bet: DraftBet = {
    betType: headerRow ? headerText.replace(/\(.*$/, '').replace(/\s*[+-]\d{3,5}.*$/, '').trim() : null,
    headerLegCount: count && !roundRobin ? Number(count[1]) : null,
    boosted: rows.some((r) => /boost/i.test(rowText(r))),
    bonusBet: false,
    price: headerOdds ? readField(readOdds(headerOdds.text)!.value, [headerOdds]) : absent(),
    stake,
    payout,
    currency,
    // My Bets prints `date • DK…` under every bet that shows `Wager:`; an unreadable id is asked for.
    betId: idWord ? readField(idWord.text, [idWord]) : stake.value !== null ? missing('bet id (DK…) in the footer not read') : absent(),
    legs,
    needsReview: false,
    cents,
    added: null,
    distrustUnverifiedPrice: null,
  };
  if (roundRobin) warnings.push('round robin: the stake is the number of bets times the amount per bet');
  return { bets: [bet], warnings };
}

function draftKingsLeg(row: Row, marketRow: Row | null): SlipLeg | null {
  const columnX0 = marketRow?.words[0]?.bbox?.x0 ?? null;
  const { odds } = takeOdds(row.words);
  // Only the left run holds the selection; a CASH OUT pill or OPEN badge sits in its own run.
  const first = segments(row)[0] ?? [];
  let words = stripTrailing(stripLeading(first.filter((w) => w !== odds), columnX0));
  while (words.length && BADGES.test(words[words.length - 1]!.text)) words = words.slice(0, -1);
  const sel = readSelection(words);
  const isSelection = sel.side !== null || sel.milestoneWord !== null || sel.lineWord !== null || odds !== null;
  const marketWords = marketRow ? stripTrailing(stripLeading(marketRow.words)) : [];
  const split = marketWords.length ? splitPlayerStat(marketWords) : null;
  const nameOnly = !isSelection && marketRow !== null && sel.nameWords.length > 0 && !sel.freeText;
  if (!isSelection && !nameOnly) return null;
  let playerWords: SlipWord[] | null = null;
  let market = marketWords;
  if (split && sel.nameWords.length === 0) {
    playerWords = split.player;
    market = split.stat;
  } else if (nameOnly && /scorer/i.test(marketWords.map((w) => w.text).join(' '))) {
    playerWords = sel.nameWords;
  } else if (nameOnly) {
    return null;
  }
  const leg = buildLeg({ selectionWords: words, playerWords, playerEcho: null, marketWords: market, sel, priceWord: odds });
  if (!marketRow) leg.market = flag(absent<string>(), 'market line not read');
  return leg;
}

function amounts(rows: Row[]): {
  stake: Field<number>;
  payout: Field<number>;
  cents: { stake: boolean | null; payout: boolean | null };
  currency: string | null;
} {
  let stake: Field<number> = absent();
  let payout: Field<number> = absent();
  const cents: { stake: boolean | null; payout: boolean | null } = { stake: null, payout: null };
  let currency: string | null = null;
  for (const row of rows) {
    const ws = row.words;
    ws.forEach((w, i) => {
      const label = w.text.toLowerCase();
      const next = ws[i + 1];
      const money = next ? readMoney(next.text) : null;
      if (!money || !next) return;
      if (label === 'wager:') {
        stake = readField(money.value, [next]);
        cents.stake = money.cents;
      } else if (label === 'pay:' || label === 'paid:') {
        payout = readField(money.value, [next]);
        cents.payout = money.cents;
      } else return;
      if (/^CAD\.?$/.test(ws[i + 2]?.text ?? '')) currency = 'CAD';
    });
    // Round robin: `(3 x $5.00)` is three bets of $5.00.
    const t = rowText(row);
    const rr = /\((\d+)\s*x\s*(\$[\d,]+\.\d{2})\)/i.exec(t);
    if (rr && stake.value === null) {
      const amount = readMoney(rr[2]!)!;
      const used = ws.filter((w) => /\(?\d+|x|\$/.test(w.text) && t.includes(w.text)).slice(-3);
      stake = readField(Math.round(Number(rr[1]) * amount.value * 100) / 100, used, rr[0]);
      cents.stake = true;
    }
  }
  return { stake, payout, cents, currency };
}
