import { getTableColumns, type InferInsertModel, type InferSelectModel } from 'drizzle-orm';
import { getTableConfig as pgConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { bigint, boolean, integer, json, real, text } from '../../../src/store/tables/column.js';
import { toPg } from '../../../src/store/tables/pg.js';
import { toSqlite } from '../../../src/store/tables/sqlite.js';
import { index, table } from '../../../src/store/tables/table.js';

/**
 * The builder on a declaration of its own: a foreign key may name a table declared after it (it is
 * resolved when read, to the built column of the same engine), a key to a table never built for that
 * engine says so, and the two engines' row types come out as hand-written drizzle tables give them.
 */

const child = table(
  'child',
  {
    id: integer('id').identity(),
    // Declared before its parent: the reference is a thunk, resolved once both are built.
    parentId: integer('parent_id')
      .notNull()
      .references(() => parent.id, { onDelete: 'cascade' }),
    size: bigint('size'),
    score: real('score'),
    kind: text('kind', { enum: ['a', 'b'] }).notNull(),
    flag: boolean('flag').notNull().default(false),
    detail: json('detail').$type<{ n: number }>(),
  },
  (t) => [index('child_parent').on(t.parentId, t.kind)],
);
const parent = table('parent', { id: integer('id').identity(), name: text('name').notNull().unique() });
const stray = table('stray', { id: text('id').primaryKey(), childId: integer('child_id').references(() => neverBuilt.id) });
const neverBuilt = table('never_built', { id: integer('id').identity() });

const sqliteChild = toSqlite(child);
const sqliteParent = toSqlite(parent);
const pgChild = toPg(child);
const pgParent = toPg(parent);

describe('the table builder', () => {
  it("resolves a foreign key to the referenced column of the same engine's build", () => {
    const [sqliteKey] = sqliteConfig(sqliteChild).foreignKeys;
    expect(sqliteKey?.reference().foreignColumns).toEqual([sqliteParent.id]);
    expect(sqliteKey?.onDelete).toBe('cascade');
    const [pgKey] = pgConfig(pgChild).foreignKeys;
    expect(pgKey?.reference().foreignColumns).toEqual([pgParent.id]);
    expect(pgKey?.onDelete).toBe('cascade');
  });

  it('says which engine lacks the table a foreign key names', () => {
    expect(() => sqliteConfig(toSqlite(stray)).foreignKeys[0]?.reference()).toThrow(/not built for SQLite/);
    expect(() => pgConfig(toPg(stray)).foreignKeys[0]?.reference()).toThrow(/not built for PostgreSQL/);
  });

  it("gives each engine its column classes and keeps the declaration's own keys only", () => {
    expect(Object.keys(getTableColumns(sqliteChild))).toEqual(Object.keys(child));
    expect(Object.keys(getTableColumns(pgChild))).toEqual(Object.keys(child));
    expect(Object.values(getTableColumns(sqliteChild)).map((c) => c.columnType)).toEqual([
      'SQLiteInteger',
      'SQLiteInteger',
      'SQLiteInteger',
      'SQLiteReal',
      'SQLiteText',
      'SQLiteBoolean',
      'SQLiteTextJson',
    ]);
    expect(Object.values(getTableColumns(pgChild)).map((c) => c.columnType)).toEqual(['PgInteger', 'PgInteger', 'PgBigInt53', 'PgDoublePrecision', 'PgText', 'PgBoolean', 'PgJson']);
    expect(sqliteConfig(sqliteChild).indexes.map((i) => i.config.name)).toEqual(['child_parent']);
    expect(pgConfig(pgChild).indexes.map((i) => i.config.name)).toEqual(['child_parent']);
  });

  it('infers the row types a hand-written table would, the same on both engines', () => {
    type Row = { id: number; parentId: number; size: number | null; score: number | null; kind: 'a' | 'b'; flag: boolean; detail: { n: number } | null };
    expectTypeOf<InferSelectModel<typeof sqliteChild>>().toEqualTypeOf<Row>();
    expectTypeOf<InferSelectModel<typeof pgChild>>().toEqualTypeOf<Row>();
    expectTypeOf<InferInsertModel<typeof pgChild>>().toEqualTypeOf<InferInsertModel<typeof sqliteChild>>();
    expectTypeOf<InferInsertModel<typeof pgChild>['flag']>().toEqualTypeOf<boolean | undefined>();
    // identity() is for the integer kinds only.
    // @ts-expect-error a text column has no identity
    const rejected = () => text('t').identity();
    expect(rejected).toBeTypeOf('function');
  });
});
