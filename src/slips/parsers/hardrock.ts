import { absent, missing, readField } from '../fields.js';
import type { Row } from '../rows.js';
import type { SlipLeg, SlipWord } from '../schema.js';
import { isAllCaps, readOdds, readSideWord, titleCase } from '../text.js';
import type { BookParse, DraftBet } from './types.js';
import { buildLeg, isJunkRow, moneyField, pairAmounts, readSelection, rowText, stripLeading, stripTrailing, takeOdds, takePrice } from './common.js';

/**
 * Hard Rock Bet (LAYOUTS.md §3): `SGP 4-Bet Parlay | +190`, `Wager | Payout` over the amounts
 * (whole dollars are printed without cents: `$20`), `ID: ` + 19 digits, and each leg as a big
 * line holding only side and line (`Over 174.5`, `Yes`, or a team) over a letter-spaced caps
 * subtitle `PLAYER - MARKET` that may wrap. A "My Bets" screen stacks several bet cards.
 */

const AMOUNT_LABELS = /boosted payout|payout|paid|won on hard rock bet|wager/;
const CHROME = /hard rock|winner|my bets|upcoming|finished|share|today,|tomorrow,|hide selections|show selections|early cash out|profit boost|final score|^id:/i;
const HEADER = /(\d+)-bet parlay/i;

function isSelectionRow(row: Row): boolean {
  const t = rowText(row);
  return !isJunkRow(row) && !CHROME.test(t) && !HEADER.test(t) && !/^wager\b/i.test(t) && !/\$\d/.test(t) && !/\s@\s/.test(t) && !isAllCaps(t);
}

function isSubtitleRow(row: Row): boolean {
  const t = rowText(row);
  return !isJunkRow(row) && isAllCaps(t) && !CHROME.test(t);
}

/** Splits a "My Bets" list into cards: each card ends with its `ID:` row. */
function cards(rows: Row[]): Row[][] {
  const idRows = rows.filter((r) => /^ID:/i.test(rowText(r)));
  const wagerRows = rows.filter((r) => /^wager\b/i.test(rowText(r)));
  if (idRows.length < 2 || wagerRows.length < 2) return [rows];
  const out: Row[][] = [];
  let current: Row[] = [];
  for (const row of rows) {
    current.push(row);
    if (/^ID:/i.test(rowText(row))) {
      out.push(current);
      current = [];
    }
  }
  if (current.some((r) => !isJunkRow(r))) out.push(current);
  return out;
}

export function parseHardRock(rows: Row[]): BookParse {
  const warnings: string[] = [];
  return { bets: cards(rows).map((card) => parseCard(card)), warnings };
}

function parseCard(rows: Row[]): DraftBet {
  const headerRow = rows.find((r) => HEADER.test(rowText(r)));
  const headerText = headerRow ? rowText(headerRow) : '';
  const count = HEADER.exec(headerText);
  const headerOdds = headerRow ? takeOdds(headerRow.words).odds : null;

  const legs: SlipLeg[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    if (!isSelectionRow(row)) continue;
    const subtitle: SlipWord[] = [];
    let j = i + 1;
    while (j < rows.length && isSubtitleRow(rows[j]!)) {
      subtitle.push(...stripTrailing(stripLeading(rows[j]!.words)));
      j += 1;
    }
    if (!subtitle.length) continue;
    legs.push(hardRockLeg(row, subtitle));
    i = j - 1;
  }

  let amounts: ReturnType<typeof pairAmounts> = [];
  const labelAt = rows.findIndex((r) => /^wager\b/i.test(rowText(r)));
  if (labelAt >= 0) {
    const amountRow = rows.slice(labelAt + 1, labelAt + 3).find((r) => r.words.some((w) => /^\$\d/.test(w.text)));
    if (amountRow) amounts = pairAmounts(amountRow, rows[labelAt]!, AMOUNT_LABELS);
  }
  const stake = moneyField(amounts.find((a) => a.label === 'wager'));
  const payout = moneyField(amounts.find((a) => a.label !== 'wager'));
  // The labels were read but an amount under them was not (large thin digits often vanish).
  if (labelAt >= 0 && stake.field.value === null) stake.field = missing('amount under "Wager" not read');
  if (labelAt >= 0 && payout.field.value === null) payout.field = missing('payout amount not read');
  const boost = rows.map((r) => /profit boost applied\s*\+\$([\d,]+(?:\.\d{2})?)\s*added/i.exec(rowText(r))).find(Boolean);
  const idRow = rows.find((r) => /^ID:/i.test(rowText(r)));
  const idWord = idRow?.words.find((w) => /^\d{19}$/.test(w.text));

  return {
    betType: count ? `${/\bSGPMAX\b/i.test(headerText) ? 'SGPMAX ' : /\bSGP\b/i.test(headerText) ? 'SGP ' : ''}${count[0]}` : null,
    headerLegCount: count ? Number(count[1]) : null,
    boosted: boost !== undefined || /boosted payout/i.test(rows.map(rowText).join(' ')),
    bonusBet: false,
    price: headerOdds ? readField(readOdds(headerOdds.text)!.value, [headerOdds]) : absent(),
    stake: stake.field,
    payout: payout.field,
    currency: null,
    betId: idWord ? readField(idWord.text, [idWord]) : absent(),
    legs,
    needsReview: false,
    cents: { stake: stake.cents, payout: payout.cents },
    added: boost ? Number(boost[1]!.replace(/,/g, '')) : null,
    distrustUnverifiedPrice: null,
  };
}

function hardRockLeg(row: Row, subtitle: SlipWord[]): SlipLeg {
  const { odds, rest } = takePrice(row);
  const words = stripTrailing(stripLeading(rest));
  const sel = readSelection(words);
  const lead = words[0] ? readSideWord(words[0].text) : null;
  const dash = subtitle.findIndex((w) => w.text === '-');
  // Only a side-and-line selection carries a player in its subtitle; `Offensive Score` over
  // `1ST JAGUARS DRIVE - OFFENSE TO SCORE` has a dash but no player.
  const isPlayer = lead !== null && lead !== 'more' && lead !== 'less' && dash > 0;
  return buildLeg({
    selectionWords: words,
    playerWords: isPlayer ? subtitle.slice(0, dash) : null,
    playerEcho: null,
    marketWords: isPlayer ? subtitle.slice(dash + 1) : subtitle,
    sel,
    priceWord: odds,
    playerDisplay: titleCase,
  });
}
