import type { InferInsertModel, InferSelectModel, Table } from 'drizzle-orm';
import { describe, expectTypeOf, it } from 'vitest';
import * as pgSchema from '../../../src/store/pg/schema.js';
import * as sqliteSchema from '../../../src/store/schema.js';

// The row types the rest of the program sees must not depend on the engine: checked by tsc
// (`npm run typecheck`), the test bodies only keep vitest from reporting an empty file.
type Tables<S> = { [K in keyof S as S[K] extends Table ? K : never]: S[K] };
type SqliteTables = Tables<typeof sqliteSchema>;
type PgTables = Tables<typeof pgSchema>;
type Rows<T, Mode extends 'select' | 'insert'> = { [K in keyof T]: T[K] extends Table ? (Mode extends 'select' ? InferSelectModel<T[K]> : InferInsertModel<T[K]>) : never };

describe('the PostgreSQL schema mirror, by type', () => {
  it('exports the same tables and constants as the SQLite schema', () => {
    expectTypeOf<keyof typeof pgSchema>().toEqualTypeOf<keyof typeof sqliteSchema>();
    expectTypeOf<keyof PgTables>().toEqualTypeOf<keyof SqliteTables>();
  });

  it('infers the same select and insert row types for every table', () => {
    expectTypeOf<Rows<PgTables, 'select'>>().toEqualTypeOf<Rows<SqliteTables, 'select'>>();
    expectTypeOf<Omit<Rows<PgTables, 'insert'>, 'preferences'>>().toEqualTypeOf<Omit<Rows<SqliteTables, 'insert'>, 'preferences'>>();
    type PgPreferences = InferInsertModel<PgTables['preferences']>;
    type SqlitePreferences = InferInsertModel<SqliteTables['preferences']>;
    expectTypeOf<Omit<PgPreferences, 'userId'>>().toEqualTypeOf<Omit<SqlitePreferences, 'userId'>>();
  });

  it('requires preferences.user_id on insert, which SQLite only lets go because an integer primary key is the rowid', () => {
    // Every caller passes the user's id; an omitted one in SQLite would invent a user id, a bug on both engines.
    expectTypeOf<InferInsertModel<PgTables['preferences']>['userId']>().toEqualTypeOf<number>();
  });
});
