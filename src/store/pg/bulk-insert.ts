import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { columnList, insertColumns, JsonText, type ColumnInfo } from '../_columns.js';
import type { PgStore } from '../store.js';
import { pgTables } from '../tables/pg.js';
import { chunks, pgRun } from './_raw.js';
import { copyKindOf, CopyEncoder, type CopyKind } from './copy-binary.js';
import { pgTransaction } from './transaction.js';

/**
 * PostgreSQL's bulk inserts (issue 39): a snapshot's graded rows, locks, closing prices and ledger
 * entries, and the history import's player-games, sent by COPY ... FROM STDIN in the binary format
 * (copy-binary.ts). A plain insert copies straight into its table; one with an ON CONFLICT clause
 * copies into a temporary table, inserts from it in the rows' order with the clause, and drops
 * it. History of the way here: one parameter per value (a 4,800-row slate was 260k
 * parameters, more client CPU than the grading), one JSON parameter (the server's JSON parse was
 * most of each statement), one split text per column (unnest over 56 arrays: 240 of the slate's
 * graded rows' server ms, against 80 for COPY, and printing every number as text).
 *
 * Each value goes as its column type's binary receive function reads it, and what it stores is what
 * binding each value stores (test/store/contract/writes-bulk.test.ts): a json column's text as
 * drizzle's own write makes it (_columns.ts), numbers exactly. A value COPY cannot carry as its
 * column's type (a fraction in an integer column; an object in a text column) sends the rows as
 * one JSON parameter read by json_populate_recordset instead, whose cast refuses or reads it as
 * binding would. The rows keep their order, so their ids too.
 */

/** Rows per COPY: bounds the encoded bytes held at once (5,000 graded rows are a few MB). */
const ROWS_PER_STATEMENT = 5000;

/** The PostgreSQL tables by SQL name: their columns' SQL types. */
const PG_TABLES = new Map<string, Table>(Object.values(pgTables).map((t) => [getTableName(t), t]));

interface Plan {
  name: string;
  cols: ColumnInfo[];
  json: boolean[];
  kinds: CopyKind[];
  /** The columns as a temporary table declares them, then the rows' place, numbered as they are copied in. */
  stageColumns: string;
  /** The JSON route's statement without its suffix, for rows COPY cannot carry. */
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
  plan = {
    name,
    cols,
    json: cols.map((c) => columns[c.key]?.columnType === 'SQLiteTextJson'),
    kinds: cols.map((c) => {
      const kind = copyKindOf(typeOf(c.name));
      if (!kind) throw new Error(`bulk insert into ${name}: no COPY format for ${c.name} ${typeOf(c.name)}`);
      return kind;
    }),
    stageColumns: [...cols.map((c) => `"${c.name}" ${typeOf(c.name)}`), '"_place" integer generated always as identity'].join(', '),
    jsonText: `insert into "${name}" (${columnList(cols)}) select ${columnList(cols)} from json_populate_recordset(null::"${name}", $1::json)`,
  };
  plans.set(table, plan);
  return plan;
}

/** Rows of one table encoded for COPY as they come (keys as the SQLite table's drizzle keys). */
export interface TableEncoder {
  /** False when a value cannot go as its column's type; the encoder is then spent. */
  add(row: Record<string, unknown>): boolean;
  readonly rows: number;
  finish(): Buffer[];
}

/** `override` sets columns on every row as `{ ...row, ...override }` would, without copying the row. */
export function tableEncoder(table: Table, override?: Record<string, unknown>): TableEncoder {
  const plan = planOf(table);
  const encoder = new CopyEncoder(plan.kinds);
  const fixed = plan.cols.map((c) => override !== undefined && c.key in override);
  let row: Record<string, unknown> = {};
  const cell = (i: number) => {
    const c = plan.cols[i] as ColumnInfo;
    const v = fixed[i] ? (override as Record<string, unknown>)[c.key] : row[c.key];
    return v === undefined || v === null || !plan.json[i] ? v : jsonColumnText(c, v);
  };
  return {
    add: (r) => {
      row = r;
      return encoder.row(cell);
    },
    get rows() {
      return encoder.rows;
    },
    finish: () => encoder.finish(),
  };
}

type Options = { override?: Record<string, unknown>; suffix?: string };

/**
 * Inserts `rows` into `table` (keys as the SQLite table's drizzle keys, as the repo writes them);
 * `override` sets columns on every row as `{ ...row, ...override }` would; `suffix` follows the
 * statement (an ON CONFLICT clause). Returns how many rows were inserted or updated. Outside a
 * transaction, one of its own holds the COPY and the insert together.
 */
export async function pgBulkInsert(store: PgStore, table: Table, rows: ReadonlyArray<Record<string, unknown>>, options: Options = {}): Promise<number> {
  if (rows.length === 0) return 0;
  const encoded: Buffer[][] = [];
  for (const slice of chunks(rows, ROWS_PER_STATEMENT)) {
    const encoder = tableEncoder(table, options.override);
    if (!slice.every((r) => encoder.add(r))) return jsonInsert(store, planOf(table), rows, options);
    encoded.push(encoder.finish());
  }
  return pgCopyEncoded(store, table, encoded, { suffix: options.suffix });
}

/**
 * Copies the streams TableEncoders made into `table`: straight in, or (with a suffix or a key to
 * deduplicate on) through a temporary table the insert reads in the rows' order. `dedupeOn` (SQL
 * column names): rows repeating a key are written once, at the first one's place with the last
 * one's values, as one-row-at-a-time upserts leave them.
 */
export async function pgCopyEncoded(store: PgStore, table: Table, encoded: readonly Buffer[][], options: { suffix?: string | undefined; dedupeOn?: readonly string[] } = {}): Promise<number> {
  const plan = planOf(table);
  const client = store.pg.client;
  if (client) return copyInto(client, plan, encoded, options);
  return pgTransaction(store, (pg) => copyInto(pg.client as PoolClient, plan, encoded, options), false);
}

let stages = 0;

async function copyInto(client: PoolClient, plan: Plan, encoded: readonly Buffer[][], { suffix = '', dedupeOn }: { suffix?: string | undefined; dedupeOn?: readonly string[] | undefined }): Promise<number> {
  const list = columnList(plan.cols);
  if (!suffix && !dedupeOn) {
    let written = 0;
    for (const bytes of encoded) written += await copy(client, `copy "${plan.name}" (${list}) from stdin (format binary)`, bytes);
    return written;
  }
  const stage = `propgrade_stage_${++stages}`;
  await client.query(`create temporary table "${stage}" (${plan.stageColumns}) on commit drop`);
  for (const bytes of encoded) await copy(client, `copy "${stage}" (${list}) from stdin (format binary)`, bytes);
  const key = dedupeOn?.map((c) => `"${c}"`).join(', ');
  const source = key
    ? `(select distinct on (${key}) ${list}, min("_place") over (partition by ${key}) as "_place" from "${stage}" order by ${key}, "${stage}"."_place" desc) as "last"`
    : `"${stage}"`;
  const result = await client.query(`insert into "${plan.name}" (${list}) select ${list} from ${source} order by "_place"${suffix}`);
  // Dropped now, not at commit: a long transaction may stage many batches.
  await client.query(`drop table "${stage}"`);
  // An INSERT's command tag always carries its count; node-postgres leaves it null only for commands without one.
  return result.rowCount ?? 0;
}

async function copy(client: PoolClient, text: string, bytes: readonly Buffer[]): Promise<number> {
  const stream = client.query(copyFrom(text));
  await pipeline(Readable.from(bytes), stream);
  return stream.rowCount;
}

async function jsonInsert(store: PgStore, plan: Plan, rows: ReadonlyArray<Record<string, unknown>>, options: Options): Promise<number> {
  let written = 0;
  for (const slice of chunks(rows, ROWS_PER_STATEMENT)) written += await pgRun(store, plan.jsonText + (options.suffix ?? ''), [jsonRows(plan, slice, options.override)]);
  return written;
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
