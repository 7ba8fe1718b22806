import { text } from './column.js';
import { table } from './table.js';

/**
 * The data migrations (src/store/data-migrations) this store has applied, one row each, written in
 * the transaction that ran it. Not copied by `db copy`: each store records what ran on it.
 */
export const dataMigrations = table('data_migrations', {
  id: text('id').primaryKey(),
});
