import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { applyDataMigrations, applyInOrder, DATA_MIGRATIONS, type DataMigration } from '../../../src/store/data-migrations/index.js';
import { openStoreAt } from '../../../src/store/db.js';
import { kvGet, kvSet } from '../../../src/store/repo/kv.js';
import { ENGINES } from '../../helpers/engines.js';
import { eachEmptyStore, raw } from '../contract/writes-helpers.js';

/**
 * Data migrations (src/store/data-migrations), each written once over the repo API and run on both
 * engines: in list order, once per store, a run and its record committed together, a failure rolled
 * back and retried at the next call, and one run when two callers apply at once.
 */

const T0 = new Date('2025-11-05T15:00:00.000Z');
const recorded = async (store: Parameters<typeof raw>[0]) => (await raw(store, 'select id from data_migrations order by id')).map((r) => r['id']);

/** Two backfills, the second reading what the first wrote (so order shows), counting their runs. */
function backfills(runs: Record<string, number>): DataMigration[] {
  const count = (id: string) => (runs[id] = (runs[id] ?? 0) + 1);
  return [
    {
      id: '2025-11-05-seed-flag',
      run: async (tx) => {
        count('2025-11-05-seed-flag');
        await kvSet(tx, 'flag', { on: true }, T0, null);
      },
    },
    {
      id: '2025-11-06-copy-flag',
      run: async (tx) => {
        count('2025-11-06-copy-flag');
        await kvSet(tx, 'flag-copy', await kvGet(tx, 'flag', T0), T0, null);
      },
    },
  ];
}

describe.each(ENGINES)('data migrations on %s', (engine) => {
  const get = eachEmptyStore(engine);

  it('applies the pending ones in order, records each, and applies nothing the second time', async () => {
    const { store } = get();
    const runs: Record<string, number> = {};
    expect(await applyInOrder(store, backfills(runs))).toEqual(['2025-11-05-seed-flag', '2025-11-06-copy-flag']);
    expect(await kvGet(store, 'flag-copy', T0)).toEqual({ on: true });
    expect(await recorded(store)).toEqual(['2025-11-05-seed-flag', '2025-11-06-copy-flag']);
    expect(await applyInOrder(store, backfills(runs))).toEqual([]);
    expect(runs).toEqual({ '2025-11-05-seed-flag': 1, '2025-11-06-copy-flag': 1 });
  });

  it('runs only the ones added since the last call', async () => {
    const { store } = get();
    const runs: Record<string, number> = {};
    const [first, second] = backfills(runs) as [DataMigration, DataMigration];
    expect(await applyInOrder(store, [first])).toEqual([first.id]);
    expect(await applyInOrder(store, [first, second])).toEqual([second.id]);
    expect(runs).toEqual({ [first.id]: 1, [second.id]: 1 });
  });

  it('rolls a failed one back with its record, stops the list there, and runs it again at the next call', async () => {
    const { store } = get();
    let fail = true;
    const flaky: DataMigration = {
      id: '2025-11-07-flaky',
      run: async (tx) => {
        await kvSet(tx, 'half-done', 1, T0, null);
        if (fail) throw new Error('backfill failed halfway');
      },
    };
    const after: DataMigration = { id: '2025-11-08-after', run: (tx) => kvSet(tx, 'after', 1, T0, null) };
    await expect(applyInOrder(store, [flaky, after])).rejects.toThrow('backfill failed halfway');
    expect(await kvGet(store, 'half-done', T0)).toBeNull();
    expect(await kvGet(store, 'after', T0)).toBeNull();
    expect(await recorded(store)).toEqual([]);
    fail = false;
    expect(await applyInOrder(store, [flaky, after])).toEqual([flaky.id, after.id]);
    expect(await kvGet(store, 'half-done', T0)).toBe(1);
  });

  it('runs each once when two callers apply at once (PostgreSQL: two stores on one database)', async () => {
    const { store, target } = get();
    const other = engine === 'postgres' ? await openStoreAt(target) : store;
    try {
      const runs: Record<string, number> = {};
      const [a, b] = await Promise.all([applyInOrder(store, backfills(runs)), applyInOrder(other, backfills(runs))]);
      expect([...a, ...b].sort()).toEqual(['2025-11-05-seed-flag', '2025-11-06-copy-flag']);
      expect(runs).toEqual({ '2025-11-05-seed-flag': 1, '2025-11-06-copy-flag': 1 });
    } finally {
      if (other !== store) await other.close();
    }
  });

  it('refuses a list naming one id twice, before running any of it', async () => {
    const { store } = get();
    const runs: Record<string, number> = {};
    const [first] = backfills(runs) as [DataMigration];
    await expect(applyInOrder(store, [first, first])).rejects.toThrow(AppError);
    expect(runs).toEqual({});
  });

  it("applies the program's own list: distinct ids, each recorded", async () => {
    const { store } = get();
    const ids = DATA_MIGRATIONS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await applyDataMigrations(store)).toEqual(ids);
    expect(await recorded(store)).toEqual([...ids].sort());
    expect(await applyDataMigrations(store)).toEqual([]);
  });
});
