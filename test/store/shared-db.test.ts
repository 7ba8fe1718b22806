import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { on, onWrite, type Handle } from '../../src/store/repo/handle.js';
import { ENGINES } from '../helpers/engines.js';
import { eachEmptyStore } from './contract/writes-helpers.js';

/**
 * The shared drizzle handle (src/store/shared-db.ts, issue 39) offers what both engines' builders
 * answer when awaited. The calls only better-sqlite3's builder has fail tsc (each
 * `@ts-expect-error` below is an error tsc must find, or tsc fails on the unused directive), and on
 * PostgreSQL they are really missing: that is why the type leaves them out.
 */

/** Never run: tsc checks it. */
export function misuses({ db, t }: Handle): unknown[] {
  const q = db.select().from(t.kvCache).where(eq(t.kvCache.key, 'k'));
  return [
    // @ts-expect-error SQLite-only: a synchronous first row
    q.get(),
    // @ts-expect-error SQLite-only: synchronous rows
    q.all(),
    // @ts-expect-error SQLite-only: run and report changes
    q.run(),
    // @ts-expect-error SQLite-only: synchronous arrays
    q.values(),
    // @ts-expect-error prepared statements differ by engine (SQLite's take no name)
    q.prepare(),
    // @ts-expect-error after a join too
    db.select().from(t.users).innerJoin(t.apiTokens, eq(t.apiTokens.userId, t.users.id)).orderBy(t.users.id).limit(1).get(),
    // @ts-expect-error `$dynamic()` would bring the SQLite-only calls back
    q.$dynamic(),
    // @ts-expect-error an insert's changes are SQLite's RunResult
    db.insert(t.kvCache).values({ key: 'k', value: 1, updatedAt: 'x', expiresAt: null }).run(),
    // @ts-expect-error still after a conflict clause (drizzle declares it as returning `this`)
    db.insert(t.kvCache).values({ key: 'k', value: 1, updatedAt: 'x', expiresAt: null }).onConflictDoNothing().run(),
    // @ts-expect-error and after returning()
    db.insert(t.kvCache).values({ key: 'k', value: 1, updatedAt: 'x', expiresAt: null }).returning().all(),
    // @ts-expect-error PostgreSQL cannot order an UPDATE
    db.update(t.kvCache).set({ value: 2 }).orderBy(t.kvCache.key),
    // @ts-expect-error nor limit a DELETE
    db.delete(t.kvCache).limit(1),
    // @ts-expect-error transactions are repo/tx.ts's (SQLite's drizzle transaction is synchronous)
    db.transaction(() => undefined),
    // @ts-expect-error raw statements go through the engine's ops
    db.run('select 1'),
    // @ts-expect-error nor the driver underneath
    db.$client,
  ];
}

/** Never run: what a plain statement reports is the engine's, so it awaits to unknown. */
export async function changesOf({ db, t }: Handle): Promise<unknown> {
  const res = await db.update(t.kvCache).set({ value: 2 }).where(eq(t.kvCache.key, 'k'));
  // @ts-expect-error better-sqlite3's `changes` is not PostgreSQL's `rowCount`
  return res.changes;
}

describe.each(ENGINES)('the shared handle on %s', (engine) => {
  const get = eachEmptyStore(engine);

  it('awaits the builder calls it keeps; the calls it leaves out are SQLite-only', async () => {
    const { store } = get();
    await onWrite(store, async ({ db, t }) => {
      await db.insert(t.kvCache).values({ key: 'k', value: { a: 1 }, updatedAt: '2025-11-05T15:00:00.000Z', expiresAt: null }).onConflictDoNothing();
    });
    const { db, t } = await on(store);
    const [row] = await db.select().from(t.kvCache).where(eq(t.kvCache.key, 'k')).limit(1);
    expect(row).toStrictEqual({ key: 'k', value: { a: 1 }, updatedAt: '2025-11-05T15:00:00.000Z', expiresAt: null });
    const query = db.select().from(t.kvCache) as unknown as Record<string, unknown>;
    const sqliteOnly = ['get', 'all', 'run', 'values'].filter((m) => typeof query[m] === 'function');
    expect(sqliteOnly).toStrictEqual(engine === 'sqlite' ? ['get', 'all', 'run', 'values'] : []);
  });
});
