import type { AnyColumn, SQL } from 'drizzle-orm';
import { opsOf } from '../engine-ops.js';
import type { Store } from '../store.js';

// Transitional (issue 39): the PostgreSQL raw statements moved to pg/_raw.ts; byBytes is each adapter's.
export { chunks, dedupe, numbered, pgInsertRows, pgRows, pgRun } from '../pg/_raw.js';

export function byBytes<C extends AnyColumn>(store: Store, col: C): C | SQL {
  return opsOf(store).byBytes(col);
}
