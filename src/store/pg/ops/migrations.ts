import { journal, PG_MIGRATIONS_DIR } from '../../paths.js';
import type { PgConnection } from '../../store.js';

/** Journal migrations the database has not applied, read from drizzle's own record of applied ones. */
export async function pendingMigrations(pg: PgConnection): Promise<string[]> {
  const runner = pg.client ?? pg.pool;
  const exists = await runner.query<{ t: string | null }>("select to_regclass('drizzle.__drizzle_migrations')::text as t");
  const rows = exists.rows[0]?.t ? (await runner.query<{ at: string }>('select created_at::text as at from drizzle.__drizzle_migrations')).rows : [];
  // drizzle's node-postgres migrator records each applied migration's journal `when` as created_at.
  const applied = new Set(rows.map((r) => Number(r.at)));
  return journal(PG_MIGRATIONS_DIR)
    .filter((e) => !applied.has(e.when))
    .map((e) => e.tag);
}

/** Ids were copied as they were, so each identity sequence moves past the largest one. */
export async function syncIdentities(pg: PgConnection): Promise<void> {
  const runner = pg.client ?? pg.pool;
  const { rows } = await runner.query<{ table: string; column: string }>(
    `select c.table_name as table, c.column_name as column from information_schema.columns c
       where c.table_schema = current_schema() and (c.is_identity = 'YES' or c.column_default like 'nextval(%')`,
  );
  for (const r of rows) {
    await runner.query(`select setval(pg_get_serial_sequence($1, $2), coalesce((select max("${r.column}") from "${r.table}"), 0) + 1, false)`, [`"${r.table}"`, r.column]);
  }
}
