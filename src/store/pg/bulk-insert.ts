import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import { columnList, insertColumns, JsonText, type ColumnInfo } from '../_columns.js';
import type { PgStore } from '../store.js';
import { pgTables } from '../tables/pg.js';
import { chunks, pgRun } from './_raw.js';

/**
 * PostgreSQL's bulk inserts (issue 39): a snapshot's graded rows, locks, closing prices and ledger
 * entries, and the history import's player-games, each sent as one text parameter per COLUMN that
 * string_to_array splits back into the column's values: `insert ... select v.c0::type, ... from
 * unnest(string_to_array($1, US, RS)[1:n], ...)`. Bound one parameter per value, a 4,800-row slate
 * was 260k parameters: node-postgres spent more CPU serializing them than the run spent grading.
 * The rows then went as one JSON parameter read by json_populate_recordset, whose JSON parse was
 * most of the server's time for the statement (200 of the seed import's 320 ms; 40 ms split
 * columns); split text needs no escaping on either side.
 *
 * Each value is read by its column type's own input from the text a JS value prints as (String:
 * numbers in their shortest exact form, Infinity and NaN as float input reads them, booleans as
 * true/false; a json column's text as drizzle's own write makes it: _columns.ts), so the stored
 * rows are those binding each value gave (test/store/contract/writes-bulk.test.ts). Null and an
 * absent value are the record separator alone (US = \x1f between values, RS = \x1e as null): a
 * text holding US, or being RS, would be misread, so a statement with one (never seen in real data)
 * goes as JSON as before, as does a value that is not text, number or boolean. Every column ends
 * with a US, so an empty text is one value, and `[1:n]` drops the empty one after it. The rows
 * keep their order (unnest yields its arrays in order), so their ids too.
 */

/** Rows per statement: 5,000 of the widest table (graded rows) are a few MB of text. */
const ROWS_PER_STATEMENT = 5000;

const US = '\x1f';
const RS = '\x1e';

/** The PostgreSQL tables by SQL name: their columns' SQL types. */
const PG_TABLES = new Map<string, Table>(Object.values(pgTables).map((t) => [getTableName(t), t]));

interface Plan {
  cols: ColumnInfo[];
  json: boolean[];
  /** The statement without its suffix; $1..$k the columns, $k+1 the row count. */
  text: string;
  /** The JSON route's statement without its suffix, for a slice the split text cannot carry. */
  jsonText: string;
}
const plans = new WeakMap<Table, Plan>();

function planOf(table: Table): Plan {
  let plan = plans.get(table);
  if (plan) return plan;
  const cols = insertColumns(table);
  const name = getTableName(table);
  const pgColumns = Object.values(getTableColumns(PG_TABLES.get(name) ?? table));
  const typeOf = (column: string) => {
    const type = pgColumns.find((c) => c.name === column)?.getSQLType();
    if (!type) throw new Error(`bulk insert into ${name}: no PostgreSQL column ${column}`);
    return type;
  };
  const columns = getTableColumns(table);
  const values = cols.map((_, i) => `(string_to_array($${i + 1}, E'\\x1f', E'\\x1e'))[1:$${cols.length + 1}]`);
  plan = {
    cols,
    json: cols.map((c) => columns[c.key]?.columnType === 'SQLiteTextJson'),
    text: `insert into "${name}" (${columnList(cols)}) select ${cols.map((c, i) => `v.c${i}::${typeOf(c.name)}`).join(', ')} from unnest(${values.join(', ')}) as v(${cols.map((_, i) => `c${i}`).join(', ')})`,
    jsonText: `insert into "${name}" (${columnList(cols)}) select ${columnList(cols)} from json_populate_recordset(null::"${name}", $1::json)`,
  };
  plans.set(table, plan);
  return plan;
}

/**
 * Inserts `rows` into `table` (keys as the SQLite table's drizzle keys, as the repo writes them);
 * `override` sets columns on every row as `{ ...row, ...override }` would; `suffix` follows the
 * statement (an ON CONFLICT clause). Returns how many rows the statements inserted or updated.
 */
export async function pgBulkInsert(store: PgStore, table: Table, rows: ReadonlyArray<Record<string, unknown>>, options: { override?: Record<string, unknown>; suffix?: string } = {}): Promise<number> {
  const plan = planOf(table);
  const suffix = options.suffix ?? '';
  let written = 0;
  for (const slice of chunks(rows, ROWS_PER_STATEMENT)) {
    const columns = splitColumns(plan, slice, options.override);
    written += columns === null ? await pgRun(store, plan.jsonText + suffix, [jsonRows(plan, slice, options.override)]) : await pgRun(store, plan.text + suffix, [...columns, slice.length]);
  }
  return written;
}

/** Each column's values as one text, each value ended by US (null as RS); null when a value cannot go this way. */
function splitColumns(plan: Plan, rows: ReadonlyArray<Record<string, unknown>>, override: Record<string, unknown> | undefined): string[] | null {
  const out = new Array<string>(plan.cols.length);
  const texts = new Array<string>(rows.length);
  for (let i = 0; i < plan.cols.length; i++) {
    const c = plan.cols[i] as ColumnInfo;
    const fixed = override !== undefined && c.key in override;
    for (let r = 0; r < rows.length; r++) {
      const v = fixed ? (override as Record<string, unknown>)[c.key] : (rows[r] as Record<string, unknown>)[c.key];
      let text: string | undefined;
      if (v === undefined || v === null) text = undefined;
      else if (plan.json[i]) text = jsonColumnText(c, v);
      else if (typeof v === 'string') text = v;
      else if (typeof v === 'number' || typeof v === 'boolean') text = String(v);
      else return null;
      if (text === undefined) text = RS;
      else if (text.includes(US) || text === RS) return null;
      texts[r] = text;
    }
    out[i] = `${texts.join(US)}${US}`;
  }
  return out;
}

/** A json column's text as drizzle writes it (JSON.stringify; a JsonText's text as is, a frozen value's made once): undefined when JSON has none. */
function jsonColumnText(c: ColumnInfo, v: unknown): string | undefined {
  const text = c.toDriver === null ? JSON.stringify(v) : c.toDriver(v);
  return typeof text === 'string' ? text : undefined;
}

/**
 * The JSON route: the rows as one JSON array keyed by column name for json_populate_recordset
 * (absent and null values left out, a json column's value as its own JSON, a non-finite number as
 * the text its float input reads).
 */
function jsonRows(plan: Plan, rows: ReadonlyArray<Record<string, unknown>>, override: Record<string, unknown> | undefined): string {
  const objects = new Array<Record<string, unknown>>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < plan.cols.length; i++) {
      const c = plan.cols[i] as ColumnInfo;
      const v = override !== undefined && c.key in override ? override[c.key] : row[c.key];
      if (v === undefined || v === null) continue;
      out[c.name] = plan.json[i] ? jsonValue(v) : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
    }
    objects[r] = out;
  }
  return JSON.stringify(objects);
}

/** A json column's value as JSON.stringify is to write it: stored text carried through (JsonText) is parsed back, since JSON.stringify(JSON.parse(text)) is that text. */
function jsonValue(v: unknown): unknown {
  return v instanceof JsonText ? JSON.parse(v.text) : v;
}
