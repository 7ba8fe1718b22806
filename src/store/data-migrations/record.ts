import { on } from '../repo/handle.js';
import type { Store } from '../store.js';

/** The ids in data_migrations: the data migrations this store has applied. */
export async function appliedIds(store: Store): Promise<Set<string>> {
  const { db, t } = await on(store);
  const rows = await db.select({ id: t.dataMigrations.id }).from(t.dataMigrations);
  return new Set(rows.map((r) => r.id));
}

/** Called in the transaction that ran the migration, so the record and the data commit together. */
export async function recordApplied(store: Store, id: string): Promise<void> {
  const { db, t } = await on(store);
  await db.insert(t.dataMigrations).values({ id });
}
