import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import { columnList, insertColumns, JsonText, type ColumnInfo } from '../_columns.js';
import type { PgStore } from '../store.js';
import { chunks, pgRun } from './_raw.js';

/**
 * PostgreSQL's bulk inserts (issue 39): a snapshot's graded rows, locks, closing prices and ledger
 * entries, and the history import's player-games, each sent as ONE parameter per statement, a JSON
 * array of the rows keyed by column name that json_populate_recordset turns back into the table's
 * row type. Bound one parameter per value, a 4,800-row slate was 260k parameters: node-postgres
 * spent more CPU serializing them than the run spent grading, and drizzle's builder, where it built
 * these inserts, more again. One JSON.stringify of plain objects is about a third of that client
 * CPU (docs/scale.md), and the server parses one value instead of a VALUES list.
 *
 * Each value is read by its column type's own input, so the stored rows are those binding each
 * value gave (test/jobs/outputs-identical.test.ts on PostgreSQL): a JSON true is boolean true as
 * a bound 1 was; a json column keeps its text exactly as JSON.stringify wrote it, as drizzle's own
 * write does; an absent key is null; a non-finite number goes as the text its float input reads.
 * The rows keep their order (a function scan yields the array in order), so their ids too.
 */

/** Rows per statement: 5,000 of the widest table (graded rows) are a few MB of JSON. */
const ROWS_PER_STATEMENT = 5000;

/**
 * Inserts `rows` into `table` (keys as the SQLite table's drizzle keys, as the repo writes them);
 * `override` sets columns on every row as `{ ...row, ...override }` would; `suffix` follows the
 * statement (an ON CONFLICT clause). Returns how many rows the statements inserted or updated.
 */
export async function pgInsertJsonRows(store: PgStore, table: Table, rows: ReadonlyArray<Record<string, unknown>>, options: { override?: Record<string, unknown>; suffix?: string } = {}): Promise<number> {
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
