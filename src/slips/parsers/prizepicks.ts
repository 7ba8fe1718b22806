import { absent, missing } from '../fields.js';
import type { Row } from '../rows.js';
import type { SlipLeg } from '../schema.js';
import { readLine } from '../text.js';
import type { BookParse, DraftBet } from './types.js';
import { buildLeg, isJunkRow, rowText, stripLeading } from './common.js';

/**
 * PrizePicks (LAYOUTS.md §4, grade C: OCR transcripts only, no image): a player's name, then
 * `TEAM • POS • #N`, then `10 Rebounds` (line and stat), then both `Less` and `More` buttons.
 * Which side was picked shows only in the highlight colour, so the side is never read from text.
 */

const HEADER = /(\d+)-pick\s+(power|flex)\s+play/i;
/** `MIA • C-F • #13`; OCR turns the bullet into `-`, `:` or `.`. */
const TEAM_POS = /^[A-Z]{2,4}\s*[•·:.-]\s*[A-Z-]{1,5}\s*[•·:.-]\s*#\d{1,2}$/;
const LINE_STAT = /^\d{1,3}(\.\d)?\s+\p{L}/u;

export function parsePrizePicks(rows: Row[]): BookParse {
  const headerRow = rows.find((r) => HEADER.test(rowText(r)));
  const count = headerRow ? HEADER.exec(rowText(headerRow)) : null;
  const legs: SlipLeg[] = [];
  const content = rows.filter((r) => !isJunkRow(r));
  content.forEach((row, i) => {
    if (!TEAM_POS.test(rowText(row))) return;
    const nameRow = content[i - 1];
    const statRow = content[i + 1];
    if (!nameRow || !statRow || !LINE_STAT.test(rowText(statRow))) return;
    const lineWord = statRow.words[0]!;
    const statWords = statRow.words.slice(1);
    const nameWords = stripLeading(nameRow.words);
    const leg = buildLeg({
      selectionWords: statRow.words,
      playerWords: nameWords,
      playerEcho: null,
      marketWords: statWords,
      sel: { nameWords: [], side: null, sideWord: null, lineWord: readLine(lineWord.text) ? lineWord : null, milestoneWord: null, tailWords: statWords, freeText: false },
      priceWord: null,
    });
    leg.side = missing('PrizePicks prints both More and Less; the pick shows only as a highlight colour');
    legs.push(leg);
  });
  const bet: DraftBet = {
    betType: headerRow ? HEADER.exec(rowText(headerRow))![0] : null,
    headerLegCount: count ? Number(count[1]) : null,
    boosted: false,
    bonusBet: false,
    price: absent(),
    stake: absent(),
    payout: absent(),
    currency: null,
    betId: absent(),
    legs,
    needsReview: false,
    cents: { stake: null, payout: null },
    added: null,
    distrustUnverifiedPrice: null,
  };
  return { bets: [bet], warnings: ['PrizePicks layout is known only from OCR transcripts (LAYOUTS.md §4); every side needs review'] };
}
