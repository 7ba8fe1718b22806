import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type SqliteStore } from '../../../src/store/db.js';
import { openPg, type OpenedPg } from '../../../src/store/pg/open.js';
import { freshPgDatabase } from '../../helpers/pg.js';

/**
 * The two engines' schemas, read back from migrated databases (not from the drizzle objects), must
 * agree: a column, index or key added to one schema and its migrations but not the other's fails here.
 */

interface Column {
  type: string;
  notNull: boolean;
  default: string | null;
}
interface Index {
  table: string;
  unique: boolean;
  /** Column names in key order; null for an expression (ledger_entries_key's coalesce). */
  columns: Array<string | null>;
}
interface ForeignKey {
  table: string;
  column: string;
  references: string;
  onDelete: string;
}
interface Shape {
  columns: Record<string, Record<string, Column>>;
  indexes: Record<string, Index>;
  foreignKeys: ForeignKey[];
}

/** SQLite's declared type for each PostgreSQL type the mirror uses (src/store/pg/schema.ts's mapping). */
const SQLITE_TYPE: Record<string, string> = { integer: 'integer', bigint: 'integer', boolean: 'integer', 'double precision': 'real', text: 'text', json: 'text' };

function sqliteShape(store: SqliteStore): Shape {
  const shape: Shape = { columns: {}, indexes: {}, foreignKeys: [] };
  const names = store.sqlite.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'`).pluck().all() as string[];
  for (const table of names) {
    const columns: Record<string, Column> = {};
    for (const c of store.sqlite.pragma(`table_info("${table}")`) as Array<{ name: string; type: string; notnull: number; dflt_value: string | null }>) {
      columns[c.name] = { type: c.type.toLowerCase(), notNull: c.notnull === 1, default: c.dflt_value };
    }
    shape.columns[table] = columns;
    // A non-integer primary key's automatic index (sqlite_autoindex_*) is PostgreSQL's *_pkey: both left out.
    for (const i of store.sqlite.pragma(`index_list("${table}")`) as Array<{ name: string; unique: number; origin: string }>) {
      if (i.origin === 'pk') continue;
      const keys = store.sqlite.pragma(`index_info("${i.name}")`) as Array<{ seqno: number; name: string | null }>;
      shape.indexes[i.name] = { table, unique: i.unique === 1, columns: keys.sort((a, b) => a.seqno - b.seqno).map((k) => k.name) };
    }
    for (const f of store.sqlite.pragma(`foreign_key_list("${table}")`) as Array<{ table: string; from: string; to: string; on_delete: string }>) {
      shape.foreignKeys.push({ table, column: f.from, references: `${f.table}.${f.to}`, onDelete: f.on_delete.toLowerCase() });
    }
  }
  shape.foreignKeys.sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
  return shape;
}

const ON_DELETE: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

async function pgShape(store: OpenedPg): Promise<Shape> {
  const shape: Shape = { columns: {}, indexes: {}, foreignKeys: [] };
  const columns = await store.pool.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
    `select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = 'public'`,
  );
  for (const c of columns.rows) {
    (shape.columns[c.table_name] ??= {})[c.column_name] = {
      type: SQLITE_TYPE[c.data_type] ?? `unmapped ${c.data_type}`,
      notNull: c.is_nullable === 'NO',
      default: c.column_default,
    };
  }
  const indexes = await store.pool.query<{ name: string; table: string; unique: boolean; columns: Array<string | null> }>(
    `select ic.relname as name, tc.relname as "table", ix.indisunique as unique,
            array(select a.attname::text from unnest(ix.indkey) with ordinality as k(attnum, ord)
                  left join pg_attribute a on a.attrelid = ix.indrelid and a.attnum = k.attnum order by k.ord) as columns
       from pg_index ix join pg_class ic on ic.oid = ix.indexrelid join pg_class tc on tc.oid = ix.indrelid
       join pg_namespace n on n.oid = tc.relnamespace
      where n.nspname = 'public' and not ix.indisprimary`,
  );
  for (const i of indexes.rows) shape.indexes[i.name] = { table: i.table, unique: i.unique, columns: i.columns };
  const keys = await store.pool.query<{ table: string; column: string; references: string; on_delete: string }>(
    `select c.conrelid::regclass::text as "table", a.attname as "column", c.confrelid::regclass::text || '.' || af.attname as "references", c.confdeltype as on_delete
       from pg_constraint c
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       join pg_attribute af on af.attrelid = c.confrelid and af.attnum = c.confkey[1]
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace and cardinality(c.conkey) = 1`,
  );
  shape.foreignKeys = keys.rows
    .map((k) => ({ table: k.table, column: k.column, references: k.references, onDelete: ON_DELETE[k.on_delete] ?? k.on_delete }))
    .sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
  return shape;
}

describe('the PostgreSQL schema against the SQLite schema, as migrated', () => {
  let sqlite: Shape;
  let postgres: Shape;
  const cleanups: Array<() => unknown> = [];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-parity-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = openStore(join(dir, 'x.sqlite'));
    cleanups.push(() => store.close());
    sqlite = sqliteShape(store);
    const database = await freshPgDatabase();
    cleanups.push(database.drop);
    const pgStore = await openPg(database.url);
    cleanups.push(() => pgStore.pool.end());
    postgres = await pgShape(pgStore);
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('has the same tables', () => {
    expect(Object.keys(postgres.columns).sort()).toEqual(Object.keys(sqlite.columns).sort());
    expect(Object.keys(sqlite.columns)).toHaveLength(18);
  });

  it('has the same columns per table, with the same NOT NULL flags, storage class and defaults', () => {
    for (const [table, columns] of Object.entries(sqlite.columns)) {
      expect(Object.keys(postgres.columns[table] ?? {}).sort(), table).toEqual(Object.keys(columns).sort());
      for (const [name, column] of Object.entries(columns)) expect(postgres.columns[table]?.[name], `${table}.${name}`).toEqual(column);
    }
  });

  it('has the same indexes: names, tables, uniqueness and key columns in order', () => {
    expect(Object.keys(postgres.indexes).sort()).toEqual(Object.keys(sqlite.indexes).sort());
    expect(postgres.indexes).toEqual(sqlite.indexes);
    // The expression key is there on both, not dropped as an unreadable column.
    expect(postgres.indexes.ledger_entries_key?.columns[0]).toBeNull();
  });

  it('has the same foreign keys with the same ON DELETE', () => {
    expect(postgres.foreignKeys).toEqual(sqlite.foreignKeys);
    expect(postgres.foreignKeys.filter((k) => k.onDelete === 'cascade').map((k) => k.table)).toEqual(['api_tokens', 'graded_rows', 'preferences', 'subscriptions']);
  });
});
