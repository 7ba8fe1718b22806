import type { BuildColumns } from 'drizzle-orm';
import { index, sqliteTable, uniqueIndex, type IndexColumn, type SQLiteColumn, type SQLiteTableWithColumns } from 'drizzle-orm/sqlite-core';
import type { Col, Resolve } from './column.js';
import * as declared from './index.js';
import { DECLARED, isDeclared, type Columns, type Declared, type TableDecl } from './table.js';

/** The declared tables (tables/index.ts) built with drizzle's sqlite-core. */

type Builders<C extends Columns> = { [K in keyof C]: ReturnType<C[K]['sqlite']> };

export type SqliteTableOf<D> =
  D extends { readonly [DECLARED]: TableDecl<infer N, infer C> }
    ? SQLiteTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, Builders<C>, 'sqlite'>; dialect: 'sqlite' }>
    : never;

const built = new WeakMap<Col, SQLiteColumn>();

const resolve: Resolve<SQLiteColumn> = (column) => {
  const found = built.get(column);
  if (!found) throw new Error('a foreign key names a column whose table was not built for SQLite');
  return found;
};

export function toSqlite<D extends Declared<string, Columns>>(declaration: D): SqliteTableOf<D> {
  const decl = declaration[DECLARED];
  const { name, columns } = decl;
  const builders = Object.fromEntries(Object.entries(columns).map(([key, column]) => [key, column.sqlite(resolve)]));
  const table = sqliteTable(
    name,
    builders,
    decl.indexes && ((t) => (decl.indexes?.(t) ?? []).map((i) => (i.unique ? uniqueIndex : index)(i.name).on(...(i.on as [IndexColumn, ...IndexColumn[]])))),
  );
  for (const [key, column] of Object.entries(columns)) built.set(column, table[key] as SQLiteColumn);
  return table as unknown as SqliteTableOf<D>;
}

type Declarations = typeof declared;
type TableKeys = { [K in keyof Declarations]: Declarations[K] extends { readonly [DECLARED]: unknown } ? K : never }[keyof Declarations];

export const sqliteTables = Object.fromEntries(
  Object.entries(declared).flatMap(([key, value]) => (isDeclared(value) ? [[key, toSqlite(value)]] : [])),
) as unknown as { [K in TableKeys]: SqliteTableOf<Declarations[K]> };
