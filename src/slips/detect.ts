import type { Row } from './rows.js';
import type { Book, Field } from './schema.js';

/**
 * Tells the book from its label vocabulary and id formats (LAYOUTS.md §6), never from logos:
 * OCR mangles them (`Hard Rock` → `Hed Rock`). A tie is not broken by preference.
 */
const SIGNALS: Record<Book, Array<[RegExp, number]>> = {
  fanduel: [
    [/same game parlay/i, 3],
    [/(?<!\d)\d+ leg parlay/, 3],
    [/total wager/i, 3],
    [/total payout/i, 2],
    [/won on fanduel/i, 4],
    [/bet id:/i, 2],
    [/[O0]\/\d{7}\/\d{7}/, 4],
    [/\d{1,2}:\d{2}(am|pm) (et|ct)\b/i, 1],
    [/PROFIT BOOST/, 1],
  ],
  draftkings: [
    [/bet placed/i, 3],
    [/wager: ?\$/i, 3],
    [/to pay: ?\$/i, 3],
    [/paid: ?\$/i, 2],
    [/\bDK\d{15,20}\b/, 4],
    [/(?<!\d)\d+ picks? (parlay|round robin)/i, 3],
    [/\bsgpx\b/i, 2],
    [/placed: [A-Z][a-z]{2} \d{1,2}, \d{4}/i, 3],
    [/\b[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}(:\d{2})? (AM|PM)\b/, 2],
    [/\b(sun|mon|tue|wed|thu|fri|sat|today) \d{1,2}:\d{2} (am|pm)\b/i, 1],
    [/\bhide picks\b/i, 2],
  ],
  hardrock: [
    [/\d-bet parlay/i, 4],
    [/\bsgpmax\b/i, 3],
    [/hard rock/i, 2],
    [/won on hard rock/i, 4],
    [/boosted payout/i, 3],
    [/\bID: ?\d{19}\b/, 4],
    [/early cash out/i, 3],
    [/hide selections/i, 3],
    [/\bTO WIN\b/, 2],
    [/today, \d{1,2}:\d{2}(am|pm) (edt|est|cdt|cst)/i, 2],
    [/profit boost applied/i, 3],
  ],
  prizepicks: [
    [/\d-pick (power|flex) play/i, 5],
    [/\b(power|flex) play\b/i, 2],
    [/\bless\b.*\bmore\b|\bmore\b.*\bless\b/i, 1],
    [/^[A-Z]{2,4} [•·] [A-Z-]{1,5} [•·] #\d{1,2}$/m, 3],
  ],
};

export interface Detection {
  book: Field<Book>;
  scores: Record<Book, number>;
}

export function detectBook(rows: Row[]): Detection {
  const text = rows.map((r) => r.text).join('\n');
  const scores = Object.fromEntries(
    (Object.keys(SIGNALS) as Book[]).map((b) => [b, SIGNALS[b].reduce((s, [re, w]) => s + (re.test(text) ? w : 0), 0)]),
  ) as Record<Book, number>;
  const ranked = (Object.entries(scores) as [Book, number][]).sort((a, b) => b[1] - a[1]);
  const [top, second] = ranked;
  const best = top![1];
  const runnerUp = second![1];
  if (best === 0) {
    return { scores, book: { value: null, raw: null, confidence: 0, needsReview: true, reasons: ['no sportsbook fingerprint found; pass --book'] } };
  }
  if (best === runnerUp) {
    return {
      scores,
      book: { value: null, raw: null, confidence: 0, needsReview: true, reasons: [`${top![0]} and ${second![0]} score the same; pass --book`] },
    };
  }
  const confidence = Math.round((best / (best + runnerUp)) * 100) / 100;
  const weak = best < 3;
  return {
    scores,
    book: {
      value: top![0],
      raw: null,
      confidence,
      needsReview: weak,
      reasons: weak ? [`only weak ${top![0]} evidence (score ${best})`] : [],
    },
  };
}
