import type { Column, SQL } from 'drizzle-orm';
import type { Col } from './column.js';

/** A table declared once, built for SQLite by tables/sqlite.ts and for PostgreSQL by tables/pg.ts. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any column pair: each table's own types ride in its type argument
export type Columns = Record<string, Col<any, any>>;

/** An index key part: one of the table's columns (as the dialect builds it) or an SQL expression over them. */
export type IndexPart = Column | SQL;

export interface IndexDecl {
  name: string;
  unique: boolean;
  on: [IndexPart, ...IndexPart[]];
}

/** Receives the table's columns as the dialect being built hands them to its index builder. */
export type Indexes<C extends Columns> = (columns: { [K in keyof C]: Column }) => IndexDecl[];

export const DECLARED: unique symbol = Symbol('declared table');

export interface TableDecl<N extends string, C extends Columns> {
  name: N;
  columns: C;
  // A method, so any declaration passes where Declared<string, Columns> is asked (methods are bivariant).
  indexes?(columns: { [K in keyof C]: Column }): IndexDecl[];
}

/**
 * The declaration, with its columns on it as on a drizzle table, so a foreign key reads
 * `() => users.id`; the declaration itself sits under a symbol no column name can take.
 */
export type Declared<N extends string, C extends Columns> = C & { readonly [DECLARED]: TableDecl<N, C> };

export function table<N extends string, C extends Columns>(name: N, columns: C, indexes?: Indexes<C>): Declared<N, C> {
  return Object.assign({ [DECLARED]: { name, columns, indexes } }, columns);
}

export function isDeclared(value: unknown): value is Declared<string, Columns> {
  return typeof value === 'object' && value !== null && DECLARED in value;
}

const indexOn = (name: string, unique: boolean) => ({
  on: (...on: [IndexPart, ...IndexPart[]]): IndexDecl => ({ name, unique, on }),
});

export const index = (name: string) => indexOn(name, false);
export const uniqueIndex = (name: string) => indexOn(name, true);
