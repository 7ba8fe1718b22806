import { checkLine, emptyLeg, statForMarketLabel } from '../checks.js';
import { absent, flag, readField } from '../fields.js';
import { segments, type Row } from '../rows.js';
import type { Field, SlipLeg, SlipWord } from '../schema.js';
import {
  alnumCount,
  letterCount,
  looksLikePrice,
  nameKey,
  normalizeToken,
  readLine,
  readMilestone,
  readMoney,
  readOdds,
  readSideWord,
  type Money,
  type SideWord,
} from '../text.js';

export const textOf = (words: readonly SlipWord[]): string => words.map((w) => normalizeToken(w.text)).join(' ');

/** Icon debris (jersey, logo, radio circle): no two letters or digits, or a weak short token. */
function isDebris(w: SlipWord): boolean {
  if (readMilestone(w.text) !== null || readOdds(w.text) || readLine(w.text)) return false;
  const n = alnumCount(w.text);
  if (n < 2) return true;
  return n <= 3 && w.conf < 0.5;
}

/** A row with nothing readable on it (icons, watermark crumbs). */
export function isJunkRow(row: Row): boolean {
  return row.words.every((w) => isDebris(w) || w.conf < 0.3);
}

/**
 * Drops icon debris at the start of a row. When the row below gives the text column's left edge
 * (FanDuel, DraftKings legs), words ending left of it are icons whatever OCR made of them.
 */
export function stripLeading(words: readonly SlipWord[], columnX0: number | null = null, columnOnly = false): SlipWord[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    const leftOfColumn = columnX0 !== null && w.bbox !== null && w.bbox.x1 < columnX0 - 4;
    if (leftOfColumn || (!columnOnly && isDebris(w))) i += 1;
    else break;
  }
  return words.slice(i);
}

/** Drops trailing debris (a chevron read as `uy`, `PS`). */
export function stripTrailing(words: readonly SlipWord[]): SlipWord[] {
  let end = words.length;
  while (end > 0 && isDebris(words[end - 1]!)) end -= 1;
  return words.slice(0, end);
}

export interface Selection {
  nameWords: SlipWord[];
  side: SideWord | null;
  sideWord: SlipWord | null;
  lineWord: SlipWord | null;
  milestoneWord: SlipWord | null;
  /** Words after the line or milestone (`Yards`, `Receptions`). */
  tailWords: SlipWord[];
  /** Text the layout does not fit (`Both Teams combined to score…`): no side or line read from it. */
  freeText: boolean;
}

/**
 * Reads a selection line: `Name Over 45.5`, `Over 174.5`, `Name 60+ Yards`, `Team -5.5`,
 * `Under (53.5)`, `4+`, `Yes`, `Name`. Odds must be removed by the caller.
 */
export function readSelection(words: readonly SlipWord[]): Selection {
  const sel: Selection = { nameWords: [], side: null, sideWord: null, lineWord: null, milestoneWord: null, tailWords: [], freeText: false };
  const sideAt = words.findIndex((w) => readSideWord(w.text) !== null);
  const mileAt = words.findIndex((w) => readMilestone(w.text) !== null);
  if (sideAt >= 0 && (mileAt < 0 || sideAt < mileAt)) {
    sel.nameWords = words.slice(0, sideAt);
    sel.sideWord = words[sideAt]!;
    sel.side = readSideWord(sel.sideWord.text);
    const next = words[sideAt + 1];
    if (next && readLine(next.text)) {
      sel.lineWord = next;
      sel.tailWords = words.slice(sideAt + 2);
    } else sel.tailWords = words.slice(sideAt + 1);
    return sel;
  }
  if (mileAt >= 0) {
    sel.nameWords = words.slice(0, mileAt);
    sel.milestoneWord = words[mileAt]!;
    sel.tailWords = words.slice(mileAt + 1);
    return sel;
  }
  const last = words[words.length - 1];
  const lastLine = last ? readLine(last.text) : null;
  if (last && lastLine && lastLine.signed) {
    sel.nameWords = words.slice(0, -1);
    sel.lineWord = last;
    return sel;
  }
  sel.nameWords = [...words];
  sel.freeText = words.some((w) => /\d/.test(w.text)) || words.length > 4;
  return sel;
}

/** The last odds token on a row and the words left without it. */
export function takeOdds(words: readonly SlipWord[]): { odds: SlipWord | null; rest: SlipWord[] } {
  for (let i = words.length - 1; i >= 0; i -= 1) {
    if (readOdds(words[i]!.text)) return { odds: words[i]!, rest: [...words.slice(0, i), ...words.slice(i + 1)] };
  }
  return { odds: null, rest: [...words] };
}

/**
 * The price column of a row: readable odds, else a price-shaped token in a separate right-hand
 * run (`110` for `-110` with its sign lost), which is kept as unreadable rather than dropped.
 */
export function takePrice(row: Row): { odds: SlipWord | null; rest: SlipWord[] } {
  const taken = takeOdds(row.words);
  if (taken.odds) return taken;
  const runs = segments(row);
  const last = runs.length > 1 ? runs[runs.length - 1]! : [];
  const word = last.length === 1 && looksLikePrice(last[0]!.text) ? last[0]! : null;
  return word ? { odds: word, rest: row.words.filter((w) => w !== word) } : taken;
}

export function priceField(word: SlipWord | null): Field<number> {
  if (!word) return absent();
  return readField(readOdds(word.text)?.value ?? null, [word]);
}

export interface LegParts {
  selectionWords: SlipWord[];
  /** The player's name, already cut out of wherever the layout prints it. */
  playerWords: SlipWord[] | null;
  /** A second printing of the name to agree with (FanDuel's caps subtitle). */
  playerEcho: SlipWord[] | null;
  marketWords: SlipWord[];
  sel: Selection;
  priceWord: SlipWord | null;
  /** Name as displayed; Hard Rock prints it only in caps. */
  playerDisplay?: (text: string) => string;
}

/** Assembles a leg and runs the per-leg structural checks. */
export function buildLeg(parts: LegParts): SlipLeg {
  const leg = emptyLeg();
  const { sel } = parts;
  leg.selection = readField(textOf(parts.selectionWords) || null, parts.selectionWords);
  if (parts.playerWords && parts.playerWords.length) {
    const raw = textOf(parts.playerWords);
    const display = parts.playerDisplay ? parts.playerDisplay(raw) : raw;
    leg.player = readField(letterCount(display) >= 2 ? display : null, parts.playerWords, raw);
    if (parts.playerEcho) {
      const echo = textOf(parts.playerEcho);
      if (nameKey(echo) !== nameKey(raw)) flag(leg.player, `name "${raw}" disagrees with "${echo}" printed under it`);
    }
  }
  const marketText = textOf(parts.marketWords);
  leg.market = parts.marketWords.length ? readField(marketText, parts.marketWords) : absent();
  const stat = leg.player.value !== null && marketText ? statForMarketLabel(marketText) : null;
  if (stat) leg.stat = readField(stat, parts.marketWords);
  if (sel.side === 'over' || sel.side === 'under') {
    leg.side = readField(sel.side, [sel.sideWord!]);
  }
  if (sel.milestoneWord) {
    const n = readMilestone(sel.milestoneWord.text)!;
    // "N+" is "at least N": the same bet as over N-0.5 on a whole-number stat.
    leg.line = readField(n - 0.5, [sel.milestoneWord]);
    leg.side = readField('over', [sel.milestoneWord]);
  } else if (sel.lineWord) {
    leg.line = readField(readLine(sel.lineWord.text)?.value ?? null, [sel.lineWord]);
  } else if ((sel.side === 'over' || sel.side === 'under') && !sel.lineWord) {
    leg.line = flag(absent<number>(), 'side printed without a readable line');
  }
  checkLine(leg.line, stat, marketText || null, sel.milestoneWord !== null);
  // An unreadable selection (`OVERAS` for `OVER 4.5`) may hide a side and a line: ask, don't assume none.
  if (leg.selection.needsReview && leg.side.value === null && leg.line.value === null && !sel.freeText) {
    leg.side = flag(leg.side, 'selection line not readable');
    leg.line = flag(leg.line, 'selection line not readable');
  }
  leg.price = priceField(parts.priceWord);
  return leg;
}

export interface LabelledAmount {
  label: string;
  money: Money;
  word: SlipWord;
}

/**
 * Pairs amounts with the labels printed above or below them (`$50.00 … $655.89` over
 * `TOTAL WAGER … TOTAL PAYOUT`) by x position, not reading order; by order for pasted text.
 */
export function pairAmounts(amountRow: Row, labelRow: Row, labels: RegExp): LabelledAmount[] {
  const moneyWords = amountRow.words.filter((w) => readMoney(w.text));
  const found: Array<{ label: string; words: SlipWord[] }> = [];
  const text = labelRow.words.map((w) => w.text).join(' ');
  const re = new RegExp(labels.source, 'gi');
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const start = text.slice(0, m.index).split(' ').filter(Boolean).length;
    const count = m[0].split(' ').length;
    found.push({ label: m[0], words: labelRow.words.slice(start, start + count) });
  }
  const centre = (ws: SlipWord[]) => (ws.every((w) => w.bbox) ? ws.reduce((s, w) => s + (w.bbox!.x0 + w.bbox!.x1) / 2, 0) / ws.length : null);
  const out: LabelledAmount[] = [];
  moneyWords.forEach((word, i) => {
    const x = centre([word]);
    let best = found[i];
    if (x !== null && found.every((f) => centre(f.words) !== null)) {
      // The label whose nearer edge is closest: amounts align left or right with their label.
      best = [...found].sort((a, b) => edgeDistance(a.words, word) - edgeDistance(b.words, word))[0];
    }
    if (best) out.push({ label: best.label.toLowerCase(), money: readMoney(word.text)!, word });
  });
  return out;
}

function edgeDistance(labelWords: SlipWord[], word: SlipWord): number {
  const lx0 = Math.min(...labelWords.map((w) => w.bbox!.x0));
  const lx1 = Math.max(...labelWords.map((w) => w.bbox!.x1));
  return Math.min(Math.abs(lx0 - word.bbox!.x0), Math.abs(lx1 - word.bbox!.x1));
}

export function moneyField(entry: LabelledAmount | undefined): { field: Field<number>; cents: boolean | null } {
  if (!entry) return { field: absent(), cents: null };
  return { field: readField(entry.money.value, [entry.word]), cents: entry.money.cents };
}

export const rowText = (row: Row): string => textOf(row.words);
