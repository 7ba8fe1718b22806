import type { Store } from '../db.js';

/**
 * Runs `fn` in one IMMEDIATE transaction: the write lock is taken at BEGIN, so a read-check-write
 * (a metered slot, a webhook applied once, a founder code redeemed once) cannot interleave with
 * another process on the same file. `fn` calls repo functions; an exception rolls everything back.
 */
export function immediate<T>(store: Store, fn: () => T): T {
  return store.sqlite.transaction(fn).immediate();
}
