import { asc, count, getTableColumns, gt, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { AppError } from '../errors.js';
import type { Store } from './db.js';
import { opsOf } from './engine-ops.js';
import { on } from './repo/handle.js';
import { transaction } from './repo/tx.js';
import type * as schema from './schema.js';

/**
 * `propgrade db copy --to <target>`: every row of one store into an empty store of either engine
 * (SQLite to PostgreSQL when one machine is no longer enough, and back), ids kept, so grade locks,
 * ledger entries and snapshots keep pointing at each other. The target is written in one
 * transaction: a copy that fails leaves it empty. Verified by each table's row count on both sides.
 */

type TableName = { [K in keyof typeof schema]: (typeof schema)[K] extends SQLiteTable ? K : never }[keyof typeof schema];

/** Parents before children, so every foreign key finds its row. */
export const COPY_ORDER: readonly TableName[] = [
  'users',
  'apiTokens',
  'preferences',
  'subscriptions',
  'stripeEvents',
  'usageEvents',
  'contentLog',
  'pipelineRuns',
  'runLocks',
  'kvCache',
  'snapshots',
  'gradedRows',
  'gradeLocks',
  'closingPrices',
  'tickerEvents',
  'ledgerEntries',
  'playerGameStats',
];

/** Rows per read and per INSERT: 500 rows of the widest table stay under both engines' bound-parameter limits. */
const CHUNK = 500;

export interface CopyReport {
  tables: Array<{ table: string; source: number; target: number }>;
  rows: number;
}

export async function countRows(store: Store): Promise<Array<{ table: string; rows: number }>> {
  const { db, t } = await on(store);
  const out: Array<{ table: string; rows: number }> = [];
  for (const name of COPY_ORDER) {
    const [row] = await db.select({ n: count() }).from(t[name] as SQLiteTable);
    out.push({ table: name, rows: row?.n ?? 0 });
  }
  return out;
}

export async function copyStore(source: Store, target: Store, onTable?: (table: string, rows: number) => void): Promise<CopyReport> {
  const before = await countRows(target);
  const occupied = before.filter((b) => b.rows > 0);
  if (occupied.length > 0) throw new AppError('CONFLICT', `the target store ${target.label} is not empty (${occupied.map((o) => `${o.table}: ${o.rows}`).join(', ')}); copy only into an empty store`);
  const counts = await countRows(source);
  await transaction(
    target,
    async (tx) => {
      const from = await on(source);
      const to = await on(tx);
      for (const name of COPY_ORDER) {
        let copied = 0;
        for await (const rows of chunksOf(from.db, from.t[name] as SQLiteTable)) {
          await to.db.insert(to.t[name] as SQLiteTable).values(rows);
          copied += rows.length;
        }
        onTable?.(name, copied);
      }
      await opsOf(tx).syncIdentities();
    },
    { exclusive: false },
  );
  const after = await countRows(target);
  const tables = counts.map((c, i) => ({ table: c.table, source: c.rows, target: after[i]?.rows ?? 0 }));
  const short = tables.filter((x) => x.source !== x.target);
  if (short.length > 0) throw new AppError('INTERNAL', `the copy does not match its source: ${short.map((s) => `${s.table} ${s.source} -> ${s.target}`).join(', ')}`);
  return { tables, rows: tables.reduce((a, x) => a + x.target, 0) };
}

/** A table's rows in key order, CHUNK at a time (keyset paging on its first primary-key column). */
async function* chunksOf(db: Awaited<ReturnType<typeof on>>['db'], table: SQLiteTable): AsyncGenerator<Array<Record<string, unknown>>> {
  const key = Object.values(getTableColumns(table)).find((c) => c.primary) as SQLiteColumn | undefined;
  if (!key) throw new AppError('INTERNAL', 'a copied table has no single-column primary key');
  let after: unknown = undefined;
  for (;;) {
    const where: SQL | undefined = after === undefined ? undefined : gt(key, after);
    const rows = (await db.select().from(table).where(where).orderBy(asc(key)).limit(CHUNK)) as Array<Record<string, unknown>>;
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < CHUNK) return;
    after = rows[rows.length - 1]?.[keyName(table, key)];
  }
}

function keyName(table: SQLiteTable, column: SQLiteColumn): string {
  return Object.entries(getTableColumns(table)).find(([, c]) => c === column)?.[0] ?? column.name;
}
