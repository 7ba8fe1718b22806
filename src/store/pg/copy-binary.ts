/**
 * Rows in PostgreSQL's binary COPY format (the COPY documentation's "Binary Format"): a signature
 * and two zero words, then per row its field count and per field its byte length (-1 for null) and
 * bytes as the column type's binary receive function reads them, then -1. A number goes over as its
 * own 8 or 4 bytes and a text as its UTF-8 bytes: nothing is printed here or parsed there, and
 * nothing needs escaping.
 */

export type CopyKind = 'text' | 'json' | 'float8' | 'int4' | 'int8' | 'bool';

/** How a PostgreSQL column type goes in the format; null for a type the store does not declare. */
export function copyKindOf(sqlType: string): CopyKind | null {
  switch (sqlType) {
    case 'text':
      return 'text';
    case 'json':
      return 'json';
    case 'double precision':
      return 'float8';
    case 'integer':
      return 'int4';
    case 'bigint':
      return 'int8';
    case 'boolean':
      return 'bool';
    default:
      return null;
  }
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The size the encoded rows are cut into: large enough that the stream's bookkeeping is noise. */
const CHUNK_BYTES = 256 * 1024;
const TWO_32 = 4294967296;

/** Texts up to this length are written by a loop while they are ASCII: a native UTF-8 write per short text costs more than its bytes. */
const SHORT_TEXT = 64;

/** Fills fixed-size buffers and keeps the full ones. */
class ChunkWriter {
  readonly chunks: Buffer[] = [];
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  private o = 0;

  room(bytes: number): void {
    if (this.o + bytes <= this.buf.length) return;
    this.chunks.push(this.buf.subarray(0, this.o));
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.o = 0;
  }
  int16(v: number): void {
    this.room(2);
    this.view.setInt16(this.o, v);
    this.o += 2;
  }
  int32(v: number): void {
    this.room(4);
    this.view.setInt32(this.o, v);
    this.o += 4;
  }
  bytes(b: Buffer): void {
    this.room(b.length);
    this.o += b.copy(this.buf, this.o);
  }
  /** A text field: its length, then its UTF-8 bytes (at most 3 per UTF-16 unit). */
  text(s: string): void {
    const n = s.length;
    this.room(4 + n * 3);
    const start = this.o + 4;
    let i = 0;
    if (n <= SHORT_TEXT) {
      const buf = this.buf;
      for (; i < n; i++) {
        const code = s.charCodeAt(i);
        if (code >= 0x80) break;
        buf[start + i] = code;
      }
    }
    // A long or non-ASCII text: the rest by Node's UTF-8 writer.
    const bytes = i === n ? n : i + this.buf.write(s.slice(i), start + i);
    this.view.setInt32(this.o, bytes);
    this.o = start + bytes;
  }
  float8(v: number): void {
    this.room(12);
    this.view.setInt32(this.o, 8);
    this.view.setFloat64(this.o + 4, v);
    this.o += 12;
  }
  int4(v: number): void {
    this.room(8);
    this.view.setInt32(this.o, 4);
    this.view.setInt32(this.o + 4, v);
    this.o += 8;
  }
  int8(v: number): void {
    this.room(12);
    const high = Math.floor(v / TWO_32);
    this.view.setInt32(this.o, 8);
    this.view.setInt32(this.o + 4, high);
    this.view.setUint32(this.o + 8, v - high * TWO_32);
    this.o += 12;
  }
  bool(v: boolean): void {
    this.room(5);
    this.view.setInt32(this.o, 1);
    this.buf[this.o + 4] = v ? 1 : 0;
    this.o += 5;
  }
  end(): Buffer[] {
    if (this.o > 0) this.chunks.push(this.buf.subarray(0, this.o));
    return this.chunks;
  }
}

/**
 * Writes one value as `kind`; false when it cannot go exactly as that kind (the caller sends the
 * rows another way, whose cast refuses or reads the value as binding it would). What a bound
 * parameter stores is the rule: a number or boolean in a text column goes as its String, -0 as 0
 * (a bound number prints as "0"), an integer column takes only integers it holds.
 */
function writeValue(w: ChunkWriter, kind: CopyKind, v: unknown): boolean {
  if (v === null || v === undefined) {
    w.int32(-1);
    return true;
  }
  switch (kind) {
    case 'text':
    case 'json':
      if (typeof v === 'string') w.text(v);
      else if (kind === 'text' && (typeof v === 'number' || typeof v === 'boolean')) w.text(String(v));
      else return false;
      return true;
    case 'float8':
      if (typeof v !== 'number') return false;
      w.float8(v === 0 ? 0 : v);
      return true;
    case 'int4':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < -2147483648 || v > 2147483647) return false;
      w.int4(v === 0 ? 0 : v);
      return true;
    case 'int8':
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) return false;
      w.int8(v === 0 ? 0 : v);
      return true;
    case 'bool':
      if (typeof v === 'boolean') w.bool(v);
      else if (v === 0 || v === 1) w.bool(v === 1);
      else return false;
      return true;
  }
}

/**
 * One binary COPY stream, encoded row by row as rows arrive (the history writer encodes each line
 * as its parser hands it over, so no line object outlives its row), cut into chunks. `row` writes
 * field i as `cell(i)` (a json column's value as its JSON text); false when a value cannot go as its
 * column's kind, after which the encoder holds a partial row and must not be finished.
 */
export class CopyEncoder {
  private readonly w = new ChunkWriter();
  /** Rows written. */
  rows = 0;

  constructor(private readonly kinds: readonly CopyKind[]) {
    this.w.bytes(SIGNATURE);
    this.w.int32(0);
    this.w.int32(0);
  }

  row(cell: (column: number) => unknown): boolean {
    const { kinds, w } = this;
    w.int16(kinds.length);
    for (let i = 0; i < kinds.length; i++) if (!writeValue(w, kinds[i] as CopyKind, cell(i))) return false;
    this.rows += 1;
    return true;
  }

  /** The stream's chunks, its trailer written. */
  finish(): Buffer[] {
    this.w.int16(-1);
    return this.w.end();
  }
}
