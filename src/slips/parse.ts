import { checkLegCount, checkMoney, checkPayout, finalizeLeg } from './checks.js';
import { detectBook } from './detect.js';
import { distrust } from './fields.js';
import { parseDraftKings } from './parsers/draftkings.js';
import { parseFanDuel } from './parsers/fanduel.js';
import { parseGeneric } from './parsers/generic.js';
import { parseHardRock } from './parsers/hardrock.js';
import { parsePrizePicks } from './parsers/prizepicks.js';
import type { BookParse, DraftBet } from './parsers/types.js';
import { joinHeaderPrices, rowsFromPage, rowsFromText, type Row } from './rows.js';
import type { Book, Field, OcrPage, SlipBet, SlipResult } from './schema.js';

export type BookChoice = Book | 'auto';

const PARSERS: Record<Book, (rows: Row[]) => BookParse> = {
  fanduel: parseFanDuel,
  draftkings: parseDraftKings,
  hardrock: parseHardRock,
  prizepicks: parsePrizePicks,
};

/** Runs the slip-level checks a parser cannot do alone, then drops the parser's working data. */
function finalizeBet(draft: DraftBet, book: Book | null, warnings: string[]): SlipBet {
  const { cents, added, distrustUnverifiedPrice, ...bet } = draft;
  checkMoney(bet.stake, cents.stake, book);
  checkMoney(bet.payout, cents.payout, book);
  // A single prints its price on the leg; a parlay prints one for the whole bet.
  const single = bet.legs.length === 1 && bet.price.value === null && bet.price.raw === null;
  const price: Field<number> = single ? bet.legs[0]!.price : bet.price;
  const verified = checkPayout(bet, { price, cents, added, book });
  if (!verified && distrustUnverifiedPrice) {
    if (price.value !== null) distrustUnverifiedPrice(price);
    else if (price.raw !== null) distrust(price, 'boosted price not readable');
  }
  bet.legs = bet.legs.map(finalizeLeg);
  if (bet.legs.length === 0) warnings.push('no legs could be read from this bet');
  checkLegCount(bet, warnings);
  bet.needsReview =
    bet.needsReview ||
    bet.legs.length === 0 ||
    bet.legs.some((l) => l.needsReview) ||
    [bet.price, bet.stake, bet.payout, bet.betId].some((f) => f.needsReview);
  return bet;
}

/**
 * Parses rows with the chosen (or detected) book's layout parser. Pasted text that no book
 * parser reads a leg from (no fingerprint, or a detected book whose layout does not fit) goes
 * through the generic line parser before giving up, unless `--book` chose the layout. The book
 * of generic text stays unknown. Never throws on odd input.
 */
export function parseRows(rows: Row[], options: { book?: BookChoice; source: 'image' | 'text' }): SlipResult {
  let warnings: string[] = [];
  const detection = detectBook(rows);
  const forced = options.book !== undefined && options.book !== 'auto';
  let bookField = detection.book;
  if (forced) {
    bookField = { value: options.book as Book, raw: null, confidence: 1, needsReview: false, reasons: ['chosen with --book'] };
    if (detection.book.value && detection.book.value !== options.book) {
      warnings.push(`the slip looks like ${detection.book.value}, but it was parsed as ${options.book} as asked`);
    }
  }
  const book = bookField.value;
  let bets: SlipBet[] = [];
  if (book) {
    const parsed = PARSERS[book](rows);
    warnings.push(...parsed.warnings);
    for (const draft of parsed.bets) bets.push(finalizeBet(draft, book, warnings));
  }
  const legsRead = bets.some((b) => b.legs.length > 0);
  if (options.source === 'text' && !forced && !legsRead) {
    const generic = parseGeneric(rows);
    if (generic.bets.some((b) => b.legs.length > 0)) {
      const reason = book
        ? `${book} words found, but its layout did not fit: read line by line as player, side, line, stat`
        : 'no sportsbook fingerprint: read line by line as player, side, line, stat';
      bookField = { value: null, raw: null, confidence: 0, needsReview: false, reasons: [reason] };
      warnings = [...(book ? [reason] : []), ...generic.warnings];
      bets = generic.bets.map((draft) => finalizeBet(draft, null, warnings));
    }
  }
  if (!bookField.value && bets.length === 0) warnings.push(...bookField.reasons);
  return {
    source: options.source,
    book: bookField,
    bets,
    needsReview: bookField.needsReview || bets.length === 0 || bets.some((b) => b.needsReview),
    warnings,
    ocr: null,
  };
}

export function parseOcrPage(page: OcrPage, book: BookChoice = 'auto'): SlipResult {
  return parseRows(rowsFromPage(page), { book, source: 'image' });
}

/**
 * Pasted slip text goes through the same parsers as OCR rows (full confidence, no geometry),
 * with a header's price put back on the header's row when the paste moved it to the next line.
 */
export function parseSlipText(text: string, book: BookChoice = 'auto'): SlipResult {
  return parseRows(joinHeaderPrices(rowsFromText(text)), { book, source: 'text' });
}
