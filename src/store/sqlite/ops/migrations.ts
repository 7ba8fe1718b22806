import { journal } from '../../paths.js';
import type { SqliteConnection } from '../../store.js';

/** Journal migrations the file has not applied, read from drizzle's own record of applied ones. */
export function pendingMigrations({ sqlite }: SqliteConnection): string[] {
  const hasTable = sqlite.prepare(`select 1 from sqlite_master where type='table' and name='__drizzle_migrations'`).get();
  const applied = hasTable ? new Set((sqlite.prepare('select created_at as createdAt from __drizzle_migrations').all() as Array<{ createdAt: number }>).map((r) => Number(r.createdAt))) : new Set<number>();
  return journal()
    .filter((e) => !applied.has(e.when))
    .map((e) => e.tag);
}
