import type Database from 'better-sqlite3';
import { getTableName, type Table } from 'drizzle-orm';
import { columnList, type ColumnInfo } from '../_columns.js';
import type { Db } from '../store.js';

/**
 * The store's hot paths (snapshot writes, settlement, history import, record reads) run on
 * better-sqlite3 prepared statements compiled once per connection, with the values drizzle itself
 * would bind and the objects drizzle itself would return (each column's own mapToDriverValue /
 * mapFromDriverValue, in the schema's column order). Building a drizzle query per row was most of
 * those runs' time (docs/performance.md); drizzle still owns the schema and the migrations.
 */

type Client = Database.Database;

/** The better-sqlite3 connection under a drizzle database or transaction. */
export function clientOf(db: Db): Client {
  const d = db as unknown as { $client?: Client; session?: { client?: Client } };
  const client = d.$client ?? d.session?.client;
  if (!client) throw new Error('no better-sqlite3 connection under this drizzle handle');
  return client;
}

const statements = new WeakMap<Client, Map<string, Database.Statement>>();

/** A statement prepared once per connection and reused (better-sqlite3 statements are reusable). */
export function prepared(client: Client, sql: string): Database.Statement {
  let byText = statements.get(client);
  if (!byText) statements.set(client, (byText = new Map()));
  let stmt = byText.get(sql);
  if (!stmt) byText.set(sql, (stmt = client.prepare(sql)));
  return stmt;
}

/** `insert into <table> (<cols>) values (?, ...)<suffix>`. */
export function insertSql(table: Table, cols: readonly ColumnInfo[], suffix = ''): string {
  return `insert into "${getTableName(table)}" (${columnList(cols)}) values (${cols.map(() => '?').join(', ')})${suffix}`;
}
