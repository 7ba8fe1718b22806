import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse/sync';
import { arrayRecord, LineRecord, type CsvRecord } from './csv-record.js';

export { numberCell, type CsvRecord } from './csv-record.js';

/**
 * CSV reading as csv-parse reads it with { bom, skip_empty_lines, relax_column_count } (the one
 * configuration the history loaders use). Text without a double quote cannot hold a quoted field,
 * so it is split directly, exactly as csv-parse would: a leading BOM dropped, the record delimiter
 * is the first of \r\n, \n or \r in the text (and only that one), records are split on commas,
 * empty lines are skipped. Text with a quote goes through csv-parse itself.
 */

const BOM = '\uFEFF';

/** The record delimiter csv-parse discovers: the first \r\n, \n or \r of the text; null when none. */
function discoverDelimiter(text: string, from = 0): string | null {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) return text.charCodeAt(i + 1) === 10 ? '\r\n' : '\r';
    if (c === 10) return '\n';
  }
  return null;
}

/** Every record's cells, or null when the text is not CSV. */
function parseRows(text: string): string[][] | null {
  if (text.includes('"')) {
    try {
      return parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
    } catch {
      return null;
    }
  }
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const delimiter = discoverDelimiter(body);
  const lines = delimiter === null ? [body] : body.split(delimiter);
  const rows: string[][] = [];
  for (const line of lines) if (line.length > 0) rows.push(line.split(','));
  return rows;
}

/** A CSV parsed into header-keyed records, plus the header, or null when the text is not CSV. */
export function readCsv(text: string): { header: string[]; records: Record<string, string>[] } | null {
  const rows = parseRows(text);
  if (rows === null) return null;
  const [header, ...body] = rows;
  if (!header) return null;
  const records = body.map((cells) => {
    const rec: Record<string, string> = {};
    header.forEach((h, i) => (rec[h] = cells[i] ?? ''));
    return rec;
  });
  return { header, records };
}

/**
 * A column's position by name, as readCsv's header-keyed record resolves it: the LAST column of
 * that name (later keys overwrite earlier ones); -1 when the header lacks it.
 */
export function columnIndex(header: readonly string[], name: string): number {
  return header.lastIndexOf(name);
}

/** Bytes read per chunk when streaming a file. */
const CHUNK_BYTES = 1 << 20;

/** The file's text in decoded pieces, read in chunks (never the whole file at once). */
function* textChunks(path: string, chunkBytes = CHUNK_BYTES): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(chunkBytes);
    const decoder = new StringDecoder('utf8');
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) break;
      const piece = decoder.write(buf.subarray(0, n));
      if (piece.length > 0) yield piece;
    }
    const rest = decoder.end();
    if (rest.length > 0) yield rest;
  } finally {
    closeSync(fd);
  }
}

export interface CsvFileScan {
  /**
   * sha256 (hex) of the file's bytes. For UTF-8 text (every history file) that is the hash of the
   * text readFileSync(file, 'utf8') decodes, which earlier imports keyed their markers by.
   */
  hash: string;
  /** Whether the text holds a double quote (then it is parsed whole by csv-parse). */
  quoted: boolean;
}

const QUOTE = 0x22;

/** One pass over the file's bytes in chunks (nothing decoded): its content hash, and whether the fast split applies. */
export function scanCsvFile(path: string): CsvFileScan {
  const hash = createHash('sha256');
  let quoted = false;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      const bytes = buf.subarray(0, n);
      hash.update(bytes);
      // A '"' byte is a double quote in UTF-8: no multi-byte sequence holds one.
      if (!quoted && bytes.includes(QUOTE)) quoted = true;
    }
  } finally {
    closeSync(fd);
  }
  return { hash: hash.digest('hex'), quoted };
}

/**
 * Streams a CSV file record by record: `onHeader` with the header (return false to stop), then
 * `onRecord` with each record and its 0-based index among the records. Memory stays flat: a
 * quote-free file is read in chunks and split as csv-parse would split it, each line read in place
 * (the record is valid during its callback only); a file with a quote is read whole and parsed by
 * csv-parse. Returns false when the file is not CSV (nothing is emitted).
 */
export function streamCsvFile(
  path: string,
  quoted: boolean,
  onHeader: (header: string[]) => boolean,
  onRecord: (record: CsvRecord, index: number) => void,
  chunkBytes = CHUNK_BYTES,
): boolean {
  if (quoted) {
    let text = '';
    for (const piece of textChunks(path, chunkBytes)) text += piece;
    const rows = parseRows(text);
    if (rows === null) return false;
    const [header, ...body] = rows;
    if (!header) return false;
    if (!onHeader(header)) return true;
    body.forEach((cells, i) => onRecord(arrayRecord(cells), i));
    return true;
  }
  const record = new LineRecord();
  let delimiter: string | null = null;
  let pending = '';
  let first = true;
  let header: string[] | null = null;
  let stopped = false;
  let index = 0;
  /** The line text.slice(start, end): the header, a record, or nothing when empty. */
  const line = (text: string, start: number, end: number) => {
    if (stopped || start === end) return;
    record.read(text, start, end);
    if (header === null) {
      header = record.cells();
      if (!onHeader(header)) stopped = true;
      return;
    }
    onRecord(record, index++);
  };
  /** Every line of text ended by the delimiter; returns where the unended rest starts. */
  const lines = (text: string, d: string): number => {
    let start = 0;
    for (let end = text.indexOf(d); end >= 0 && !stopped; end = text.indexOf(d, start)) {
      line(text, start, end);
      start = end + d.length;
    }
    return start;
  };
  for (let piece of textChunks(path, chunkBytes)) {
    if (first) {
      first = false;
      if (piece.startsWith(BOM)) piece = piece.slice(1);
    }
    pending += piece;
    if (delimiter === null) {
      delimiter = discoverDelimiter(pending);
      // A lone \r at the end of a piece may be the start of \r\n: decide with the next piece.
      if (delimiter === '\r' && pending.endsWith('\r') && pending.indexOf('\r') === pending.length - 1) {
        delimiter = null;
        continue;
      }
      if (delimiter === null) continue;
    }
    // Every complete line of the buffer; the last one may be cut by the chunk and waits for the next.
    pending = pending.slice(lines(pending, delimiter));
    if (stopped) break;
  }
  if (!stopped) {
    if (delimiter === null && pending.length > 0) {
      // No delimiter anywhere (a one-line file), or only a trailing lone \r.
      const d = discoverDelimiter(pending);
      if (d === null) line(pending, 0, pending.length);
      else line(pending, lines(pending, d), pending.length);
    } else {
      line(pending, 0, pending.length);
    }
  }
  return header !== null;
}

export function hasColumns(header: readonly string[], required: readonly string[]): string[] {
  return required.filter((c) => !header.includes(c));
}

/** The result of a loader: parsed rows and a line for every row it had to skip (never silent). */
export interface LoadReport<T> {
  rows: T[];
  warnings: string[];
}
