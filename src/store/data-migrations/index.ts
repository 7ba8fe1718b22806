import { AppError } from '../../errors.js';
import { backfillEnteredAt } from '../repo/ledger.js';
import { transaction } from '../repo/tx.js';
import type { Store } from '../store.js';
import { appliedIds, recordApplied } from './record.js';

/**
 * Data migrations (issue 39): a backfill written once for both engines, as a function over the repo
 * API, instead of SQL in each engine's schema migrations. They run after the schema migrations, in
 * list order, each once per store: its run and its row in data_migrations commit in one transaction,
 * or neither does (a failed one stops the list and runs again at the next call).
 */
export interface DataMigration {
  /** Recorded in data_migrations once applied: never renamed, reused or reordered after release. */
  id: string;
  /** The backfill, through the repo functions on the transaction's handle it is given. */
  run(tx: Store): Promise<void>;
}

/** Every data migration, oldest first; append only. */
export const DATA_MIGRATIONS: readonly DataMigration[] = [
  // Ledger entries written before entered_at existed: entered at their lock time (issue 41 item 5).
  { id: 'ledger-entered-at', run: backfillEnteredAt },
];

/** Applies the data migrations this store has not applied yet; returns their ids, in order. */
export function applyDataMigrations(store: Store): Promise<string[]> {
  return applyInOrder(store, DATA_MIGRATIONS);
}

/** applyDataMigrations over a given list (tests hand in their own). */
export async function applyInOrder(store: Store, migrations: readonly DataMigration[]): Promise<string[]> {
  const ids = migrations.map((m) => m.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new AppError('INTERNAL', `data migration ${repeated} is listed twice`);
  const done = await appliedIds(store);
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    // Exclusive, and checked again inside: of two processes opening one store at once, one runs it.
    const ran = await transaction(
      store,
      async (tx) => {
        if ((await appliedIds(tx)).has(migration.id)) return false;
        await migration.run(tx);
        await recordApplied(tx, migration.id);
        return true;
      },
      { exclusive: true },
    );
    if (ran) applied.push(migration.id);
  }
  return applied;
}
