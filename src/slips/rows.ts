import type { OcrPage, SlipWord } from './schema.js';
import { alnumCount, readOdds } from './text.js';

/** One visual row: words sharing a baseline band, left to right. */
export interface Row {
  words: SlipWord[];
  text: string;
  /** Median word height in px; null for pasted text. */
  height: number | null;
  y0: number | null;
  y1: number | null;
  /** Lowest word confidence on the row (0..1). */
  conf: number;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

export function makeRow(words: SlipWord[]): Row {
  const boxed = words.filter((w) => w.bbox);
  const heights = boxed.map((w) => w.bbox!.y1 - w.bbox!.y0);
  return {
    words,
    text: words.map((w) => w.text).join(' '),
    height: boxed.length ? median(heights) : null,
    y0: boxed.length ? Math.min(...boxed.map((w) => w.bbox!.y0)) : null,
    y1: boxed.length ? Math.max(...boxed.map((w) => w.bbox!.y1)) : null,
    conf: words.length ? Math.min(...words.map((w) => w.conf)) : 0,
  };
}

/**
 * Rebuilds visual rows from word boxes, not from tesseract's reading order: tesseract puts a
 * right-aligned price or a second footer column in a block of its own, far from its row.
 * Two words share a row when their vertical centres are closer than half the smaller height.
 */
export function rowsFromWords(words: SlipWord[]): Row[] {
  const boxed = words.filter((w) => w.bbox !== null);
  const centre = (w: SlipWord) => (w.bbox!.y0 + w.bbox!.y1) / 2;
  const typical = median(boxed.map((w) => w.bbox!.y1 - w.bbox!.y0));
  // A hyphen or dot gets a box a few px tall that sits off the row's centre; it joins the row later.
  const isSpeck = (w: SlipWord) => w.bbox!.y1 - w.bbox!.y0 < typical * 0.35 && alnumCount(w.text) === 0;
  const sorted = [...boxed].filter((w) => !isSpeck(w)).sort((a, b) => centre(a) - centre(b));
  const groups: SlipWord[][] = [];
  for (const word of sorted) {
    const h = word.bbox!.y1 - word.bbox!.y0;
    const group = groups.find((g) =>
      g.some((o) => {
        const oh = o.bbox!.y1 - o.bbox!.y0;
        return Math.abs(centre(o) - centre(word)) < Math.min(h, oh) / 2;
      }),
    );
    if (group) group.push(word);
    else groups.push([word]);
  }
  for (const speck of boxed.filter(isSpeck)) {
    const c = centre(speck);
    const host = groups.find((g) => g.some((o) => o.bbox!.y0 <= c && c <= o.bbox!.y1));
    if (host) host.push(speck);
    else groups.push([speck]);
  }
  return groups
    .map((g) => makeRow([...g].sort((a, b) => a.bbox!.x0 - b.bbox!.x0)))
    .sort((a, b) => (a.y0 ?? 0) - (b.y0 ?? 0));
}

/** Pasted text: one row per non-empty line, words split on whitespace, full confidence, no boxes. */
export function rowsFromText(text: string): Row[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => makeRow(line.split(/\s+/).map((t) => ({ text: t, conf: 1, bbox: null }))));
}

/** Bet headers of every layout: `Same Game Parlay`, `4 leg parlay`, `2 Picks`, `SGP`, `4-pick Power Play`, `2 Pick Round Robin`. */
const BET_HEADER = /parlay|\bpicks?\b|round robin|\bsgp(x|max)?\b|\b(power|flex) play\b/i;

const isPriceRow = (row: Row): boolean => row.words.length > 0 && row.words.every((w) => readOdds(w.text) !== null);

/**
 * Screens print a bet's price at the right of its header row (`Same Game Parlay™ | +1211`);
 * pasted text often moves it to the next line, where a layout parser would take it for leg 1's
 * price. A header row with no price of its own gets back the price-only lines right under it
 * (two for a boosted slip: old and new price).
 */
export function joinHeaderPrices(rows: Row[]): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    if (!BET_HEADER.test(row.text) || row.words.some((w) => readOdds(w.text))) {
      out.push(row);
      continue;
    }
    const words = [...row.words];
    while (i + 1 < rows.length && isPriceRow(rows[i + 1]!) && words.length - row.words.length < 2) {
      words.push(...rows[i + 1]!.words);
      i += 1;
    }
    out.push(words.length === row.words.length ? row : makeRow(words));
  }
  return out;
}

export function rowsFromPage(page: OcrPage): Row[] {
  return rowsFromWords(page.words);
}

/**
 * Splits a row into runs of words separated by wide gaps (left text vs a right-aligned price or
 * a second column). Pasted text has no geometry, so it stays one run.
 */
export function segments(row: Row): SlipWord[][] {
  const out: SlipWord[][] = [];
  const gap = (row.height ?? 0) * 2.2;
  let current: SlipWord[] = [];
  let lastX1: number | null = null;
  for (const w of row.words) {
    if (w.bbox && lastX1 !== null && w.bbox.x0 - lastX1 > gap && current.length) {
      out.push(current);
      current = [];
    }
    current.push(w);
    lastX1 = w.bbox ? w.bbox.x1 : lastX1;
  }
  if (current.length) out.push(current);
  return out;
}
