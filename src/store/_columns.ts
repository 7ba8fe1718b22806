import { getTableColumns, getTableName, type Table } from 'drizzle-orm';

/**
 * The values drizzle binds and reads for each column of the store's tables (src/store/schema.ts):
 * each column's own mapToDriverValue / mapFromDriverValue, in the schema's column order. The
 * engines' raw statements (sqlite/_raw.ts prepared statements, pg/_raw.ts multi-row inserts) bind
 * and read rows through these, so a raw write stores what drizzle's builder would have stored.
 */

type Mapper = ((value: unknown) => unknown) | null;

export interface ColumnInfo {
  /** The drizzle (camelCase) key. */
  key: string;
  /** The SQL column name. */
  name: string;
  /** JS value -> bound value, null for the identity. */
  toDriver: Mapper;
  /** Stored value -> JS value, null for the identity. */
  fromDriver: Mapper;
}

/** Column types whose drizzle mapping is the identity in both directions. */
const IDENTITY_TYPES = new Set(['SQLiteInteger', 'SQLiteReal', 'SQLiteText']);
/** Column types with a mapping: booleans are 1/0, JSON text is JSON.stringify / JSON.parse. */
const MAPPED_TYPES = new Set(['SQLiteBoolean', 'SQLiteTextJson']);

const columnCache = new WeakMap<Table, ColumnInfo[]>();

/**
 * JSON text of frozen objects, made once: a frozen value cannot change, so the text JSON.stringify
 * gave it stays its text (the snapshot writes one grade's model detail to its lock and its row;
 * src/domain/freeze.ts deepFreeze freezes it).
 */
const frozenJson = new WeakMap<object, string>();
function jsonText(value: unknown, stringify: (v: unknown) => unknown): unknown {
  if (value instanceof JsonText) return value.text;
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return stringify(value);
  let text = frozenJson.get(value);
  if (text === undefined) frozenJson.set(value, (text = stringify(value) as string));
  return text;
}

/**
 * A JSON column's stored text carried through unparsed, to be written again as is: the text came
 * from JSON.stringify (drizzle's own write), and JSON.stringify(JSON.parse(text)) is that text, so
 * binding it is what parsing and re-serializing would bind. (The snapshot run re-writes every
 * locked grade's model detail into its new row.)
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The table's columns in schema order, with drizzle's own value mappings. */
export function columnsOf(table: Table): ColumnInfo[] {
  let cols = columnCache.get(table);
  if (cols) return cols;
  cols = Object.entries(getTableColumns(table)).map(([key, col]) => {
    const type = col.columnType;
    if (!IDENTITY_TYPES.has(type) && !MAPPED_TYPES.has(type)) throw new Error(`column ${getTableName(table)}.${col.name}: no raw mapping for ${type}`);
    const mapped = MAPPED_TYPES.has(type);
    const toDriver = (v: unknown) => col.mapToDriverValue(v);
    return {
      key,
      name: col.name,
      toDriver: !mapped ? null : type === 'SQLiteTextJson' ? (v: unknown) => jsonText(v, toDriver) : toDriver,
      fromDriver: mapped ? (v: unknown) => col.mapFromDriverValue(v) : null,
    };
  });
  columnCache.set(table, cols);
  return cols;
}

/** `"a", "b", ...` for the columns. */
export const columnList = (cols: readonly ColumnInfo[]) => cols.map((c) => `"${c.name}"`).join(', ');

/**
 * The values drizzle would bind for `row` in an insert: undefined (a column the row does not set;
 * none of these tables has a default) and null bind null, everything else through the column's map.
 * `override` sets columns as `{ ...row, ...override }` would, without copying the row.
 */
export function bindValues(cols: readonly ColumnInfo[], row: Record<string, unknown>, override?: Record<string, unknown>): unknown[] {
  const out = new Array<unknown>(cols.length);
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i] as ColumnInfo;
    const v = override !== undefined && c.key in override ? override[c.key] : row[c.key];
    out[i] = v === undefined || v === null ? null : c.toDriver === null ? v : c.toDriver(v);
  }
  return out;
}

/** The object drizzle's select would return for a raw row read in `cols` order. */
export function mapRow<T>(cols: readonly ColumnInfo[], raw: readonly unknown[]): T {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i] as ColumnInfo;
    const v = raw[i];
    out[c.key] = v === null || v === undefined ? null : c.fromDriver === null ? v : c.fromDriver(v);
  }
  return out as T;
}

/** Every column of the table but the autoincrement id: what an insert binds. */
export function insertColumns(table: Table): ColumnInfo[] {
  return columnsOf(table).filter((c) => c.key !== 'id');
}
