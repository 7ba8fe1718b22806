import type { SQL, Subquery } from 'drizzle-orm';
import type { GetSelectTableName, GetSelectTableSelection } from 'drizzle-orm/query-builders/select.types';
import type {
  SelectedFields,
  SQLiteDeleteBase,
  SQLiteInsertBase,
  SQLiteInsertOnConflictDoUpdateConfig,
  SQLiteInsertValue,
  SQLiteSelectBase,
  SQLiteTable,
  SQLiteUpdateBase,
  SQLiteUpdateSetSource,
  IndexColumn,
} from 'drizzle-orm/sqlite-core';
import type * as schema from './schema.js';

/**
 * The drizzle handle repo code shares between the engines: only what both builders offer when
 * awaited. drizzle has no dialect-neutral builder type, so this reuses sqlite-core's builder
 * generics (the tables `t` are sqlite-core's too; src/store/tables declares both from one source)
 * with drizzle's own "excluded methods" slot filled: the calls only better-sqlite3 answers
 * (`.get() .all() .run() .values() .prepare()`), `$dynamic()` (which would reset that slot) and, on
 * update and delete, SQLite's `orderBy` / `limit` are gone from every step of a chain, so a query
 * that would fail on PostgreSQL fails tsc instead. A statement without `returning()` awaits to
 * `unknown`: what it reports (changes, rowCount) is the engine's, read through the engine's ops.
 * There is no `transaction`, `run`, `$client` or `session` here: transactions are repo/tx.ts's.
 */
type EngineOnly = 'run' | 'all' | 'get' | 'values' | 'prepare' | '$dynamic';
/** SQLite can order and limit an UPDATE or a DELETE; PostgreSQL cannot. */
type WriteEngineOnly = EngineOnly | 'orderBy' | 'limit';

/** What a shared query reads from (no views: the store declares none). */
type FromSource = SQLiteTable | Subquery | SQL;

/** A SELECT as both engines run it: awaited, never `.get()`-ed. */
export type SharedSelect<TFrom extends FromSource, TSelection extends SelectedFields | undefined> = Omit<
  SQLiteSelectBase<
    GetSelectTableName<TFrom>,
    'async',
    unknown,
    TSelection extends undefined ? GetSelectTableSelection<TFrom> : TSelection,
    TSelection extends undefined ? 'single' : 'partial',
    GetSelectTableName<TFrom> extends string ? Record<GetSelectTableName<TFrom>, 'not-null'> : Record<never, never>,
    false,
    EngineOnly
  >,
  EngineOnly
>;

export interface SharedSelectBuilder<TSelection extends SelectedFields | undefined> {
  from<TFrom extends FromSource>(source: TFrom): SharedSelect<TFrom, TSelection>;
}

type InsertBase<TTable extends SQLiteTable> = SQLiteInsertBase<TTable, 'async', unknown, undefined, false, EngineOnly>;

/**
 * An INSERT as both engines run it. The conflict clauses are restated: drizzle declares them as
 * returning `this`, which would hand back the whole SQLite builder.
 */
export type SharedInsert<TTable extends SQLiteTable> = Omit<InsertBase<TTable>, EngineOnly | 'onConflictDoNothing' | 'onConflictDoUpdate'> & {
  onConflictDoNothing(config?: { target?: IndexColumn | IndexColumn[]; where?: SQL }): SharedInsert<TTable>;
  onConflictDoUpdate(config: SQLiteInsertOnConflictDoUpdateConfig<InsertBase<TTable>>): SharedInsert<TTable>;
};

export interface SharedInsertBuilder<TTable extends SQLiteTable> {
  values(value: SQLiteInsertValue<TTable>): SharedInsert<TTable>;
  values(values: SQLiteInsertValue<TTable>[]): SharedInsert<TTable>;
}

export interface SharedUpdateBuilder<TTable extends SQLiteTable> {
  set(values: SQLiteUpdateSetSource<TTable>): Omit<SQLiteUpdateBase<TTable, 'async', unknown, undefined, undefined, false, WriteEngineOnly>, WriteEngineOnly>;
}

export type SharedDelete<TTable extends SQLiteTable> = Omit<SQLiteDeleteBase<TTable, 'async', unknown, undefined, false, WriteEngineOnly>, WriteEngineOnly>;

export interface SharedDb {
  select(): SharedSelectBuilder<undefined>;
  select<TSelection extends SelectedFields>(fields: TSelection): SharedSelectBuilder<TSelection>;
  selectDistinct(): SharedSelectBuilder<undefined>;
  selectDistinct<TSelection extends SelectedFields>(fields: TSelection): SharedSelectBuilder<TSelection>;
  insert<TTable extends SQLiteTable>(into: TTable): SharedInsertBuilder<TTable>;
  update<TTable extends SQLiteTable>(table: TTable): SharedUpdateBuilder<TTable>;
  delete<TTable extends SQLiteTable>(from: TTable): SharedDelete<TTable>;
}

/**
 * How a repo function reaches its engine for queries written once with drizzle's builder: the
 * shared handle and the tables. Each engine's adapter builds it (store/sqlite/ops, store/pg/ops)
 * over its own connection and schema; the two schemas declare the same tables, columns and
 * TypeScript names (test/store/pg/schema-parity.test.ts).
 */
export interface Handle {
  db: SharedDb;
  t: typeof schema;
}
