import type { BuildColumns, SQL } from 'drizzle-orm';
import { index, pgTable, uniqueIndex, type ExtraConfigColumn, type PgColumn, type PgTableWithColumns } from 'drizzle-orm/pg-core';
import type { Col, Resolve } from './column.js';
import * as declared from './index.js';
import { DECLARED, isDeclared, type Columns, type Declared, type TableDecl } from './table.js';

/** The declared tables (tables/index.ts) built with drizzle's pg-core. */

type Builders<C extends Columns> = { [K in keyof C]: ReturnType<C[K]['pg']> };

export type PgTableOf<D> =
  D extends { readonly [DECLARED]: TableDecl<infer N, infer C> } ? PgTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, Builders<C>, 'pg'>; dialect: 'pg' }> : never;

type IndexPart = Partial<ExtraConfigColumn> | SQL;

const built = new WeakMap<Col, PgColumn>();

const resolve: Resolve<PgColumn> = (column) => {
  const found = built.get(column);
  if (!found) throw new Error('a foreign key names a column whose table was not built for PostgreSQL');
  return found;
};

export function toPg<D extends Declared<string, Columns>>(declaration: D): PgTableOf<D> {
  const decl = declaration[DECLARED];
  const { name, columns } = decl;
  const builders = Object.fromEntries(Object.entries(columns).map(([key, column]) => [key, column.pg(resolve)]));
  const table = pgTable(
    name,
    builders,
    decl.indexes && ((t) => (decl.indexes?.(t) ?? []).map((i) => (i.unique ? uniqueIndex : index)(i.name).on(...(i.on as [IndexPart, ...IndexPart[]])))),
  );
  for (const [key, column] of Object.entries(columns)) built.set(column, table[key] as PgColumn);
  return table as unknown as PgTableOf<D>;
}

type Declarations = typeof declared;
type TableKeys = { [K in keyof Declarations]: Declarations[K] extends { readonly [DECLARED]: unknown } ? K : never }[keyof Declarations];

export const pgTables = Object.fromEntries(
  Object.entries(declared).flatMap(([key, value]) => (isDeclared(value) ? [[key, toPg(value)]] : [])),
) as unknown as { [K in TableKeys]: PgTableOf<Declarations[K]> };
