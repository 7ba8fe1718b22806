/**
 * One CSV record's cells as the history loaders read them. A streamed file's record is read in
 * place: the cells are positions into the decoded text, and a cell becomes a string or a number
 * only when a loader asks for it (splitting every line into strings was most of an import's parse,
 * docs/performance.md). A parsed record (csv-parse, or a header-keyed record) is the same view over
 * an array of cell strings, so a loader reads both alike.
 */
export interface CsvRecord {
  /** Cell `i`'s text: '' for a cell this record does not have, undefined for a column the header lacks (`i` < 0). */
  text(i: number): string | undefined;
  /** Cell `i` as numberCell reads its text. */
  number(i: number): number | null;
  /** Every cell as a string, in order. */
  cells(): string[];
}

/** A CSV cell as a finite number, or null when empty / not a number (never 0 for a blank). */
export function numberCell(cell: string | undefined): number | null {
  if (cell === undefined) return null;
  const t = cell.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];

/**
 * numberCell of text.slice(start, end), read without making the string when the cell is plainly a
 * decimal: an optional '-', digits, at most one '.' with 1 to 6 digits after it, 15 digits in all.
 * Such a number is an integer below 2^53 divided by a power of ten, both exact doubles, so the one
 * division rounds to the nearest double of the decimal, which is what Number() gives. Any other
 * cell (blank, spaces, '+', exponents, more digits) is read by numberCell itself.
 */
export function numberIn(text: string, start: number, end: number): number | null {
  let i = start;
  const negative = i < end && text.charCodeAt(i) === 45;
  if (negative) i++;
  let value = 0;
  let digits = 0;
  let decimals = -1;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
      if (decimals >= 0) decimals++;
    } else if (c === 46 && decimals < 0) decimals = 0;
    else return numberCell(text.slice(start, end));
  }
  if (digits === 0 || digits > 15 || decimals === 0 || decimals > 6) return numberCell(text.slice(start, end));
  if (decimals > 0) value /= POWERS_OF_TEN[decimals] as number;
  return negative ? -value : value;
}

/** A record over an array of cell strings. */
export function arrayRecord(cells: readonly string[]): CsvRecord {
  return {
    text: (i) => (i < 0 ? undefined : (cells[i] ?? '')),
    number: (i) => (i < 0 ? null : numberCell(cells[i] ?? '')),
    cells: () => [...cells],
  };
}

/**
 * The record of one line of a streamed file, read in place. One instance is reused for every line
 * of a stream (`read` moves it), so a loader must take what it needs during its callback.
 */
export class LineRecord implements CsvRecord {
  private text_ = '';
  /** Where each cell starts and ends in text_ (cell k is [starts[k], ends[k])). */
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  /** How many cells the line has. */
  count = 0;

  /** Points the record at the line text.slice(start, end), split on commas as csv-parse splits a quote-free line. */
  read(text: string, start: number, end: number): this {
    this.text_ = text;
    let k = 0;
    let from = start;
    for (;;) {
      if (k === this.starts.length) this.grow();
      const comma = text.indexOf(',', from);
      this.starts[k] = from;
      if (comma < 0 || comma >= end) {
        this.ends[k++] = end;
        break;
      }
      this.ends[k++] = comma;
      from = comma + 1;
    }
    this.count = k;
    return this;
  }

  text(i: number): string | undefined {
    if (i < 0) return undefined;
    return i < this.count ? this.text_.slice(this.starts[i], this.ends[i]) : '';
  }

  number(i: number): number | null {
    if (i < 0 || i >= this.count) return null;
    return numberIn(this.text_, this.starts[i] as number, this.ends[i] as number);
  }

  cells(): string[] {
    const out: string[] = new Array(this.count);
    for (let k = 0; k < this.count; k++) out[k] = this.text_.slice(this.starts[k], this.ends[k]);
    return out;
  }

  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }
}
