import { getTableColumns, getTableName, sql, type AnyColumn, type SQL, type Table } from 'drizzle-orm';
import { columnList, insertColumns, JsonText, type ColumnInfo } from '../_columns.js';
import type { PgStore } from '../store.js';

/**
 * The PostgreSQL side's raw statements (the counterparts of sqlite/_raw.ts's prepared SQLite hot
 * paths): plain SQL with $1... placeholders, run on the transaction's client when the store is one.
 */

/** The rows of a statement as arrays, in select-list order (as better-sqlite3's `raw(true)` gives them). */
export async function pgRows<T extends unknown[]>(store: PgStore, text: string, values: readonly unknown[] = []): Promise<T[]> {
  const { rows } = await (store.pg.client ?? store.pg.pool).query<T>({ text, values: [...values], rowMode: 'array' });
  return rows;
}

/** Runs a statement; how many rows it changed. */
export async function pgRun(store: PgStore, text: string, values: readonly unknown[] = []): Promise<number> {
  const result = await (store.pg.client ?? store.pg.pool).query({ text, values: [...values] });
  return result.rowCount ?? 0;
}

/** SQLite's `?` placeholders as PostgreSQL's `$1, $2, ...` (for statement text with no `?` in a literal). */
export function numbered(text: string): string {
  let i = 0;
  return text.replace(/\?/g, () => `$${++i}`);
}

/**
 * A text column ordered as SQLite orders it, by bytes: PostgreSQL's default collation may order
 * `a-b` after `ab` or ignore case.
 */
export function byBytes(col: AnyColumn): SQL {
  return sql`${col} collate "C"`;
}

/**
 * Rows with the same key collapsed the way SQLite's one-row-at-a-time statements would leave them:
 * `keep: 'last'` gives the key's first place and last values (an upsert), `'first'` its first row
 * (an update guarded on the row's old state). One PostgreSQL statement may not touch a row twice.
 */
export function dedupe<T>(rows: readonly T[], key: (row: T) => string, keep: 'first' | 'last'): T[] {
  const out = new Map<string, T>();
  for (const r of rows) {
    const k = key(r);
    if (keep === 'last' || !out.has(k)) out.set(k, r);
  }
  return [...out.values()];
}

/** Slices of at most `size` (PostgreSQL binds at most 65535 parameters per statement). */
export function* chunks<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/** Rows per statement: 5,000 of the widest table (graded rows) are a few MB of JSON. */
const ROWS_PER_STATEMENT = 5000;

/**
 * Inserts `rows` into `table` (keys as the SQLite table's drizzle keys, as the repo writes them);
 * `override` sets columns on every row as `{ ...row, ...override }` would; `suffix` follows the
 * statement (an ON CONFLICT clause). Returns how many rows the statements inserted or updated.
 */
export async function pgInsertRows(store: PgStore, table: Table, rows: ReadonlyArray<Record<string, unknown>>, options: { override?: Record<string, unknown>; suffix?: string } = {}): Promise<number> {
  const cols = insertColumns(table);
  const name = getTableName(table);
  const columns = getTableColumns(table);
  const json = cols.map((c) => columns[c.key]?.columnType === 'SQLiteTextJson');
  const text = `insert into "${name}" (${columnList(cols)}) select ${columnList(cols)} from json_populate_recordset(null::"${name}", $1::json)${options.suffix ?? ''}`;
  const override = options.override;
  let written = 0;
  for (const slice of chunks(rows, ROWS_PER_STATEMENT)) {
    const objects = new Array<Record<string, unknown>>(slice.length);
    for (let r = 0; r < slice.length; r++) {
      const row = slice[r] as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (let i = 0; i < cols.length; i++) {
        const c = cols[i] as ColumnInfo;
        const v = override !== undefined && c.key in override ? override[c.key] : row[c.key];
        if (v === undefined || v === null) continue;
        out[c.name] = json[i] ? jsonValue(v) : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
      }
      objects[r] = out;
    }
    written += await pgRun(store, text, [JSON.stringify(objects)]);
  }
  return written;
}

/** A json column's value as JSON.stringify is to write it: stored text carried through (JsonText) is parsed back, since JSON.stringify(JSON.parse(text)) is that text. */
function jsonValue(v: unknown): unknown {
  return v instanceof JsonText ? JSON.parse(v.text) : v;
}
