import { MLB_TEAMS, NBA_TEAMS, WNBA_TEAMS } from '../../feeds/teams/index.js';
import type { StatType } from '../../domain/stats.js';
import { checkLine, emptyLeg, statForMarketLabel } from '../checks.js';
import { absent, flag, missing, readField } from '../fields.js';
import type { Row } from '../rows.js';
import type { Field, SlipLeg, SlipWord } from '../schema.js';
import { fold, normalizeToken, readLine, readMilestone, readMoney, readOdds, readSideWord } from '../text.js';
import type { BookParse, DraftBet } from './types.js';
import { priceField, textOf } from './common.js';

/**
 * Pasted text with no sportsbook fingerprint, read one line at a time. A leg is a line such as
 * `Jalen Brunson over 27.5 points`, `Jalen Brunson o27.5 pts -110`, `Karl-Anthony Towns Under
 * 11.5 Rebounds`, `Jalen Brunson points over 27.5` or `Jalen Brunson 25+ points`: a player's
 * name, a side and a line, and a stat that the stat alias parser knows, with an optional
 * American price at the end of the same line. Nothing is inferred across lines: a price on a
 * line of its own is no leg's price, and a line that has a side but not the rest comes back with
 * the missing parts null and flagged.
 * The book stays unknown, and stake, payout and bet id are not read.
 */

/** `Parlay +600`, `3 leg parlay`, `SGP`, `2-pick`, `Round Robin`: a bet header, not a leg. */
const HEADER = /\b(parlay|sgp(x|max)?|same game|round robin)\b|\b\d+\s*-?\s*(legs?|picks?|bets?)\b/i;
const HEADER_COUNT = /\b(\d+)\s*-?\s*(?:legs?|picks?|bets?)\b/i;

/** Compact side and line as typed: `o27.5`, `U11.5`. */
const COMPACT_SIDE = /^([ou])(\d{1,3}(?:\.\d)?)$/i;

/** A list marker before a leg: `1.`, `2)`, `-`, `•`, `*`. */
const LIST_MARKER = /^(\d{1,2}[.)]|[-•·*])$/;
/** Punctuation typed between name and side: `Jalen Brunson - Over 27.5 Points`, `Jalen Brunson: o27.5`. */
const SEPARATOR = /^[-:|,]$/;

/** A name word: letters, with apostrophes, hyphens and dots inside (`Ja'Marr`, `Karl-Anthony`, `Jr.`). */
const NAME_WORD = /^\p{L}[\p{L}\p{M}'.-]*$/u;

/** Words that make a line a team or game market, not one player's stat. */
const MARKET_WORDS = new Set([
  'total',
  'totals',
  'team',
  'teams',
  'game',
  'match',
  'spread',
  'moneyline',
  'ml',
  'half',
  'quarter',
  'period',
  'inning',
  'innings',
  'combined',
  'both',
  'alt',
  'alternate',
  'parlay',
  'fc',
  'cf',
  'sc',
  'afc',
  'united',
  'city',
  'club',
]);

/** Team nicknames (`Knicks`, `Red Sox` → `sox`), full names and codes of the graded leagues, folded. */
const TEAM_WORDS: ReadonlySet<string> = (() => {
  const words = new Set<string>();
  const teams: Array<{ name: string; aliases: readonly string[] }> = [...NBA_TEAMS, ...WNBA_TEAMS, ...MLB_TEAMS];
  for (const team of teams) {
    for (const name of [team.name, ...team.aliases]) {
      const parts = fold(name).split(/\s+/);
      words.add(parts[parts.length - 1]!);
    }
  }
  return words;
})();

const foldWord = (w: SlipWord): string => fold(normalizeToken(w.text)).replace(/[,;:]+$/, '');

/** Why these words are not one player's name, or null when they read as one. */
function nameProblem(words: readonly SlipWord[]): string | null {
  const text = textOf(words);
  if (words.length < 2) return `"${text}" is not a full name (first and last name needed)`;
  if (words.length > 5) return `"${text}" is too long to be one player's name`;
  if (!words.every((w) => NAME_WORD.test(normalizeToken(w.text)))) return `"${text}" is not a name (digits or symbols in it)`;
  const folded = words.map(foldWord);
  const market = folded.find((w) => MARKET_WORDS.has(w));
  if (market) return `"${text}" reads as a team or game market ("${market}"), not a player`;
  if (TEAM_WORDS.has(folded[folded.length - 1]!)) return `"${text}" ends in a team name, not a player`;
  return null;
}

/** The stat named by these words, through the same alias parser as `--stat`; null when unknown. */
function statOf(words: readonly SlipWord[]): StatType | null {
  if (!words.length) return null;
  return statForMarketLabel(words.map((w) => normalizeToken(w.text).replace(/[,;:.]+$/, '')).join(' '));
}

interface SideToken {
  at: number;
  side: 'over' | 'under';
  /** The line when typed in the same token (`o27.5`) or as a milestone (`25+` → 24.5). */
  line: number | null;
  milestone: boolean;
  /** Whether the token also holds the line, so the next token is not the line. */
  holdsLine: boolean;
}

function findSide(words: readonly SlipWord[]): SideToken | null {
  for (let at = 0; at < words.length; at += 1) {
    const text = normalizeToken(words[at]!.text);
    const word = readSideWord(text);
    if (word === 'over' || word === 'under') return { at, side: word, line: null, milestone: false, holdsLine: false };
    const compact = COMPACT_SIDE.exec(text);
    if (compact) {
      return { at, side: compact[1]!.toLowerCase() === 'o' ? 'over' : 'under', line: Number(compact[2]), milestone: false, holdsLine: true };
    }
    const n = readMilestone(text);
    // "N+" is "at least N": the same bet as over N-0.5 on a whole-number stat.
    if (n !== null) return { at, side: 'over', line: n - 0.5, milestone: true, holdsLine: true };
  }
  return null;
}

/** Drops separator punctuation at either end of a run of words (`Jalen Brunson -`, `- points`). */
function trimSeparators(words: SlipWord[]): SlipWord[] {
  const isSep = (w: SlipWord) => SEPARATOR.test(normalizeToken(w.text));
  let start = 0;
  let end = words.length;
  while (start < end && isSep(words[start]!)) start += 1;
  while (end > start && isSep(words[end - 1]!)) end -= 1;
  return words.slice(start, end);
}

/** Typed but not readable as this field: null, the text kept in `raw`, flagged with the reason only. */
function unreadable<T>(words: readonly SlipWord[], reason: string): Field<T> {
  return { value: null, raw: textOf(words), confidence: 1, needsReview: true, reasons: [reason] };
}

/** A leg-shaped line has a side (`over`, `o27.5`, `25+`); anything else is not a leg. */
function genericLeg(row: Row): SlipLeg | null {
  let words = row.words.filter((w) => normalizeToken(w.text).length > 0);
  // Amount lines (`Wager $10 to win $45`) are not legs, whatever words they hold.
  if (words.some((w) => readMoney(w.text))) return null;
  if (words.length > 1 && LIST_MARKER.test(normalizeToken(words[0]!.text))) words = words.slice(1);
  const last = words[words.length - 1];
  const priceWord = last && readOdds(last.text) ? last : null;
  if (priceWord) words = words.slice(0, -1);
  const side = findSide(words);
  if (!side) return null;

  let nameWords = trimSeparators(words.slice(0, side.at));
  const sideWord = words[side.at]!;
  const lineWord = side.holdsLine ? sideWord : (words[side.at + 1] ?? null);
  const tail = trimSeparators(words.slice(side.at + (side.holdsLine ? 1 : 2)));

  const leg = emptyLeg();
  leg.selection = readField(textOf(words), words);
  leg.side = readField(side.side, [sideWord]);

  // The line: in the side token, or the next token, unsigned (a signed number is a spread).
  if (side.holdsLine) leg.line = readField(side.line, [sideWord]);
  else {
    const read = lineWord ? readLine(lineWord.text) : null;
    if (read && !read.signed) leg.line = readField(read.value, [lineWord!]);
    else leg.line = lineWord ? unreadable([lineWord], `"${lineWord.text}" is not a line`) : missing('side typed without a line');
  }

  // The stat after the line (`over 27.5 points`) or at the end of the name (`Jalen Brunson points over 27.5`), never both.
  let statWords: SlipWord[] = tail;
  let stat = statOf(tail);
  if (tail.length === 0) {
    for (const n of [4, 3, 2, 1]) {
      if (nameWords.length - n < 2) continue;
      const suffix = nameWords.slice(-n);
      const found = statOf(suffix);
      if (found) {
        statWords = suffix;
        stat = found;
        nameWords = trimSeparators(nameWords.slice(0, -n));
        break;
      }
    }
  }

  if (nameWords.length === 0) leg.player = missing('no player name before the side');
  else {
    const problem = nameProblem(nameWords);
    leg.player = problem ? unreadable(nameWords, problem) : readField(textOf(nameWords), nameWords);
    // A name ending in a stat word while another stat follows the line cannot be split with confidence.
    if (!problem && tail.length && statOf(nameWords.slice(-1))) flag(leg.player, `name "${textOf(nameWords)}" ends in a stat word`);
  }

  if (statWords.length === 0) {
    leg.market = absent();
    leg.stat = missing('no stat typed after the line');
  } else {
    leg.market = readField(textOf(statWords), statWords);
    // A market propgrade does not grade (`passing yards`) is kept raw in `market`, as the book parsers do.
    if (stat) leg.stat = readField<StatType>(stat, statWords);
  }
  checkLine(leg.line, stat, leg.market.value, side.milestone);
  leg.price = priceField(priceWord);
  return leg;
}

function newBet(header: Row | null): DraftBet {
  const words = header?.words ?? [];
  const odds = words.filter((w) => readOdds(w.text));
  const text = textOf(words.filter((w) => !readOdds(w.text)));
  const count = HEADER_COUNT.exec(text);
  let price: Field<number> = absent();
  if (odds.length === 1) price = priceField(odds[0]!);
  else if (odds.length > 1) price = unreadable(odds, 'more than one price on the header line (a boosted price?)');
  return {
    betType: header ? text || null : null,
    headerLegCount: count && !/round robin/i.test(text) ? Number(count[1]) : null,
    boosted: /boost/i.test(text),
    bonusBet: false,
    price,
    stake: absent(),
    payout: absent(),
    currency: null,
    betId: absent(),
    legs: [],
    needsReview: false,
    cents: { stake: null, payout: null },
    added: null,
    distrustUnverifiedPrice: null,
  };
}

/**
 * One bet per header line (legs before any header form a bet of their own); one leg per
 * leg-shaped line. A header's price is read from the header line only (`joinHeaderPrices` puts
 * back one that the paste moved to the next line); a price alone on any other line belongs to no leg.
 */
export function parseGeneric(rows: Row[]): BookParse {
  const warnings: string[] = [];
  const bets: DraftBet[] = [];
  let current: DraftBet | null = null;
  for (const row of rows) {
    const leg = genericLeg(row);
    if (leg) {
      if (!current) {
        current = newBet(null);
        bets.push(current);
      }
      current.legs.push(leg);
    } else if (HEADER.test(textOf(row.words))) {
      current = newBet(row);
      bets.push(current);
    } else if (row.words.length > 0 && row.words.every((w) => readOdds(w.text) !== null)) {
      warnings.push(`price "${textOf(row.words)}" on a line of its own is not attached to any leg`);
    }
  }
  if (rows.some((r) => r.words.some((w) => readMoney(w.text)))) {
    warnings.push('stake and payout are not read from text without a sportsbook layout');
  }
  return { bets: bets.filter((b) => b.legs.length > 0), warnings };
}
