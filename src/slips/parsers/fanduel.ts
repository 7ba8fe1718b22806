import { absent, distrust, missing, readField } from '../fields.js';
import { segments, type Row } from '../rows.js';
import type { SlipLeg, SlipWord } from '../schema.js';
import { isAllCaps, letterCount, looksLikePrice, readOdds } from '../text.js';
import type { BookParse, DraftBet } from './types.js';
import {
  buildLeg,
  isJunkRow,
  moneyField,
  pairAmounts,
  readSelection,
  rowText,
  stripLeading,
  stripTrailing,
  takeOdds,
} from './common.js';

/**
 * FanDuel (LAYOUTS.md §1): header `Same Game Parlay™ | +1211` (a boosted slip shows the old price
 * struck through, then the new one in a yellow box), a summary, `Team @ Team | 8:21PM ET`, then
 * each leg as a blue selection line over a caps `PLAYER - MARKET` line; footer amounts over
 * `TOTAL WAGER | TOTAL PAYOUT`, then `BET ID: O/ddddddd/ddddddd`.
 */

const FOOTER = /^(follow bet|cash out|reuse selections|share bet|bet id|total wager|total payout|placed:)/i;
/** `Team @ Team | 8:21PM ET`; OCR may turn `@` into `&` and garble the time, but the time stays a right-hand column. */
const EVENT_TEAMS = /\s(@|&|at|v|vs)\s/i;
const EVENT_TIME = /\b\d{1,2}:\d{2}\s?(am|pm)\s?(et|ct|mt|pt)\b/i;
const isEventRow = (row: Row): boolean => EVENT_TEAMS.test(rowText(row)) && (EVENT_TIME.test(rowText(row)) || segments(row).length > 1);
const AMOUNT_LABELS = /total wager|total payout|won on fanduel|returned/;
/** Team and game markets: their subtitle is the market alone, and the selection is not a player. */
const PLAYER_MARKETS_WITHOUT_DASH = /scorer/i;

function isMoneyRow(row: Row): boolean {
  return row.words.some((w) => /^\$\d/.test(w.text));
}

export function parseFanDuel(rows: Row[]): BookParse {
  const warnings: string[] = [];
  const headerAt = rows.findIndex((r) => /parlay/i.test(rowText(r)));
  const header = headerAt >= 0 ? rows[headerAt]! : null;
  const headerText = header ? rowText(header) : '';
  const boostPill = rows.some((r) => /profit\s*boost/i.test(rowText(r)));
  const bonusBet = rows.some((r) => /bonus\s*bet/i.test(rowText(r)));
  const legCount = /(\d+)\s*leg parlay/i.exec(headerText);

  // Header price candidates: everything printed right of the title that reads, or tries to read, as odds.
  let candidates: SlipWord[] = [];
  if (header) {
    const titleEnd = header.words.findIndex((w) => /parlay/i.test(w.text));
    candidates = header.words.slice(titleEnd + 1).filter((w) => readOdds(w.text) || looksLikePrice(w.text));
  }
  const boosted = boostPill || candidates.length > 1;

  const eventAt = rows.findIndex((r, i) => i > headerAt && isEventRow(r));
  const start = eventAt >= 0 ? eventAt + 1 : headerAt + 1;
  let end = rows.findIndex((r, i) => i >= start && (FOOTER.test(rowText(r)) || isMoneyRow(r)));
  if (end < 0) end = rows.length;

  const legs: SlipLeg[] = [];
  let pending: Row[] = [];
  for (const row of rows.slice(start, end)) {
    if (isJunkRow(row) || PROMO.test(rowText(row))) continue;
    const words = stripTrailing(stripLeading(row.words));
    if (!words.length) continue;
    if (isAllCaps(rowText({ ...row, words })) && pending.length) {
      legs.push(fanduelLeg(pending, words));
      pending = [];
    } else if (!isAllCaps(rowText({ ...row, words }))) {
      pending.push(row);
    }
  }
  if (pending.length) warnings.push(`selection "${pending.map(rowText).join(' ')}" has no market line under it`);

  const amounts = footerAmounts(rows);
  const stake = moneyField(amounts.find((a) => a.label === 'total wager'));
  const payout = moneyField(amounts.find((a) => /payout|won on|returned/.test(a.label)));

  const idWord = rows.flatMap((r) => r.words).find((w) => /^[O0o]\/\d{7}\/\d{7}$/.test(w.text));
  const betId = idWord ? readField(`O${idWord.text.slice(1)}`, [idWord]) : absent<string>();

  const priceWord = candidates[candidates.length - 1] ?? null;
  const bet: DraftBet = {
    betType: header ? headerText.replace(/\s*[+-]?\d{3,5}.*$/, '').replace(/[^\w\s-]+$/, '').trim() || null : null,
    headerLegCount: legCount ? Number(legCount[1]) : null,
    boosted,
    bonusBet: bonusBet,
    price: priceWord ? readField(readOdds(priceWord.text)?.value ?? null, [priceWord]) : absent(),
    stake: stake.field,
    payout: payout.field,
    currency: null,
    betId: betId,
    legs,
    needsReview: false,
    cents: { stake: stake.cents, payout: payout.cents },
    added: null,
    distrustUnverifiedPrice: boosted
      ? (f) => distrust(f, 'boosted slip: the struck-through old price reads cleanly, the boxed new one does not')
      : null,
  };
  return { bets: [bet], warnings };
}

/** Promo pills sit between the header and the legs; never leg text. */
const PROMO = /profit\s*boost|bonus\s*bet|no\s*sweat/i;

function fanduelLeg(rowsAbove: Row[], subtitle: SlipWord[]): SlipLeg {
  const columnX0 = subtitle[0]?.bbox?.x0 ?? null;
  // A real word left of the leg's text column belongs to the summary or event text above the
  // legs (their row was not recognised), not to this selection; icons there are short debris.
  const startsLeft = (r: Row) =>
    columnX0 !== null && r.words.some((w) => w.bbox !== null && w.bbox.x1 < columnX0 - 4 && w.conf >= 0.8 && letterCount(w.text) >= 3);
  let selectionRows = rowsAbove.filter((r) => !PROMO.test(rowText(r)));
  const lastLeft = selectionRows.map(startsLeft).lastIndexOf(true);
  if (lastLeft >= 0) selectionRows = selectionRows.slice(lastLeft + 1);
  // A wrapped selection's later rows start in the text column (`a win)`): no icon there to strip.
  const words = selectionRows.flatMap((r, i) => stripTrailing(stripLeading(r.words, columnX0, i > 0 && columnX0 !== null)));
  const { odds, rest } = takeOdds(words);
  const sel = readSelection(rest);
  const dash = subtitle.findIndex((w) => w.text === '-');
  let playerEcho: SlipWord[] | null = null;
  let market = subtitle;
  if (dash > 0) {
    playerEcho = subtitle.slice(0, dash);
    market = subtitle.slice(dash + 1);
  } else if (sel.nameWords.length && !sel.freeText) {
    // The hyphen between name and market is a few px tall and sometimes not read at all.
    const n = sel.nameWords.length;
    const prefix = subtitle.slice(0, n).map((w) => w.text.toLowerCase()).join(' ');
    if (prefix === sel.nameWords.map((w) => w.text.toLowerCase()).join(' ') && subtitle.length > n) {
      playerEcho = subtitle.slice(0, n);
      market = subtitle.slice(n);
    }
  }
  const isPlayer = playerEcho !== null || (PLAYER_MARKETS_WITHOUT_DASH.test(market.map((w) => w.text).join(' ')) && !sel.freeText);
  const leg = buildLeg({
    selectionWords: rest,
    playerWords: isPlayer && !sel.freeText ? sel.nameWords : null,
    playerEcho,
    marketWords: market,
    sel: sel.freeText ? { ...sel, side: null, sideWord: null, lineWord: null, milestoneWord: null } : sel,
    priceWord: odds,
  });
  if (rest.length === 0) leg.selection = missing('selection line not found above this market');
  return leg;
}

function footerAmounts(rows: Row[]) {
  for (let i = 0; i < rows.length - 1; i += 1) {
    const row = rows[i]!;
    const below = rows[i + 1]!;
    if (isMoneyRow(row) && AMOUNT_LABELS.test(rowText(below).toLowerCase())) return pairAmounts(row, below, AMOUNT_LABELS);
  }
  return [];
}
