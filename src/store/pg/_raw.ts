import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgStore } from '../store.js';

/**
 * The PostgreSQL side's raw statements (the counterparts of sqlite/_raw.ts's prepared SQLite hot
 * paths): plain SQL with $1... placeholders, run on the transaction's client when the store is one.
 */

/** The rows of a statement as arrays, in select-list order (as better-sqlite3's `raw(true)` gives them). */
export async function pgRows<T extends unknown[]>(store: PgStore, text: string, values: readonly unknown[] = []): Promise<T[]> {
  const { rows } = await (store.pg.client ?? store.pg.pool).query<T>({ text, values: [...values], rowMode: 'array' });
  return rows;
}

/** Runs a statement; how many rows it changed. */
export async function pgRun(store: PgStore, text: string, values: readonly unknown[] = []): Promise<number> {
  const result = await (store.pg.client ?? store.pg.pool).query({ text, values: [...values] });
  return result.rowCount ?? 0;
}

/** SQLite's `?` placeholders as PostgreSQL's `$1, $2, ...` (for statement text with no `?` in a literal). */
export function numbered(text: string): string {
  let i = 0;
  return text.replace(/\?/g, () => `$${++i}`);
}

/**
 * A text column ordered as SQLite orders it, by bytes: PostgreSQL's default collation may order
 * `a-b` after `ab` or ignore case.
 */
export function byBytes(col: AnyColumn): SQL {
  return sql`${col} collate "C"`;
}

/**
 * Rows with the same key collapsed the way SQLite's one-row-at-a-time statements would leave them:
 * `keep: 'last'` gives the key's first place and last values (an upsert), `'first'` its first row
 * (an update guarded on the row's old state). One PostgreSQL statement may not touch a row twice.
 */
export function dedupe<T>(rows: readonly T[], key: (row: T) => string, keep: 'first' | 'last'): T[] {
  const out = new Map<string, T>();
  for (const r of rows) {
    const k = key(r);
    if (keep === 'last' || !out.has(k)) out.set(k, r);
  }
  return [...out.values()];
}

/** Slices of at most `size` (PostgreSQL binds at most 65535 parameters per statement). */
export function* chunks<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
