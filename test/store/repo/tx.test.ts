import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgStore } from '../../../src/store/db.js';
import { pgRun } from '../../../src/store/pg/_raw.js';
import { transaction, transactionFailure } from '../../../src/store/repo/tx.js';
import { emptyStoreOn, type EngineStore } from '../../helpers/engines.js';

/**
 * Two statement chains side by side in one PostgreSQL transaction (the snapshot's slate and ledger
 * writes): when one fails, the other's next statement is refused as "current transaction is
 * aborted"; the failure reported is the cause, whichever chain it came from.
 */
let pg: EngineStore;
beforeAll(async () => {
  pg = await emptyStoreOn('postgres');
}, 60_000);
afterAll(async () => pg?.cleanup());

async function chains(failFirst: boolean): Promise<{ failures: unknown[]; reported: unknown }> {
  let failures: unknown[] = [];
  await expect(
    transaction(
      pg.store,
      async (tx) => {
        const store = tx as PgStore;
        const bad = async () => pgRun(store, 'select 1 / 0');
        const echo = async () => {
          await pgRun(store, 'select pg_sleep(0.05)');
          await pgRun(store, 'select 1');
        };
        const settled = await Promise.allSettled(failFirst ? [bad(), echo()] : [echo(), bad()]);
        failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
        throw transactionFailure(tx, failures);
      },
      { exclusive: false },
    ),
  ).rejects.toThrow();
  return { failures, reported: transactionFailure(pg.store, failures) };
}

describe('transactionFailure', () => {
  it('on SQLite, where a failed statement leaves its transaction usable, reports the first failure', async () => {
    const sqlite = await emptyStoreOn('sqlite');
    try {
      const a = Object.assign(new Error('a'), { code: '25P02' });
      const b = new Error('b');
      expect(transactionFailure(sqlite.store, [a, b])).toBe(a);
    } finally {
      await sqlite.cleanup();
    }
  });

  it.each([true, false])('reports the statement that failed, not the aborted echo beside it (failing chain first: %s)', async (failFirst) => {
    const { failures, reported } = await chains(failFirst);
    expect(failures.map((f) => (f as { code?: string }).code).sort()).toEqual(['22012', '25P02']);
    expect((reported as { code?: string }).code).toBe('22012');
  });

  it('reports the first failure when every one is an echo or none is', () => {
    const a = Object.assign(new Error('a'), { code: '25P02' });
    const b = Object.assign(new Error('b'), { code: '25P02' });
    expect(transactionFailure(pg.store, [a, b])).toBe(a);
    const c = new Error('c');
    expect(transactionFailure(pg.store, [c, a])).toBe(c);
    expect(transactionFailure(pg.store, [a, new Error('wrapped', { cause: c })])).toEqual(new Error('wrapped', { cause: c }));
  });
});
